import { z } from "zod";
import { countsOf } from "./counts.js";
import {
  ACKNOWLEDGER_KINDS,
  ACTOR_KINDS,
  INCIDENT_EVENT_TYPES,
  INCIDENT_PHASES,
  INCIDENT_SEVERITIES,
  INCIDENT_SOURCES,
  INCIDENT_STATUSES,
  MAX_INCIDENT_COMPONENTS,
} from "./incident-catalog.js";

// The incident API's request and response schemas (zod: validation and OpenAPI alike), shared by
// the server and the dashboard (docs/design.md §4 "Incidents: one model, three sources"). The
// closed sets they check against are incident-catalog.ts.

/** Who wrote a timeline entry: a signed-in user, the system, or the monitor / rule by its id. */
export const IncidentActor = z.object({
  kind: z.enum(ACTOR_KINDS),
  id: z.string().nullable().describe("The user, monitor or alert rule id; null for the system"),
});
export type IncidentActor = z.infer<typeof IncidentActor>;

/** Who acknowledged an incident: a user, a one-click link a channel sent, or the operator. */
export const IncidentAcknowledger = z
  .object({
    kind: z.enum(ACKNOWLEDGER_KINDS),
    id: z
      .string()
      .nullable()
      .describe("The user's id, or the id of the channel that sent the link (null once deleted)"),
    label: z
      .string()
      .nullable()
      .describe("The user's name, or the channel's name and type, as they were then"),
  })
  .meta({ id: "IncidentAcknowledger" });
export type IncidentAcknowledger = z.infer<typeof IncidentAcknowledger>;

/** An incident without its timeline, as lists show it. */
export const IncidentView = z
  .object({
    id: z.string(),
    projectId: z.string(),
    title: z.string(),
    status: z.enum(INCIDENT_STATUSES),
    severity: z.enum(INCIDENT_SEVERITIES),
    source: z
      .enum(INCIDENT_SOURCES)
      .describe("What opened it: a person, a monitor or an alert rule"),
    sourceId: z.string().nullable().describe("The monitor or alert rule id; null when manual"),
    sourceName: z
      .string()
      .nullable()
      .describe("The monitor's or alert rule's name now; null when manual or since deleted"),
    sourceKey: z
      .string()
      .nullable()
      .describe("For alert incidents, the series that opened it; otherwise null"),
    startedAt: z.string(),
    resolvedAt: z.string().nullable(),
    durationMs: z.number().int().nullable().describe("Set once resolved"),
    cause: z.string().nullable().describe("What the source reported (a monitor's first failure)"),
    createdBy: z.string().nullable().describe("The user who opened it by hand"),
    createdAt: z.string(),
    updatedAt: z.string(),
    acknowledgedAt: z
      .string()
      .nullable()
      .describe("When someone first acknowledged it (escalation stops); null until then"),
    acknowledgedBy: IncidentAcknowledger.nullable(),
    assigneeId: z
      .string()
      .nullable()
      .describe("The member of the organization it is assigned to; null when nobody"),
  })
  .meta({ id: "Incident" });
export type IncidentView = z.infer<typeof IncidentView>;

export const IncidentEventView = z
  .object({
    id: z.string(),
    type: z.enum(INCIDENT_EVENT_TYPES),
    at: z.string(),
    actor: IncidentActor,
    message: z.string().nullable(),
    phase: z.enum(INCIDENT_PHASES).nullable().describe("Set on `update` entries"),
    public: z.boolean().describe("Public updates are what status pages show"),
    data: z.record(z.string(), z.unknown()).describe("Details of the entry, by type"),
  })
  .meta({ id: "IncidentEvent" });
export type IncidentEventView = z.infer<typeof IncidentEventView>;

export const IncidentDetailView = IncidentView.extend({
  timeline: z.array(IncidentEventView).describe("Every entry, oldest first"),
  updates: z.array(IncidentEventView).describe("The public updates only, oldest first"),
  componentIds: z
    .array(z.string())
    .describe(
      "Status page components the incident is linked to by hand (besides those its source feeds)",
    ),
}).meta({ id: "IncidentDetail" });
export type IncidentDetailView = z.infer<typeof IncidentDetailView>;

const Title = z.string().trim().min(1).max(200);
const Message = z.string().trim().min(1).max(10_000);
const ComponentIds = z
  .array(z.string().min(1).max(64))
  .max(MAX_INCIDENT_COMPONENTS)
  .describe(
    "Status page components (`spc_…`) of the organization the incident affects, shown on their pages",
  );

export const CreateIncidentInput = z
  .object({
    title: Title,
    severity: z.enum(INCIDENT_SEVERITIES),
    message: Message.optional().describe(
      "A first public update (phase investigating) posted with it",
    ),
    componentIds: ComponentIds.optional(),
  })
  .strict()
  .meta({
    id: "CreateIncidentInput",
    example: {
      title: "Checkout payments failing",
      severity: "high",
      message: "Card payments fail for some customers; we are investigating.",
    },
  });
export type CreateIncidentInput = z.infer<typeof CreateIncidentInput>;

export const UpdateIncidentInput = z
  .object({
    title: Title.optional(),
    severity: z.enum(INCIDENT_SEVERITIES).optional(),
    componentIds: ComponentIds.optional().describe("Replaces the linked components"),
  })
  .strict()
  .meta({ id: "UpdateIncidentInput", example: { severity: "critical" } });
export type UpdateIncidentInput = z.infer<typeof UpdateIncidentInput>;

export const IncidentUpdateInput = z
  .object({
    message: Message,
    phase: z.enum(INCIDENT_PHASES).describe("`resolved` resolves the incident"),
  })
  .strict()
  .meta({
    id: "IncidentUpdateInput",
    example: { message: "A fix is deployed; we are watching error rates.", phase: "monitoring" },
  });
export type IncidentUpdateInput = z.infer<typeof IncidentUpdateInput>;

export const IncidentNoteInput = z
  .object({ message: Message.optional() })
  .strict()
  .meta({ id: "IncidentNoteInput", example: { message: "Rolled back release 2026.11.3" } });
export type IncidentNoteInput = z.infer<typeof IncidentNoteInput>;

export const IncidentCommentInput = z
  .object({ message: Message })
  .strict()
  .meta({ id: "IncidentCommentInput", example: { message: "Paging the payments team" } });
export type IncidentCommentInput = z.infer<typeof IncidentCommentInput>;

export const AcknowledgeIncidentInput = z
  .object({
    message: Message.optional().describe("A private note posted with the acknowledge"),
  })
  .strict()
  .meta({ id: "AcknowledgeIncidentInput", example: { message: "Looking into it" } });
export type AcknowledgeIncidentInput = z.infer<typeof AcknowledgeIncidentInput>;

export const AssignIncidentInput = z
  .object({
    assigneeId: z
      .string()
      .min(1)
      .max(64)
      .nullable()
      .describe("A member of the project's organization (`usr_…`), or null to unassign"),
  })
  .strict()
  .meta({ id: "AssignIncidentInput", example: { assigneeId: "usr_01kaexample0000000000000" } });
export type AssignIncidentInput = z.infer<typeof AssignIncidentInput>;

const SeverityCounts = countsOf(INCIDENT_SEVERITIES);
const SourceCounts = countsOf(INCIDENT_SOURCES);

export const IncidentsDashboard = z
  .object({
    from: z.string(),
    to: z.string(),
    bucketSeconds: z.number().int(),
    opened: z.number().int().describe("Incidents started in the window"),
    resolved: z.number().int().describe("Incidents resolved in the window"),
    open: z.number().int().describe("Incidents active now (any start)"),
    meanTimeToResolveMs: z
      .number()
      .int()
      .nullable()
      .describe("Mean time to resolve of the incidents resolved in the window; null if none"),
    bySeverity: SeverityCounts.describe("Incidents started in the window, per severity"),
    bySource: SourceCounts.describe("Incidents started in the window, per source"),
    series: z
      .array(z.object({ time: z.string(), opened: z.number().int(), resolved: z.number().int() }))
      .describe("Incidents started and resolved per bucket, every bucket present"),
  })
  .meta({ id: "IncidentsDashboard" });
export type IncidentsDashboard = z.infer<typeof IncidentsDashboard>;
