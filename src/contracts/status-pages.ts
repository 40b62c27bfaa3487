import { z } from "zod";

// The status pages' contract shared by the server and the dashboard (docs/design.md §4 "Status
// pages"): the states and their words, the management API's views and the inputs it takes. The
// verbs in src/status-pages/ check what a schema cannot (slug taken, sources of the organization,
// times against the clock). The public payload is in status-page-data.ts.

/** How many UTC days of history a page shows (spec: status page history, 90 days). */
export const HISTORY_DAYS = 90;

/** A page's state (the spec's three). */
export const PAGE_STATES = ["operational", "degraded", "down"] as const;
export const PageState = z.enum(PAGE_STATES);
export type PageState = z.infer<typeof PageState>;

/** A component's state: a page state, or under a maintenance window (not counted as downtime). */
export const COMPONENT_STATES = [...PAGE_STATES, "maintenance"] as const;
export const ComponentState = z.enum(COMPONENT_STATES);
export type ComponentState = z.infer<typeof ComponentState>;

/** Severity order of the page states: the worst wins. */
export const STATE_RANK: Record<PageState, number> = { operational: 0, degraded: 1, down: 2 };

export const worstState = (states: Iterable<PageState>): PageState => {
  let worst: PageState = "operational";
  for (const s of states) if (STATE_RANK[s] > STATE_RANK[worst]) worst = s;
  return worst;
};

export const MAINTENANCE_PHASES = ["scheduled", "in_progress", "completed"] as const;
export const MaintenancePhase = z.enum(MAINTENANCE_PHASES);
export type MaintenancePhase = z.infer<typeof MaintenancePhase>;

/** A link in a page's header. */
export const StatusLink = z.object({ label: z.string(), url: z.string() });
export type StatusLink = z.infer<typeof StatusLink>;

/** Each state's words, the same on the page's pills, incidents, feeds and the dashboard. */
export const STATE_LABEL: Record<ComponentState, string> = {
  operational: "Operational",
  degraded: "Degraded performance",
  down: "Outage",
  maintenance: "Under maintenance",
};

/** The public page's banner for its state: the state's own label, "all systems" when all is well. */
export const PAGE_HEADLINE: Record<PageState, string> = {
  operational: "All systems operational",
  degraded: STATE_LABEL.degraded,
  down: STATE_LABEL.down,
};

// The management API's views: members see the internals (sources, projects, versions) the
// public payload leaves out.

export const StatusPageView = z
  .object({
    id: z.string(),
    orgId: z.string(),
    slug: z.string(),
    title: z.string(),
    description: z.string(),
    logoUrl: z.string().nullable(),
    links: z.array(StatusLink),
    timezone: z.string(),
    status: PageState,
    statusChangedAt: z.string(),
    /** Bumped by every change of what the public page shows. */
    dataVersion: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "StatusPage" });
export type StatusPageView = z.infer<typeof StatusPageView>;

export const StatusPageGroupView = z
  .object({ id: z.string(), pageId: z.string(), name: z.string(), position: z.number().int() })
  .meta({ id: "StatusPageGroup" });
export type StatusPageGroupView = z.infer<typeof StatusPageGroupView>;

export const ComponentSourceView = z
  .object({ id: z.string(), name: z.string(), projectId: z.string() })
  .meta({ id: "StatusPageComponentSource" });
export type ComponentSourceView = z.infer<typeof ComponentSourceView>;

export const StatusPageComponentView = z
  .object({
    id: z.string(),
    pageId: z.string(),
    groupId: z.string().nullable(),
    name: z.string(),
    description: z.string(),
    position: z.number().int(),
    status: ComponentState,
    statusChangedAt: z.string(),
    monitors: z.array(ComponentSourceView),
    alertRules: z.array(ComponentSourceView),
    publishIncidents: z
      .boolean()
      .describe("Its sources' own incidents show on it and count by severity"),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "StatusPageComponent" });
export type StatusPageComponentView = z.infer<typeof StatusPageComponentView>;

export const StatusPageMaintenanceView = z
  .object({
    id: z.string(),
    pageId: z.string(),
    title: z.string(),
    message: z.string(),
    startsAt: z.string(),
    endsAt: z.string(),
    phase: MaintenancePhase,
    componentIds: z.array(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "StatusPageMaintenance" });
export type StatusPageMaintenanceView = z.infer<typeof StatusPageMaintenanceView>;

/** One page's whole configuration. */
export const StatusPageConfigView = z
  .object({
    page: StatusPageView,
    groups: z.array(StatusPageGroupView).describe("By position, then id"),
    components: z.array(StatusPageComponentView).describe("By position, then id"),
    maintenances: z.array(StatusPageMaintenanceView).describe("Latest start first"),
  })
  .meta({ id: "StatusPageConfig" });
export type StatusPageConfigView = z.infer<typeof StatusPageConfigView>;

// ---- The management API's inputs ----

export const MAX_COMPONENTS_PER_PAGE = 100;
export const MAX_SOURCES_PER_COMPONENT = 20;
export const MAX_LINKS = 10;
export const MAX_MAINTENANCE_MS = 7 * 86_400_000;
export const MAX_POSITION = 1_000_000;

/** A page, group, component or window id in a path. */
export const ItemIdParam = z.string().min(1).max(64);
export const OrgIdParam = z.string().min(1).max(64);

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const Slug = z
  .string()
  .min(1)
  .max(63)
  .regex(SLUG, {
    error: "lowercase letters, digits and single hyphens, not starting or ending with '-'",
  })
  .describe("The public address /status/:slug; unique across the installation");

const HttpUrl = z.url({ protocol: /^https?$/, error: "must be an http or https URL" }).max(2048);

/** An IANA zone Intl knows, stored in its canonical spelling ("europe/paris" → "Europe/Paris"). */
export const TimeZone = z
  .string()
  .min(1)
  .max(64)
  .transform((zone, ctx) => {
    try {
      // Offsets like "+01:00" are accepted by newer Intl but are not IANA zones.
      if (/^[+-]/.test(zone)) throw new RangeError(zone);
      return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
    } catch {
      ctx.addIssue({ code: "custom", message: `'${zone}' is not an IANA time zone` });
      return z.NEVER;
    }
  })
  .describe("IANA time zone the public page shows times in, e.g. Europe/Paris");

export const StatusLinkInput = z
  .object({ label: z.string().trim().min(1).max(50), url: HttpUrl })
  .strict()
  .meta({ id: "StatusPageLinkInput" });

const PageFields = z
  .object({
    slug: Slug,
    title: z.string().trim().min(1).max(100),
    description: z.string().max(1000).default(""),
    logoUrl: HttpUrl.nullable().default(null),
    links: z.array(StatusLinkInput).max(MAX_LINKS).default([]),
    timezone: TimeZone.default("UTC"),
  })
  .strict();

export const CreateStatusPageInput = PageFields.meta({ id: "CreateStatusPageInput" });
export type CreateStatusPageInput = z.input<typeof CreateStatusPageInput>;

const atLeastOne = { error: "give at least one field to change" };
const nonEmpty = (patch: object) => Object.keys(patch).length > 0;

/** PATCH: any subset of the fields; an omitted field keeps its value. */
export const UpdateStatusPageInput = z
  .object({
    slug: Slug,
    title: z.string().trim().min(1).max(100),
    description: z.string().max(1000),
    logoUrl: HttpUrl.nullable(),
    links: z.array(StatusLinkInput).max(MAX_LINKS),
    timezone: TimeZone,
  })
  .strict()
  .partial()
  .refine(nonEmpty, atLeastOne)
  .meta({ id: "UpdateStatusPageInput" });
export type UpdateStatusPageInput = z.input<typeof UpdateStatusPageInput>;

const Position = z
  .number()
  .int()
  .min(0)
  .max(MAX_POSITION)
  .describe("Display order (then id); absent on create = after the last");

export const CreateGroupInput = z
  .object({ name: z.string().trim().min(1).max(100), position: Position.optional() })
  .strict()
  .meta({ id: "CreateStatusPageGroupInput" });
export type CreateGroupInput = z.input<typeof CreateGroupInput>;

export const UpdateGroupInput = CreateGroupInput.partial()
  .refine(nonEmpty, atLeastOne)
  .meta({ id: "UpdateStatusPageGroupInput" });
export type UpdateGroupInput = z.input<typeof UpdateGroupInput>;

const SourceIds = z.array(z.string().min(1).max(64)).max(MAX_SOURCES_PER_COMPONENT);

const ComponentFields = z
  .object({
    name: z.string().trim().min(1).max(100),
    description: z.string().max(1000),
    groupId: z
      .string()
      .min(1)
      .max(64)
      .nullable()
      .describe("A group of this page; null = ungrouped"),
    position: Position,
    monitorIds: SourceIds.describe("Monitors of any project of the page's organization"),
    alertRuleIds: SourceIds.describe("Alert rules of any project of the page's organization"),
    publishIncidents: z
      .boolean()
      .describe(
        "Show its monitors' and alert rules' own incidents on it, counted by severity (default true); incidents linked by hand always show",
      ),
  })
  .strict();

/** Monitors and rules together: at most MAX_SOURCES_PER_COMPONENT. */
function refineSources(
  input: { monitorIds?: string[] | undefined; alertRuleIds?: string[] | undefined },
  ctx: z.RefinementCtx,
): void {
  const total = new Set(input.monitorIds).size + new Set(input.alertRuleIds).size;
  if (total > MAX_SOURCES_PER_COMPONENT)
    ctx.addIssue({
      code: "custom",
      path: ["alertRuleIds"],
      message: `a component takes at most ${MAX_SOURCES_PER_COMPONENT} sources (monitors and rules together)`,
    });
}

export const CreateComponentInput = ComponentFields.extend({
  description: ComponentFields.shape.description.default(""),
  groupId: ComponentFields.shape.groupId.default(null),
  position: Position.optional(),
  monitorIds: ComponentFields.shape.monitorIds.default([]),
  alertRuleIds: ComponentFields.shape.alertRuleIds.default([]),
  publishIncidents: ComponentFields.shape.publishIncidents.default(true),
})
  .superRefine(refineSources)
  .meta({ id: "CreateStatusPageComponentInput" });
export type CreateComponentInput = z.input<typeof CreateComponentInput>;

/** PATCH: giving `monitorIds` or `alertRuleIds` replaces that list. */
export const UpdateComponentInput = ComponentFields.partial()
  .superRefine(refineSources)
  .refine(nonEmpty, atLeastOne)
  .meta({ id: "UpdateStatusPageComponentInput" });
export type UpdateComponentInput = z.input<typeof UpdateComponentInput>;

const Instant = z.iso.datetime({ offset: true });

const MaintenanceFields = z
  .object({
    title: z.string().trim().min(1).max(200),
    message: z.string().max(5000),
    startsAt: Instant.describe("ISO 8601"),
    endsAt: Instant.describe("ISO 8601, after startsAt and at most 7 days later"),
    componentIds: z
      .array(z.string().min(1).max(64))
      .min(1)
      .max(MAX_COMPONENTS_PER_PAGE)
      .describe("Components of this page the window covers"),
  })
  .strict();

export const CreateMaintenanceInput = MaintenanceFields.extend({
  message: MaintenanceFields.shape.message.default(""),
}).meta({ id: "CreateStatusPageMaintenanceInput" });
export type CreateMaintenanceInput = z.input<typeof CreateMaintenanceInput>;

export const UpdateMaintenanceInput = MaintenanceFields.partial()
  .refine(nonEmpty, atLeastOne)
  .meta({ id: "UpdateStatusPageMaintenanceInput" });
export type UpdateMaintenanceInput = z.input<typeof UpdateMaintenanceInput>;
