// The parts every metric query is built from (metric-queries-tql.ts puts them together): the
// window (a dashboard's or an alert's), the groups and their aliases, the conditions, and the
// walk along each series that turns cumulative points into increases. TQL has no window
// functions, so a series' points are collected in time order (groupArray + arraySort), walked
// with arrayMap beside the same array shifted by one (the previous point), and unfolded back
// into rows with ARRAY JOIN. docs/metrics-explorer.md shows the text this writes.
import { fieldExpression, filterExpression, quoteString, resolveField } from "./explore-filters.js";
import type { MetricQuery } from "./metric-queries.js";

/** How far before the window a counter's previous point is looked for (its first increase). */
export const LOOKBACK = "INTERVAL 5 MINUTE";
/** An alert reads the last five minutes (it binds no window). */
export const ALERT_WINDOW = "INTERVAL 5 MINUTE";
/** The alert evaluator reads each series' number from this column; charts read it too. */
export const VALUE = "value";
/** The time bucket's column. */
export const BUCKET = "t";

/** What a query is for: a chart over the dashboard's window, or an alert's one row per series. */
export type MetricTarget = "chart" | "alert";

/** The window's pieces as TQL text. */
export interface Frame {
  /** Points in the window. */
  within: string;
  /** Points in the window and up to LOOKBACK before it (a counter's previous point). */
  lookback: string;
  /** Whether a point (read with `lookback`) is in the window. */
  inWindow: string;
  /** The bucket a point falls in (a constant for an alert: one bucket). */
  bucket: string;
  timed: boolean;
}

export function frameFor(target: MetricTarget): Frame {
  if (target === "alert")
    return {
      within: `timestamp >= now() - ${ALERT_WINDOW}`,
      lookback: `timestamp >= now() - ${ALERT_WINDOW} - ${LOOKBACK}`,
      inWindow: `timestamp >= now() - ${ALERT_WINDOW}`,
      bucket: "0",
      timed: false,
    };
  return {
    within: "$__timeFilter(timestamp)",
    lookback: `timestamp >= {from:DateTime64(3)} - ${LOOKBACK} AND timestamp < {to:DateTime64(3)}`,
    inWindow: "timestamp >= {from:DateTime64(3)}",
    bucket: "$__timeInterval(timestamp)",
    timed: true,
  };
}

/** A group-by field: its expression over the metrics table and its column's name. */
export interface Group {
  expression: string;
  name: string;
}

/** Names the generated text uses itself; a group's alias keeps off them. */
const INTERNAL = [
  BUCKET,
  VALUE,
  "series",
  "dt",
  "pts",
  "r",
  "m",
  "u",
  "c",
  "v",
  "zero",
  "pos",
  "neg",
];
/** Prefixes of the generated text's own names (`p_time`, `inc_value`, `q_rank`…). */
const INTERNAL_PREFIX = /^(p|inc|in|q|m|e|min)_/;
const METRIC_COLUMNS = [
  "timestamp",
  "start_timestamp",
  "metric_name",
  "description",
  "unit",
  "metric_type",
  "aggregation_temporality",
  "is_monotonic",
  "value",
  "count",
  "sum",
  "min",
  "max",
  "attributes",
  "resource_attributes",
  "quantiles",
  "quantile_values",
];

const word = (text: string) => text.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "");

/** The groups' expressions and plain, unique aliases (`resource.host.name` → `host_name`). */
export function groupsOf(query: MetricQuery): Group[] {
  const taken = new Set([...INTERNAL, ...METRIC_COLUMNS].filter((n) => n !== "service_name"));
  return query.groupBy.map((field) => {
    const ref = resolveField("metrics", field);
    if (!ref) throw new Error(`unknown field ${field}`);
    if (ref.kind === "column" && !taken.has(ref.column)) {
      taken.add(ref.column);
      return { expression: ref.column, name: ref.column };
    }
    const base = word(ref.kind === "column" ? ref.column : ref.key) || "group";
    let name = /^[A-Za-z_]/.test(base) && !INTERNAL_PREFIX.test(base) ? base : `g_${base}`;
    const start = name;
    for (let n = 2; taken.has(name); n++) name = `${start}_${n}`;
    taken.add(name);
    return { expression: fieldExpression(ref, quoteString), name };
  });
}

/** The metric's own conditions (name, type, filters), without the window. */
export function conditionsOf(query: MetricQuery, extra: readonly string[] = []): string {
  return [
    `metric_name = ${quoteString(query.metric)}`,
    `metric_type = ${quoteString(query.type)}`,
    ...query.filters.map((f) => filterExpression("metrics", f, quoteString)),
    ...extra,
  ].join(" AND ");
}

/** One series: a metric's points with the same attributes, resource and service. */
export const SERIES_KEY =
  "cityHash64(service_name, toString(attributes), toString(resource_attributes))";

export const aliased = (g: Group) =>
  g.expression === g.name ? g.name : `${g.expression} AS ${g.name}`;
export const names = (groups: readonly Group[], ...more: string[]) =>
  [...more, ...groups.map((g) => g.name)].join(", ");

/** What a walk carries per point. `number` and `counts` (an array, per element) are increased. */
export interface Walked {
  name: string;
  expression: string;
  kind: "number" | "counts" | "map" | "carry";
}

/** The increase of a walked value from its previous point `p` to `c`. */
function difference(kind: Walked["kind"]): string {
  switch (kind) {
    case "number":
      return "c - p";
    case "counts":
      return "arrayMap((a, b) -> greatest(a - b, 0), c, arrayResize(p, length(c)))";
    case "map":
      return "mapApply((k, x) -> (k, greatest(x, 0)), mapSubtract(c, p))";
    case "carry":
      return "c";
  }
}

/**
 * Each series' points in time order, unfolded into one row per point in the window with its
 * bucket `t`, its seconds `dt` and each walked value's increase (`inc_<name>`). A delta point's
 * increase is its value over its own interval (start to time, else since the series' previous
 * point). A cumulative point's is its growth since the previous point, or its whole value
 * after a reset: the first walked value dropped, the start time changed, or `layout` changed.
 * A series' first cumulative point has no previous one (dt = 0) and is left out. `source`
 * may add columns to the metrics table (a subquery over it).
 */
export function walkSql(
  query: MetricQuery,
  frame: Frame,
  groups: readonly Group[],
  walked: readonly Walked[],
  {
    layout,
    extra = [],
    source = "metrics",
  }: { layout?: string | undefined; extra?: readonly string[]; source?: string } = {},
): string {
  const [first] = walked;
  if (!first) throw new Error("a walk needs a value");
  // Each point as a tuple, the series' tuples in time order, then one array per element.
  const elements: [string, string][] = [
    ["p_time", "toUnixTimestamp64Milli(timestamp)"],
    ["p_start", "toUnixTimestamp64Milli(start_timestamp)"],
    ["p_delta", "aggregation_temporality = 'delta'"],
    ["p_bucket", frame.bucket],
    ["p_in", frame.inWindow],
    ...(layout ? [["p_layout", layout] as [string, string]] : []),
    ...walked.map((w): [string, string] => [`p_${w.name}`, w.expression]),
  ];
  const arrays = elements.map(([name], i) => `arrayMap(x -> x.${i + 1}, pts) AS ${name}`);
  const prev = (array: string) => `arrayShiftRight(${array}, 1)`;
  const reset = layout
    ? `arrayMap((i, c, p, s, ps, l, pl) -> i > 1 AND (c < p OR s != ps OR l != pl), arrayEnumerate(pts), p_${first.name}, ${prev(`p_${first.name}`)}, p_start, ${prev("p_start")}, p_layout, ${prev("p_layout")}) AS p_reset`
    : `arrayMap((i, c, p, s, ps) -> i > 1 AND (c < p OR s != ps), arrayEnumerate(pts), p_${first.name}, ${prev(`p_${first.name}`)}, p_start, ${prev("p_start")}) AS p_reset`;
  const dt = `arrayMap((i, d, t, pt, s) -> if(d AND s > 0 AND s < t, t - s, if(i > 1, t - pt, 0)), arrayEnumerate(pts), p_delta, p_time, ${prev("p_time")}, p_start) AS p_dt`;
  const increases = walked
    .filter((w) => w.kind !== "carry")
    .map(
      (w) =>
        `arrayMap((i, d, z, c, p) -> if(d OR z OR i = 1, c, ${difference(w.kind)}), arrayEnumerate(pts), p_delta, p_reset, p_${w.name}, ${prev(`p_${w.name}`)}) AS p_inc_${w.name}`,
    );
  const joins = [
    `p_bucket AS ${BUCKET}`,
    "p_in AS in_window",
    "p_dt AS dt",
    ...walked.map((w) => `${w.kind === "carry" ? "p" : "p_inc"}_${w.name} AS inc_${w.name}`),
  ];
  const groupList = groups.map(aliased);
  return `SELECT ${names(groups, BUCKET, "series", "dt", ...walked.map((w) => `inc_${w.name}`))}
    FROM (
      SELECT ${[...groupList, `${SERIES_KEY} AS series`].join(", ")},
        arraySort(x -> x.1, groupArray((${elements.map(([, e]) => e).join(", ")}))) AS pts,
        ${[...arrays, reset, dt, ...increases].join(",\n        ")}
      FROM ${source}
      WHERE ${conditionsOf(query, extra)} AND ${frame.lookback}
      GROUP BY ${names(groups, "series")}
    )
    ARRAY JOIN ${joins.join(", ")}
    WHERE in_window AND dt > 0`;
}

/** `ORDER BY t, groups` for a chart; an alert's rows need no order. */
export const orderBy = (frame: Frame, groups: readonly Group[]) =>
  frame.timed ? `\nORDER BY ${names(groups, BUCKET)}` : "";

/** The outer select list: the bucket (charts), the groups, then `value`. */
export const outputs = (frame: Frame, groups: readonly Group[], value: string) =>
  [...(frame.timed ? [BUCKET] : []), ...groups.map((g) => g.name), `${value} AS ${VALUE}`].join(
    ", ",
  );

/** The group-by list of the outer query: the bucket and the groups. */
export const grouping = (groups: readonly Group[]) => names(groups, BUCKET);

/**
 * Points as they are (gauges, sums, summaries' quantiles): each series' points in a bucket
 * reduced `within` (avg, min, max, or the last by time), then the group's series `across`.
 */
export function bucketedSql(
  query: MetricQuery,
  frame: Frame,
  groups: readonly Group[],
  {
    value = "value",
    within,
    across,
    extra = [],
  }: { value?: string; within: string; across: string; extra?: readonly string[] },
): string {
  const reduced = within === "last" ? `argMax(${value}, timestamp)` : `${within}(${value})`;
  const selected = [
    `${frame.bucket} AS ${BUCKET}`,
    ...groups.map(aliased),
    `${SERIES_KEY} AS series`,
  ];
  return `SELECT ${outputs(frame, groups, `${across}(v)`)}
FROM (
  SELECT ${selected.join(", ")}, ${reduced} AS v
  FROM metrics
  WHERE ${conditionsOf(query, extra)} AND ${frame.within}
  GROUP BY ${names(groups, BUCKET, "series")}
)
GROUP BY ${grouping(groups)}${orderBy(frame, groups)}`;
}
