import { z } from "zod";
import {
  ComponentState,
  MaintenancePhase,
  PAGE_STATES,
  PageState,
  StatusLink,
} from "./status-pages.js";

// ---- The public payload: /v1/status-pages/:slug/data and /status/:slug.json ----
// Nothing internal: no project ids, monitor or rule ids, URLs probed or query text.

export const PublicIncidentUpdate = z.object({
  id: z.string(),
  at: z.string().describe("ISO 8601 UTC"),
  phase: z.enum(["investigating", "identified", "monitoring", "resolved"]).nullable(),
  message: z.string(),
});

/** An incident as the public sees it: title, impact, times and its public updates. */
export const PublicIncident = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(["active", "resolved"]),
  severity: z.enum(["low", "medium", "high", "critical"]),
  /** The state it puts its components in: low/medium degrade, high/critical take down. */
  impact: z.enum(["degraded", "down"]),
  startedAt: z.string(),
  resolvedAt: z.string().nullable(),
  /** Ids of the page's components whose sources the incident belongs to. */
  componentIds: z.array(z.string()),
  /** Public updates, oldest first. */
  updates: z.array(PublicIncidentUpdate),
});
export type PublicIncident = z.infer<typeof PublicIncident>;

/** One incident as a history day lists it (details are in `incidents`). */
export const HistoryIncidentRef = z.object({
  id: z.string(),
  title: z.string(),
  severity: z.enum(["low", "medium", "high", "critical"]),
});

export const HistoryDay = z.object({
  date: z.string().describe("UTC day, YYYY-MM-DD"),
  /** Worst state of the day outside maintenance; no_data before the component existed. */
  status: z.enum([...PAGE_STATES, "no_data"]),
  /** Percent 0–100 (3 decimals), null when nothing was measured that day. */
  uptime: z.number().nullable(),
  checks: z.object({ run: z.number().int(), passed: z.number().int() }),
  downMs: z.number().int(),
  degradedMs: z.number().int(),
  /** A maintenance window covered the component that day. */
  maintenance: z.boolean(),
  incidents: z.array(HistoryIncidentRef),
});
export type HistoryDay = z.infer<typeof HistoryDay>;

export const PublicComponent = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  groupId: z.string().nullable(),
  status: ComponentState,
  /** Uptime over the 90 days, percent (3 decimals), null when nothing was measured. */
  uptime: z.number().nullable(),
  /** Exactly HISTORY_DAYS entries, oldest first, ending today (UTC). */
  history: z.array(HistoryDay),
});
export type PublicComponent = z.infer<typeof PublicComponent>;

/** The letter of a day's status in a compact history. */
export const DAY_STATUS_LETTER = {
  operational: "o",
  degraded: "d",
  down: "x",
  no_data: "-",
} as const satisfies Record<HistoryDay["status"], string>;

/**
 * A component's days in columns (`?history=compact`): index i of each list is the i-th day from
 * the payload's `history.from`, oldest first; the lists of rare facts name only the days that
 * have one. The same facts as `HistoryDay`, in about a sixth of the bytes.
 */
export const CompactHistory = z
  .object({
    status: z
      .string()
      .regex(/^[odx-]*$/)
      .describe("One letter a day: o operational, d degraded, x down, - no data"),
    uptime: z.array(z.number().nullable()).describe("Percent a day (3 decimals), null unmeasured"),
    checksRun: z.array(z.number().int()),
    checksPassed: z.array(z.number().int()),
    downMs: z.record(z.string(), z.number().int()).describe("Days (YYYY-MM-DD) with downtime"),
    degradedMs: z.record(z.string(), z.number().int()).describe("Days with degraded time"),
    maintenance: z.array(z.string()).describe("Days a maintenance window covered"),
    incidents: z
      .record(z.string(), z.array(z.string()))
      .describe("Days with incidents: their ids, detailed in the payload's `incidents`"),
  })
  .meta({ id: "CompactHistory" });
export type CompactHistory = z.infer<typeof CompactHistory>;

export const PublicGroup = z.object({
  id: z.string(),
  name: z.string(),
  status: ComponentState,
  componentIds: z.array(z.string()),
});

export const PublicMaintenance = z.object({
  id: z.string(),
  title: z.string(),
  message: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  phase: MaintenancePhase,
  componentIds: z.array(z.string()),
});
export type PublicMaintenance = z.infer<typeof PublicMaintenance>;

export const StatusPageData = z.object({
  page: z.object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    description: z.string(),
    logoUrl: z.string().nullable(),
    links: z.array(StatusLink),
    timezone: z.string(),
    status: PageState,
    /** Time of the newest change the payload shows. */
    updatedAt: z.string(),
  }),
  /** The components ("services"), in display order. */
  services: z.array(PublicComponent),
  groups: z.array(PublicGroup),
  /** Open incidents of the page's sources, newest first. */
  activeIncidents: z.array(PublicIncident),
  /** Incidents of the page's sources in the 90 days, resolved ones included, newest first. */
  incidents: z.array(PublicIncident),
  /** Windows in progress or upcoming, soonest first. */
  maintenance: z.array(PublicMaintenance),
  history: z.object({ days: z.number().int(), from: z.string(), to: z.string() }),
  generatedAt: z.string(),
});
export type StatusPageData = z.infer<typeof StatusPageData>;

/** The payload with each component's history in columns (`?history=compact`). */
export const StatusPageCompactData = StatusPageData.extend({
  services: z.array(PublicComponent.extend({ history: CompactHistory })),
});
export type StatusPageCompactData = z.infer<typeof StatusPageCompactData>;

/** How a payload carries the components' days: an object a day, or columns. */
export const HistoryForm = z.enum(["days", "compact"]);
export type HistoryForm = z.infer<typeof HistoryForm>;

/** A page in `GET /v1/status-pages`. */
export const StatusPageSummary = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  status: PageState,
  /** Path of the public page, relative to the server (absolute when VIGIL_PUBLIC_URL is set). */
  url: z.string(),
  components: z.number().int(),
  activeIncidents: z.number().int(),
  updatedAt: z.string(),
});
export type StatusPageSummary = z.infer<typeof StatusPageSummary>;
