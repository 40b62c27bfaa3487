import { z } from "zod";
import type { Ctx } from "../context.js";
import {
  ALERT_PRESET_KINDS,
  ALERT_UNITS,
  type AlertPresetKind,
} from "../contracts/alert-catalog.js";
import type { AlertPresetView, AlertUnitView, PresetRef } from "../contracts/alerts.js";
import { InvalidInputError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import { requireProject } from "../projects/projects.js";
import { searchTerms } from "../read/search.js";
import { containsPattern } from "../read/sql.js";
import { TELEMETRY_TABLES } from "../telemetry/tables.js";
import type { ValueRange } from "./value-range.js";

/** Look-back windows a preset may aggregate over, as TQL INTERVALs. */
const WINDOWS = {
  "1m": "1 MINUTE",
  "5m": "5 MINUTE",
  "10m": "10 MINUTE",
  "15m": "15 MINUTE",
  "30m": "30 MINUTE",
  "1h": "1 HOUR",
  "6h": "6 HOUR",
  "12h": "12 HOUR",
  "24h": "24 HOUR",
} as const;
const WINDOW_NAMES = Object.keys(WINDOWS) as [keyof typeof WINDOWS, ...(keyof typeof WINDOWS)[]];

/** A TQL string literal: backslashes and quotes escaped. */
export const tqlString = (text: string): string =>
  `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

const Window = z.enum(WINDOW_NAMES).default("5m").describe("How far back each evaluation looks");
const Name = (what: string) => z.string().trim().min(1).max(256).optional().describe(what);
const Service = Name("Only this service (`service.name`)");
const Route = Name("Only this route template (`http.route`)");
/** An attribute name usable as a label; dots become underscores in the label's name. */
const AttributeName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/, { error: "must be an attribute name" });

/** A data point attribute's label name: dots and dashes become underscores. */
const attributeLabel = (name: string) => name.replace(/[.-]/g, "_");
/**
 * Label names metric_aggregate refuses: a SELECT alias shadows the column of that name in WHERE
 * and in the aggregate (`metric_name` would filter on the attribute), and `value` is the result.
 */
const METRIC_RESERVED = new Set([
  ...(TELEMETRY_TABLES.find((t) => t.name === "metrics")?.columns.map((c) => c.name) ?? []),
  "value",
  "__proto__",
  "constructor",
  "prototype",
]);

const where = (conditions: readonly (string | false | undefined)[]): string => {
  const kept = conditions.filter((c): c is string => typeof c === "string");
  return kept.length > 0 ? `WHERE ${kept.join(" AND ")}` : "";
};
const since = (column: string, window: keyof typeof WINDOWS) =>
  `${column} >= now() - INTERVAL ${WINDOWS[window]}`;
/** One label column (or none): its select expression and its GROUP BY clause. */
const grouped = (label: string | undefined) =>
  label
    ? { select: `${label}, `, groupBy: ` GROUP BY ${label.split(" AS ").pop()}` }
    : { select: "", groupBy: "" };

/**
 * One preset: its parameters (zod), how they compile to a TQL query returning `value`, and what
 * that value is: its unit and bounds (`range`), which thresholds are taken in and checked against.
 */
interface PresetSpec<S extends z.ZodType> {
  title: string;
  description: string;
  params: S;
  compile(params: z.output<S>): string;
  /** The unit and bounds of every value it returns, or null where they depend on the params. */
  unit: ValueRange | null;
  /** With the params known: the unit and bounds (defaults to `unit`). */
  range?(params: z.output<S>): ValueRange;
}
const preset = <S extends z.ZodType>(spec: PresetSpec<S>): PresetSpec<S> => spec;

const ErrorRateParams = z
  .object({
    window: Window,
    service: Service,
    route: Route,
    groupBy: z.enum(["service", "route"]).optional().describe("One series per service or route"),
  })
  .strict()
  .meta({ id: "ErrorRatePresetParams" });

const LatencyParams = z
  .object({
    window: Window,
    percentile: z.number().gt(0).lt(100).default(95).describe("The percentile, e.g. 95 or 99.9"),
    service: Service,
    route: Route,
    groupBy: z.enum(["service", "route"]).optional(),
  })
  .strict()
  .meta({ id: "LatencyPresetParams" });

const LogCountParams = z
  .object({
    window: Window,
    level: z.enum(["debug", "info", "warn", "error", "fatal"]).optional(),
    service: Service,
    search: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .optional()
      .describe('Words (or "quoted phrases") that must all occur in the message, any case'),
    groupBy: z.enum(["service", "level"]).optional(),
  })
  .strict()
  .meta({ id: "LogCountPresetParams" });

const ErrorGroupParams = z
  .object({
    window: Window,
    errorId: z
      .string()
      .regex(/^[0-9a-f]{32}$/, { error: "an error id: 32 lowercase hex characters" })
      .optional()
      .describe("Only this error group"),
    service: Service,
    groupBy: z.enum(["error_id"]).optional().describe("One series per error group"),
  })
  .strict()
  .meta({ id: "ErrorGroupPresetParams" });

const AGGREGATIONS = ["avg", "min", "max", "sum", "count", "last", "percentile"] as const;
const MetricParams = z
  .object({
    window: Window,
    metric: z.string().trim().min(1).max(256).describe("The metric's name"),
    aggregation: z.enum(AGGREGATIONS).default("avg"),
    percentile: z.number().gt(0).lt(100).optional().describe("For aggregation `percentile`"),
    service: Service,
    groupBy: z
      .union([z.literal("service"), AttributeName])
      .optional()
      .describe("`service`, or a data point attribute name"),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.aggregation === "percentile" && p.percentile === undefined)
      ctx.addIssue({ code: "custom", path: ["percentile"], message: "give the percentile" });
    if (p.groupBy !== undefined && p.groupBy !== "service") {
      const label = attributeLabel(p.groupBy);
      if (METRIC_RESERVED.has(label))
        ctx.addIssue({
          code: "custom",
          path: ["groupBy"],
          message: `the label '${label}' would shadow the metrics column or result of that name; group by another attribute`,
        });
    }
  })
  .meta({ id: "MetricPresetParams" });

const quantile = (percentile: number) => `quantile(${percentile / 100})`;
const METRIC_VALUE: Record<(typeof AGGREGATIONS)[number], (p: number) => string> = {
  avg: () => "avg(value)",
  min: () => "min(value)",
  max: () => "max(value)",
  sum: () => "sum(value)",
  count: () => "count()",
  last: () => "argMax(value, timestamp)",
  percentile: (p) => `${quantile(p)}(value)`,
};

/** The presets by kind. Each compiles to TQL that returns `value` and its label columns. */
export const PRESETS = {
  error_rate: preset({
    title: "Error rate",
    description:
      "Failed HTTP requests (5xx or error status) as a percentage of all requests, 0–100 (as the Overview shows it), from http_requests",
    params: ErrorRateParams,
    unit: { unit: "percent", min: 0, max: 100 },
    compile: (p) => {
      const label = grouped(
        p.groupBy === "service" ? "service_name AS service" : p.groupBy && "route",
      );
      return `SELECT ${label.select}if(sum(request_count) = 0, NULL, 100 * sum(error_count) / sum(request_count)) AS value FROM http_requests ${where(
        [
          since("timestamp", p.window),
          p.service !== undefined && `service_name = ${tqlString(p.service)}`,
          p.route !== undefined && `route = ${tqlString(p.route)}`,
        ],
      )}${label.groupBy}`;
    },
  }),
  latency_percentile: preset({
    title: "Latency percentile",
    description: "A percentile of server span durations in milliseconds, from traces",
    params: LatencyParams,
    unit: { unit: "ms", min: 0 },
    compile: (p) => {
      const label = grouped(
        p.groupBy === "service" ? "service_name AS service" : p.groupBy && "http_route AS route",
      );
      return `SELECT ${label.select}if(count() = 0, NULL, ${quantile(p.percentile)}(duration_ms)) AS value FROM traces ${where(
        [
          since("timestamp", p.window),
          "span_kind = 'server'",
          p.service !== undefined && `service_name = ${tqlString(p.service)}`,
          p.route !== undefined && `http_route = ${tqlString(p.route)}`,
        ],
      )}${label.groupBy}`;
    },
  }),
  log_count: preset({
    title: "Log count",
    description: "Log records in the window, optionally of a level and matching a search",
    params: LogCountParams,
    unit: { unit: "count", min: 0, integer: true },
    compile: (p) => {
      const label = grouped(p.groupBy === "service" ? "service_name AS service" : p.groupBy);
      const terms = p.search === undefined ? [] : searchTerms(p.search, "preset.params.search");
      return `SELECT ${label.select}count() AS value FROM logs ${where([
        since("timestamp", p.window),
        p.level !== undefined && `level = ${tqlString(p.level)}`,
        p.service !== undefined && `service_name = ${tqlString(p.service)}`,
        ...terms.map(
          (term) => `lower(message) LIKE ${tqlString(containsPattern(term.toLowerCase()))}`,
        ),
      ])}${label.groupBy}`;
    },
  }),
  error_group_occurrences: preset({
    title: "Error-group occurrences",
    description:
      "Occurrences so far of the active error groups seen in the window (error_groups.occurrence_count)",
    params: ErrorGroupParams,
    unit: { unit: "count", min: 0, integer: true },
    compile: (p) => {
      const label = grouped(p.groupBy && "fingerprint AS error_id");
      return `SELECT ${label.select}sum(occurrence_count) AS value FROM error_groups ${where([
        since("last_seen", p.window),
        "status = 'active'",
        p.errorId !== undefined && `fingerprint = ${tqlString(p.errorId)}`,
        p.service !== undefined && `has(services, ${tqlString(p.service)})`,
      ])}${label.groupBy}`;
    },
  }),
  metric_aggregate: preset({
    title: "Metric aggregate",
    description: "avg, min, max, sum, count, last value or a percentile of a metric's points",
    params: MetricParams,
    // The metric's own unit; only a count of points is known to be a whole number from 0.
    unit: null,
    range: (p) =>
      p.aggregation === "count" ? { unit: "count", min: 0, integer: true } : { unit: null },
    compile: (p) => {
      const label = grouped(
        p.groupBy === undefined
          ? undefined
          : p.groupBy === "service"
            ? "service_name AS service"
            : `attributes[${tqlString(p.groupBy)}] AS ${attributeLabel(p.groupBy)}`,
      );
      const aggregate = METRIC_VALUE[p.aggregation](p.percentile ?? 95);
      return `SELECT ${label.select}if(count() = 0, NULL, ${aggregate}) AS value FROM metrics ${where(
        [
          `metric_name = ${tqlString(p.metric)}`,
          since("timestamp", p.window),
          p.service !== undefined && `service_name = ${tqlString(p.service)}`,
        ],
      )}${label.groupBy}`;
    },
  }),
} as const satisfies Record<AlertPresetKind, unknown>;

export type PresetKind = AlertPresetKind;
/** The registry's kinds, in the contract's order (the `satisfies` above keeps the two alike). */
export const PRESET_KINDS = ALERT_PRESET_KINDS;

const isPresetKind = (kind: string): kind is PresetKind => Object.hasOwn(PRESETS, kind);

/**
 * Validates a preset's parameters (400 naming `preset.kind` or `preset.params.NAME`) and
 * compiles it: the params as stored (defaults applied) and the TQL query.
 */
export function compilePreset(ref: PresetRef): {
  preset: PresetRef;
  query: string;
  range: ValueRange;
} {
  if (!isPresetKind(ref.kind))
    throw InvalidInputError.forField(
      "preset.kind",
      `unknown preset '${ref.kind}'; use one of ${PRESET_KINDS.join(", ")}`,
    );
  const spec: PresetSpec<z.ZodType> = PRESETS[ref.kind];
  const params = parseInput(spec.params, ref.params, "preset.params");
  return {
    preset: { kind: ref.kind, params: params as Record<string, unknown> },
    query: spec.compile(params),
    range: spec.range?.(params) ?? spec.unit ?? { unit: null },
  };
}

/** A stored preset's unit (percent, ms, count), or null: a TQL query's or a metric's own. */
export function presetUnit(preset: PresetRef | null): ValueRange["unit"] {
  if (preset === null || !isPresetKind(preset.kind)) return null;
  const spec: PresetSpec<z.ZodType> = PRESETS[preset.kind];
  const params = spec.params.safeParse(preset.params);
  return (params.success ? spec.range?.(params.data) : undefined)?.unit ?? spec.unit?.unit ?? null;
}

const toUnitView = (range: ValueRange | null): AlertUnitView | null =>
  range?.unit
    ? {
        name: range.unit,
        symbol: ALERT_UNITS[range.unit].symbol,
        ...(range.min === undefined ? {} : { min: range.min }),
        ...(range.max === undefined ? {} : { max: range.max }),
        ...(range.integer ? { integer: true } : {}),
      }
    : null;

/** The params schema itself: zod puts a schema with an id under `$defs` behind a `$ref`. */
function paramsJsonSchema(params: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(params, {
    io: "input",
    unrepresentable: "any",
  }) as Record<string, unknown> & { $ref?: string; $defs?: Record<string, unknown> };
  const ref = json.$ref?.split("/").pop();
  const own = ref === undefined ? undefined : json.$defs?.[ref];
  return (own as Record<string, unknown> | undefined) ?? json;
}

let catalog: AlertPresetView[] | undefined;

/** Every preset with its parameters (built once: the registry is static). */
export function alertPresetCatalog(): AlertPresetView[] {
  catalog ??= PRESET_KINDS.map((kind) => {
    const spec: PresetSpec<z.ZodType> = PRESETS[kind];
    return {
      kind,
      title: spec.title,
      description: spec.description,
      unit: toUnitView(spec.unit),
      params: paramsJsonSchema(spec.params),
    };
  });
  return catalog;
}

/** The presets a member of the project can build a rule from. */
export async function listAlertPresets({
  ctx,
  projectId,
}: {
  ctx: Ctx;
  projectId: string;
}): Promise<AlertPresetView[]> {
  await requireProject({ ctx, projectId, access: "read" });
  return alertPresetCatalog();
}
