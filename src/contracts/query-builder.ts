// The query builder's state (docs/query-builder.md): a source, filters, aggregations, group-by
// fields, an order, a limit and a time bucket. Shared by the web builder (its URL state,
// `?builder=<json>`) and the compiler to TQL (query-builder-tql.ts). Every field a filter, an
// aggregation or a group names is checked against the source here, so a refusal names its path
// (`aggregations.0.field`, `groupBy.1`, `filters.2.field`).
import { z } from "zod";
import {
  EXPLORE_SOURCES,
  type ExploreSource,
  FilterError,
  Filters,
  filterExpression,
  quoteString,
  resolveField,
  SOURCE_COLUMNS,
} from "./explore-filters.js";

export const BUILDER_FUNCTIONS = [
  "count",
  "rate",
  "sum",
  "avg",
  "min",
  "max",
  "p50",
  "p90",
  "p95",
  "p99",
  "count_distinct",
] as const;
export type BuilderFunction = (typeof BUILDER_FUNCTIONS)[number];

/** Functions that read a field as a number (an attribute's text through toFloat64OrNull). */
export const NUMERIC_FUNCTIONS: ReadonlySet<BuilderFunction> = new Set([
  "sum",
  "avg",
  "min",
  "max",
  "p50",
  "p90",
  "p95",
  "p99",
]);

/** Whether a function takes a field: never (count), optionally (rate: a sum per second), always. */
export function fieldUse(fn: BuilderFunction): "none" | "optional" | "required" {
  if (fn === "count") return "none";
  return fn === "rate" ? "optional" : "required";
}

export const MAX_AGGREGATIONS = 5;
export const MAX_GROUP_BY = 5;
export const MAX_BUILDER_LIMIT = 10_000;
export const DEFAULT_BUILDER_LIMIT = 100;
/** A fixed bucket is at least a second and at most a day. */
export const MAX_BUCKET_SECONDS = 86_400;
/** An alert's look-back when the builder's `window` is not set (seconds). */
export const DEFAULT_ALERT_WINDOW = 300;
export const MAX_ALERT_WINDOW = 86_400;

const FieldName = z.string().min(1).max(256);

export const BuilderAggregation = z
  .object({
    fn: z.enum(BUILDER_FUNCTIONS),
    field: FieldName.optional().describe(
      "A column, `attributes.<key>` or `resource.<key>`; none for count, optional for rate",
    ),
  })
  .strict();
export type BuilderAggregation = z.infer<typeof BuilderAggregation>;

export const BuilderOrder = z
  .object({
    by: z
      .union([z.number().int().min(0), FieldName])
      .describe("An aggregation's index, or one of the group-by fields"),
    dir: z.enum(["asc", "desc"]).default("desc"),
  })
  .strict();
export type BuilderOrder = z.infer<typeof BuilderOrder>;

export const BuilderBucket = z
  .union([z.literal("auto"), z.literal("none"), z.number().int().min(1).max(MAX_BUCKET_SECONDS)])
  .describe("auto: the caller's bucket_seconds; none: one row per group; or fixed seconds");
export type BuilderBucket = z.infer<typeof BuilderBucket>;

export const BuilderQuery = z
  .object({
    source: z.enum(EXPLORE_SOURCES),
    filters: Filters.default([]),
    aggregations: z.array(BuilderAggregation).min(1).max(MAX_AGGREGATIONS),
    groupBy: z.array(FieldName).max(MAX_GROUP_BY).default([]),
    orderBy: BuilderOrder.optional().describe("Absent: the first aggregation, descending"),
    limit: z.number().int().min(1).max(MAX_BUILDER_LIMIT).default(DEFAULT_BUILDER_LIMIT),
    bucket: BuilderBucket.default("none"),
    window: z
      .number()
      .int()
      .min(60)
      .max(MAX_ALERT_WINDOW)
      .optional()
      .describe("An alert's look-back in seconds (default 300); other targets read the window"),
  })
  .strict()
  .superRefine((query, ctx) => {
    for (const issue of builderIssues(query))
      ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  })
  .meta({ id: "BuilderQuery" });
export type BuilderQuery = z.output<typeof BuilderQuery>;
export type BuilderQueryInput = z.input<typeof BuilderQuery>;

/** One thing wrong with a builder query, at its path (`["aggregations", 0, "field"]`). */
export interface BuilderIssue {
  path: (string | number)[];
  message: string;
}

const fieldHelp = (source: ExploreSource) =>
  `a column (${Object.keys(SOURCE_COLUMNS[source]).join(", ")}), attributes.<key> or resource.<key>`;

/** Why a field cannot be read by `fn` in `source`, or undefined when it can. */
function aggregationProblem(
  source: ExploreSource,
  fn: BuilderFunction,
  field: string | undefined,
): string | undefined {
  const use = fieldUse(fn);
  if (field === undefined) return use === "required" ? `${fn} takes a field` : undefined;
  if (use === "none") return `${fn} takes no field`;
  const ref = resolveField(source, field);
  if (!ref) return `${source} has no field "${field}": use ${fieldHelp(source)}`;
  const numeric = NUMERIC_FUNCTIONS.has(fn) || fn === "rate";
  if (numeric && ref.kind === "column" && ref.type !== "number")
    return `${field} is text: ${fn} needs a number column or an attribute (read as a number)`;
  return undefined;
}

/**
 * What is wrong with a query's fields (each with its path): filters its source cannot apply,
 * aggregations without their field or on a field the source does not have, unknown or repeated
 * group-by fields, an order naming neither an aggregation nor a group.
 */
export function builderIssues(
  query: Pick<BuilderQuery, "source" | "filters" | "aggregations" | "groupBy" | "orderBy">,
): BuilderIssue[] {
  const issues: BuilderIssue[] = [];
  const { source } = query;
  query.filters.forEach((filter, i) => {
    try {
      filterExpression(source, filter, quoteString);
    } catch (error) {
      if (!(error instanceof FilterError)) throw error;
      issues.push({ path: ["filters", i, error.part], message: error.message });
    }
  });
  query.aggregations.forEach((aggregation, i) => {
    const problem = aggregationProblem(source, aggregation.fn, aggregation.field);
    if (problem) issues.push({ path: ["aggregations", i, "field"], message: problem });
  });
  query.groupBy.forEach((field, i) => {
    if (!resolveField(source, field))
      issues.push({
        path: ["groupBy", i],
        message: `${source} has no field "${field}": use ${fieldHelp(source)}`,
      });
    else if (query.groupBy.indexOf(field) !== i)
      issues.push({ path: ["groupBy", i], message: `${field} is grouped by already` });
  });
  const by = query.orderBy?.by;
  if (typeof by === "number" && by >= query.aggregations.length)
    issues.push({
      path: ["orderBy", "by"],
      message: `there is no aggregation ${by} (there are ${query.aggregations.length}, from 0)`,
    });
  if (typeof by === "string" && !query.groupBy.includes(by))
    issues.push({
      path: ["orderBy", "by"],
      message: `order by an aggregation's index or a group-by field (${by} is not grouped by)`,
    });
  return issues;
}

/** A query as the builder starts it: a count over the source, per auto bucket. */
export const emptyBuilderQuery = (source: ExploreSource = "traces"): BuilderQuery => ({
  source,
  filters: [],
  aggregations: [{ fn: "count" }],
  groupBy: [],
  limit: DEFAULT_BUILDER_LIMIT,
  bucket: "auto",
});

/**
 * A builder query from its URL text (`?builder=<json>`): the parsed query, or the issues (a
 * path `[]` when the text is not JSON at all).
 */
export function parseBuilderParam(
  text: string,
): { ok: true; query: BuilderQuery } | { ok: false; issues: BuilderIssue[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, issues: [{ path: [], message: "not JSON" }] };
  }
  const parsed = BuilderQuery.safeParse(json);
  if (parsed.success) return { ok: true, query: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => ({
      path: issue.path.filter((p): p is string | number => typeof p !== "symbol"),
      message: issue.message,
    })),
  };
}
