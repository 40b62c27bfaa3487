import { z } from "zod";
import { ParameterValue, TqlResult } from "./tql.js";
import { TQL_MAX_QUERY_LENGTH } from "./tql-dialect.js";

// Dashboards (docs/dashboards.md, docs/design.md §4 "Dashboards"): the document a user edits and
// exports, the views the API answers, and the panel query request. One schema serves the API's
// validation, the OpenAPI document, the import of an exported file and the browser's types.

/** The export format's version: an import naming another is refused with the field named. */
export const DASHBOARD_SCHEMA_VERSION = 1;
/** The grid is 12 columns wide; heights count rows of the same unit (about 30 px). */
export const DASHBOARD_GRID_COLUMNS = 12;
export const DASHBOARD_MAX_PANELS = 100;
export const DASHBOARD_MAX_VARIABLES = 20;
export const PANEL_MAX_QUERIES = 8;
/** A text panel's Markdown, at most (characters). */
export const TEXT_PANEL_MAX_LENGTH = 20_000;
/** An exported or imported document, at most (bytes of JSON). */
export const DASHBOARD_MAX_DOCUMENT_BYTES = 1_000_000;

export const PANEL_TYPES = [
  "timeseries",
  "stat",
  "table",
  "bargauge",
  "pie",
  "heatmap",
  "logs",
  "traces",
  "text",
] as const;
export type PanelType = (typeof PANEL_TYPES)[number];

export const PANEL_UNITS = [
  "none",
  "count",
  "ms",
  "s",
  "ns",
  "bytes",
  "percent",
  "percentunit",
  "usd",
  "eur",
  "reqps",
] as const;
export type PanelUnit = (typeof PANEL_UNITS)[number];

/** The relative ranges a dashboard may default to: `<n>m`, `<n>h` or `<n>d` back from now. */
export const RELATIVE_RANGE = /^([1-9]\d{0,5})([mhd])$/;
/** Auto refresh choices; "off" never refreshes. */
export const REFRESH_INTERVALS = ["off", "10s", "30s", "1m", "5m", "15m", "1h"] as const;
export type RefreshInterval = (typeof REFRESH_INTERVALS)[number];

const Title = z.string().trim().min(1).max(200);
const ShortText = z.string().max(2000);
const Tql = z
  .string()
  .max(TQL_MAX_QUERY_LENGTH)
  .refine((text) => text.trim().length > 0, "must not be empty");
/** Placeholders every panel query may use without declaring them (docs/dashboards.md). */
export const RESERVED_VARIABLE_NAMES: readonly string[] = ["from", "to", "bucket_seconds"];
/** Names a variable as its TQL placeholder does: `{service:String}` names `service`. */
export const VariableName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "must be a letter or _ then letters, digits or _")
  .refine((name) => !RESERVED_VARIABLE_NAMES.includes(name), "is reserved for the time window");

export const TimeRangeSetting = z.union([
  z.string().regex(RELATIVE_RANGE, "must be like 15m, 6h or 7d"),
  z
    .object({ from: z.iso.datetime({ offset: true }), to: z.iso.datetime({ offset: true }) })
    .strict()
    .refine((w) => Date.parse(w.from) < Date.parse(w.to), "from must be before to"),
]);
export type TimeRangeSetting = z.infer<typeof TimeRangeSetting>;

export const GridPos = z
  .object({
    x: z
      .number()
      .int()
      .min(0)
      .max(DASHBOARD_GRID_COLUMNS - 1),
    y: z.number().int().min(0).max(10_000),
    w: z.number().int().min(1).max(DASHBOARD_GRID_COLUMNS),
    h: z.number().int().min(1).max(100),
  })
  .strict()
  .refine((p) => p.x + p.w <= DASHBOARD_GRID_COLUMNS, {
    message: `x + w must be at most ${DASHBOARD_GRID_COLUMNS}`,
    path: ["w"],
  });
export type GridPos = z.infer<typeof GridPos>;

export const PanelQuery = z
  .object({
    refId: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_]{0,15}$/)
      .optional()
      .describe("A short name for the query (A, B, …); the legend prefixes series with it"),
    tql: Tql.describe(
      "A TQL SELECT; variables as {name:Type} placeholders, the window as {from:DateTime64(3)}, {to:DateTime64(3)}, {bucket_seconds:UInt32} or $__timeFilter(col) / $__timeInterval(col)",
    ),
  })
  .strict();
export type PanelQuery = z.infer<typeof PanelQuery>;

export const Threshold = z
  .object({
    value: z.number().finite(),
    color: z.enum(["green", "yellow", "orange", "red", "blue", "purple", "grey"]),
  })
  .strict();
export type Threshold = z.infer<typeof Threshold>;

/** Where a click on a panel's data may go; `${name}` in `url` is a variable or a column. */
export const PanelLink = z
  .object({
    title: z.string().trim().min(1).max(100),
    kind: z.enum(["traces", "logs", "dashboard"]),
    /** For kind "dashboard": the target's id; the current variables and time range are carried. */
    dashboardId: z.string().max(64).optional(),
    /** Filters for traces or logs, e.g. `service=${service_name}` (values are URL-encoded). */
    params: z.string().max(1000).optional(),
  })
  .strict();
export type PanelLink = z.infer<typeof PanelLink>;

export const PanelOptions = z
  .object({
    /** timeseries: how series are drawn. */
    style: z.enum(["line", "area", "bars"]).optional(),
    stacked: z.boolean().optional(),
    /** stat: draw the series under the value. */
    sparkline: z.boolean().optional(),
    /** pie: a ring instead of a disc. */
    donut: z.boolean().optional(),
    /** bargauge: the bar's full scale; the largest value when absent. */
    max: z.number().finite().optional(),
    legend: z.enum(["bottom", "right", "hidden"]).optional(),
    /** stat and bargauge: which value of a series is shown. */
    reduce: z.enum(["last", "first", "min", "max", "mean", "sum"]).optional(),
  })
  .strict();
export type PanelOptions = z.infer<typeof PanelOptions>;

export const Panel = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,40}$/)
      .optional()
      .describe("Stable within the dashboard; assigned on save when absent"),
    title: z.string().trim().max(200),
    description: ShortText.optional(),
    type: z.enum(PANEL_TYPES),
    gridPos: GridPos,
    queries: z.array(PanelQuery).max(PANEL_MAX_QUERIES).default([]),
    /** text panels: Markdown, rendered sanitized (no HTML, no scripts, safe links only). */
    content: z.string().max(TEXT_PANEL_MAX_LENGTH).optional(),
    unit: z.enum(PANEL_UNITS).default("none"),
    decimals: z.number().int().min(0).max(10).optional(),
    thresholds: z.array(Threshold).max(10).default([]),
    links: z.array(PanelLink).max(10).default([]),
    options: PanelOptions.default({}),
  })
  .strict()
  .refine((p) => p.type === "text" || p.queries.length > 0, {
    message: "a panel other than text needs at least one query",
    path: ["queries"],
  });
export type Panel = z.infer<typeof Panel>;
export type PanelInput = z.input<typeof Panel>;

/** A collapsible row: the panels whose `y` falls between it and the next row belong to it. */
export const DashboardRow = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,40}$/)
      .optional(),
    title: z.string().trim().max(200),
    y: z.number().int().min(0).max(10_000),
    collapsed: z.boolean().default(false),
  })
  .strict();
export type DashboardRow = z.infer<typeof DashboardRow>;

const VariableCommon = {
  name: VariableName,
  label: z.string().trim().max(100).optional(),
  multi: z.boolean().default(false),
  includeAll: z.boolean().default(false),
  /** The value chosen when the dashboard opens; "$__all" for all. */
  default: z.union([z.string().max(1000), z.array(z.string().max(1000)).max(1000)]).optional(),
};

export const DashboardVariable = z.discriminatedUnion("type", [
  z
    .object({
      type: z.literal("query"),
      ...VariableCommon,
      tql: Tql.describe("A TQL query whose first column gives the values (at most 1,000)"),
    })
    .strict(),
  z
    .object({
      type: z.literal("custom"),
      ...VariableCommon,
      values: z.array(z.string().max(1000)).min(1).max(1000),
    })
    .strict(),
  z
    .object({
      type: z.literal("text"),
      ...VariableCommon,
    })
    .strict(),
]);
export type DashboardVariable = z.infer<typeof DashboardVariable>;

const uniqueBy =
  <T>(key: (item: T) => string | undefined) =>
  (items: readonly T[]) => {
    const seen = new Set<string>();
    for (const item of items) {
      const k = key(item);
      if (k === undefined) continue;
      if (seen.has(k)) return false;
      seen.add(k);
    }
    return true;
  };

const Tags = z.array(z.string().trim().min(1).max(50)).max(20);
const uniqueNames = uniqueBy((v: DashboardVariable) => v.name);
const Variables = z
  .array(DashboardVariable)
  .max(DASHBOARD_MAX_VARIABLES)
  .refine(uniqueNames, "variable names must be unique");
const uniqueIds = uniqueBy((p: Panel) => p.id);
const Panels = z
  .array(Panel)
  .max(DASHBOARD_MAX_PANELS)
  .refine(uniqueIds, "panel ids must be unique");
const Rows = z.array(DashboardRow).max(DASHBOARD_MAX_PANELS);

/** What a user edits: everything but the id, version and bookkeeping. */
export const DashboardBody = z
  .object({
    title: Title,
    description: ShortText.default(""),
    tags: Tags.default([]),
    timeRange: TimeRangeSetting.default("1h"),
    refresh: z.enum(REFRESH_INTERVALS).default("off"),
    variables: Variables.default([]),
    panels: Panels.default([]),
    rows: Rows.default([]),
  })
  .strict();
export type DashboardBody = z.infer<typeof DashboardBody>;

export const CreateDashboardInput = DashboardBody.meta({
  id: "CreateDashboardInput",
  example: {
    title: "Checkout",
    panels: [
      {
        title: "Requests per minute",
        type: "timeseries",
        gridPos: { x: 0, y: 0, w: 6, h: 8 },
        queries: [
          {
            tql: "SELECT $__timeInterval(timestamp) AS t, count() AS requests FROM traces WHERE $__timeFilter(timestamp) AND span_kind = 'server' GROUP BY t ORDER BY t",
          },
        ],
      },
    ],
  },
});
export type CreateDashboardInput = z.input<typeof CreateDashboardInput>;

/** A save: the fields it changes (no defaults: the rest is kept) and the version it was read at. */
export const UpdateDashboardInput = z
  .strictObject({
    title: Title.optional(),
    description: ShortText.optional(),
    tags: Tags.optional(),
    timeRange: TimeRangeSetting.optional(),
    refresh: z.enum(REFRESH_INTERVALS).optional(),
    variables: Variables.optional(),
    panels: Panels.optional(),
    rows: Rows.optional(),
    version: z.number().int().min(1).describe("The version this change was made on"),
  })
  .meta({ id: "UpdateDashboardInput" });
export type UpdateDashboardInput = z.input<typeof UpdateDashboardInput>;

export const DashboardView = DashboardBody.extend({
  id: z.string().describe("`dsh_…`"),
  projectId: z.string(),
  version: z.number().int().describe("Increases by one with every save"),
  starred: z.boolean().describe("Whether the signed-in user starred it (false for API keys)"),
  templateId: z.string().nullable().describe("The template it was installed from, if any"),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: "Dashboard" });
export type DashboardView = z.infer<typeof DashboardView>;

/** One dashboard in the list: no panels or variables. */
export const DashboardSummary = DashboardView.pick({
  id: true,
  title: true,
  description: true,
  tags: true,
  version: true,
  starred: true,
  templateId: true,
  updatedAt: true,
})
  .extend({ panelCount: z.number().int() })
  .meta({ id: "DashboardSummary" });
export type DashboardSummary = z.infer<typeof DashboardSummary>;

/** The export file: the body and the schema version, nothing of the project it came from. */
export const DashboardExport = DashboardBody.extend({
  schemaVersion: z
    .literal(DASHBOARD_SCHEMA_VERSION)
    .describe(`The export format's version (now ${DASHBOARD_SCHEMA_VERSION})`),
}).meta({ id: "DashboardExport" });
export type DashboardExport = z.infer<typeof DashboardExport>;

export const DuplicateDashboardInput = z
  .object({ title: Title.optional() })
  .strict()
  .meta({ id: "DuplicateDashboardInput" });
export type DuplicateDashboardInput = z.infer<typeof DuplicateDashboardInput>;

export const StarDashboardInput = z.object({ starred: z.boolean() }).strict();
export type StarDashboardInput = z.infer<typeof StarDashboardInput>;

/** A variable's value as it reaches a placeholder (contracts/tql.ts, shared with POST /v1/tql). */
export { ParameterValue };

/** POST /v1/dashboards/query: one panel query with the dashboard's variables and time window. */
export const PanelQueryRequest = z
  .object({
    tql: Tql,
    variables: z
      .record(z.string().max(64), ParameterValue)
      .default({})
      .refine((v) => Object.keys(v).length <= 64, "at most 64 variables"),
    timeRange: TimeRangeSetting.describe(
      "The window: a relative range back from now (`1h`) or absolute ISO `from`/`to`",
    ),
    maxDataPoints: z
      .number()
      .int()
      .min(10)
      .max(2000)
      .default(300)
      .describe("Sets {bucket_seconds}: the window divided into about this many buckets"),
  })
  .strict()
  .meta({ id: "PanelQueryRequest" });
export type PanelQueryRequest = z.input<typeof PanelQueryRequest>;

export const PanelQueryResult = TqlResult.extend({
  window: z
    .object({ from: z.string(), to: z.string(), bucketSeconds: z.number().int() })
    .describe("The window the placeholders were bound to (a relative range snapped to the bucket)"),
  cached: z.boolean().describe("Answered from the result cache (another viewer's same query)"),
}).meta({ id: "PanelQueryResult" });
export type PanelQueryResult = z.infer<typeof PanelQueryResult>;

/** The template gallery: what each ships, and whether the project has the data it reads. */
export const DashboardTemplateView = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    panelCount: z.number().int(),
    hasData: z
      .boolean()
      .nullable()
      .describe("Whether the project has sent the data it charts (null when unknown)"),
    howToSend: z.string().describe("Markdown: how to send the data it charts"),
  })
  .meta({ id: "DashboardTemplate" });
export type DashboardTemplateView = z.infer<typeof DashboardTemplateView>;

export const InstallTemplateInput = z
  .object({ title: Title.optional() })
  .strict()
  .meta({ id: "InstallTemplateInput" });
export type InstallTemplateInput = z.infer<typeof InstallTemplateInput>;
