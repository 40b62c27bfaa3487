// The query builder's TQL (docs/query-builder.md has the mapping with examples): a pure function
// of the builder's state, shared by the web builder (the text it shows and runs) and the
// server's tests. Values are quoted literals (quoteString), never bound: the text stands alone,
// as a user would write it, and TQL turns each literal into a bound parameter when it compiles.
import {
  type ExploreSource,
  type FieldRef,
  fieldExpression,
  filterExpression,
  numericExpression,
  quoteString,
  resolveField,
  SOURCE_COLUMNS,
} from "./explore-filters.js";
import {
  type BuilderAggregation,
  type BuilderIssue,
  type BuilderQuery,
  builderIssues,
  DEFAULT_ALERT_WINDOW,
} from "./query-builder.js";

/**
 * What the text is for. `table`: rows as asked (a bucket only when chosen). `chart`: over time
 * (`none` becomes `auto`). `alert`: one row per series with its number in `value`, over the
 * last `window` seconds (an alert binds no window: it reads `now()`), no bucket, order or limit.
 */
export type BuilderTarget = "table" | "chart" | "alert";

/** A builder query that cannot be compiled: its issues, each with its path. */
export class BuilderQueryError extends Error {
  constructor(readonly issues: BuilderIssue[]) {
    super(issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  }
}

/** The time column of every source. */
const TIME = "timestamp";
/** The time bucket's alias. */
const BUCKET = "t";
/** The alert evaluator reads each series' number from this column (src/alerts/query-check.ts). */
const ALERT_VALUE = "value";

/** Names an alias must not take in a source: it would shadow a column the query reads. */
const reserved = (source: ExploreSource): ReadonlySet<string> =>
  new Set([
    ...Object.keys(SOURCE_COLUMNS[source]),
    TIME,
    BUCKET,
    ALERT_VALUE,
    "attributes",
    "resource_attributes",
  ]);

const word = (text: string) => text.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "");

/**
 * A plain alias from `base`, unique in the query and off its source's column names (`count`
 * over metrics → `count_2`). `taken` starts with the source's reserved names.
 */
function uniqueAlias(base: string, taken: Set<string>): string {
  const start = /^[A-Za-z_]/.test(base) ? base : `_${base}`;
  let alias = start;
  for (let n = 2; taken.has(alias); n++) alias = `${start}_${n}`;
  taken.add(alias);
  return alias;
}

const QUANTILES: Partial<Record<BuilderAggregation["fn"], string>> = {
  p50: "0.5",
  p90: "0.9",
  p95: "0.95",
  p99: "0.99",
};

const resolved = (source: ExploreSource, field: string): FieldRef => {
  const ref = resolveField(source, field);
  if (!ref) throw new BuilderQueryError([{ path: [], message: `unknown field ${field}` }]);
  return ref;
};

/**
 * An aggregation's expression. `per` divides a rate: the bucket's seconds, or the window's; a
 * rate without a field counts rows per second, with one sums the field per second.
 */
function aggregationExpression(
  source: ExploreSource,
  { fn, field }: BuilderAggregation,
  per: string,
): string {
  const ref = field === undefined ? undefined : resolved(source, field);
  const number = () => (ref ? numericExpression(ref, quoteString) : "0");
  const quantile = QUANTILES[fn];
  if (quantile) return `quantile(${quantile})(${number()})`;
  switch (fn) {
    case "count":
      return "count()";
    case "rate":
      return `${ref ? `sum(${number()})` : "count()"} / ${per}`;
    case "count_distinct":
      return `uniq(${ref ? fieldExpression(ref, quoteString) : "1"})`;
    default:
      return `${fn}(${number()})`;
  }
}

/** The alias an aggregation's column gets: `count`, `p95_duration_ms`, `sum_attributes_bytes`. */
const aggregationName = ({ fn, field }: BuilderAggregation) =>
  field === undefined ? fn : `${fn}_${word(field)}`;

/** A group-by field: its expression and the name its column has (a column keeps its own). */
interface Group {
  expression: string;
  name: string;
}

function groupsOf(query: BuilderQuery, taken: Set<string>, alert: boolean): Group[] {
  return query.groupBy.map((field) => {
    const ref = resolved(query.source, field);
    // A column keeps its name, but an alert's `value` is its number, not a label.
    if (ref.kind === "column" && !(alert && ref.column === ALERT_VALUE)) {
      taken.add(ref.column);
      return { expression: ref.column, name: ref.column };
    }
    if (ref.kind === "column")
      return { expression: ref.column, name: uniqueAlias(ref.column, taken) };
    const prefix = ref.map === "attributes" ? "attributes" : "resource";
    const expression = fieldExpression(ref, quoteString);
    return { expression, name: uniqueAlias(word(`${prefix}_${ref.key}`), taken) };
  });
}

const aliased = (expression: string, name: string) =>
  expression === name ? expression : `${expression} AS ${name}`;

/** The bucket's expression and its width in seconds as TQL text, or null for none. */
function bucketOf(query: BuilderQuery, target: BuilderTarget) {
  if (target === "alert") return null;
  const bucket = query.bucket === "none" && target === "chart" ? "auto" : query.bucket;
  if (bucket === "none") return null;
  if (bucket === "auto")
    return { expression: `$__timeInterval(${TIME})`, seconds: "{bucket_seconds:UInt32}" };
  return {
    expression: `toStartOfInterval(${TIME}, INTERVAL ${bucket} SECOND)`,
    seconds: String(bucket),
  };
}

/** The window's length in seconds, for a rate over the whole window. */
const WINDOW_SECONDS =
  "((toUnixTimestamp64Milli({to:DateTime64(3)}) - toUnixTimestamp64Milli({from:DateTime64(3)})) / 1000)";

/** The top `limit` groups over the window, ranked by the order: a series per group. */
function topGroups(
  query: BuilderQuery,
  groups: readonly Group[],
  where: (indent: string) => string[],
  per: string,
): string[] {
  const order = query.orderBy ?? { by: 0, dir: "desc" as const };
  const group = typeof order.by === "string" ? query.groupBy.indexOf(order.by) : -1;
  const aggregation = query.aggregations[typeof order.by === "number" ? order.by : 0];
  const rank =
    groups[group]?.expression ??
    aggregationExpression(query.source, aggregation ?? { fn: "count" }, per);
  const keys = groups.map((g) => g.expression).join(", ");
  return [
    `  AND ${groups.length > 1 ? `(${keys})` : keys} IN (`,
    `    SELECT ${keys}`,
    `    FROM ${query.source}`,
    ...where("    "),
    `    GROUP BY ${keys}`,
    `    ORDER BY ${rank} ${order.dir.toUpperCase()}`,
    `    LIMIT ${query.limit}`,
    "  )",
  ];
}

/**
 * The builder's query as TQL text, one clause per line. Throws BuilderQueryError (with paths)
 * for a query whose fields its source does not have.
 */
export function builderToTql(query: BuilderQuery, { target }: { target: BuilderTarget }): string {
  const issues = builderIssues(query);
  if (issues.length > 0) throw new BuilderQueryError(issues);
  const alert = target === "alert";
  const window = query.window ?? DEFAULT_ALERT_WINDOW;
  const bucket = bucketOf(query, target);
  const taken = new Set(reserved(query.source));
  const groups = groupsOf(query, taken, alert);
  const per = bucket ? bucket.seconds : alert ? String(window) : WINDOW_SECONDS;
  // An alias shadows its column in WHERE: an alert filtering on a `value` column (metrics)
  // names its number otherwise inside, and `value` outside.
  const wrapped = alert && query.filters.some((f) => f.field === ALERT_VALUE);
  const aggregations = alert ? query.aggregations.slice(0, 1) : query.aggregations;
  const measures = aggregations.map((a) => ({
    expression: aggregationExpression(query.source, a, per),
    name: alert && !wrapped ? ALERT_VALUE : uniqueAlias(aggregationName(a), taken),
  }));

  const conditions = [
    alert ? `${TIME} >= now() - INTERVAL ${window} SECOND` : `$__timeFilter(${TIME})`,
    ...query.filters.map((f) => filterExpression(query.source, f, quoteString)),
  ];
  const where = (indent: string) =>
    [`WHERE ${conditions[0]}`, ...conditions.slice(1).map((c) => `  AND ${c}`)].map(
      (line) => `${indent}${line}`,
    );
  const columns = [
    ...(bucket ? [`${bucket.expression} AS ${BUCKET}`] : []),
    ...groups.map((g) => aliased(g.expression, g.name)),
    ...measures.map((m) => `${m.expression} AS ${m.name}`),
  ];
  const lines = [`SELECT ${columns.join(", ")}`, `FROM ${query.source}`, ...where("")];
  if (bucket && groups.length > 0) lines.push(...topGroups(query, groups, where, per));
  const groupNames = groups.map((g) => g.name);
  const grouping = [...(bucket ? [BUCKET] : []), ...groupNames];
  if (grouping.length > 0) lines.push(`GROUP BY ${grouping.join(", ")}`);

  if (alert) {
    if (!wrapped) return lines.join("\n");
    const outer = [...groupNames, `${measures[0]?.name} AS ${ALERT_VALUE}`];
    return [`SELECT ${outer.join(", ")}`, "FROM (", ...lines.map((l) => `  ${l}`), ")"].join("\n");
  }
  if (bucket) return [...lines, `ORDER BY ${grouping.join(", ")}`].join("\n");
  const order = query.orderBy ?? { by: 0, dir: "desc" as const };
  const orderName =
    typeof order.by === "string"
      ? groupNames[query.groupBy.indexOf(order.by)]
      : measures[order.by]?.name;
  return [
    ...lines,
    `ORDER BY ${orderName} ${order.dir.toUpperCase()}`,
    `LIMIT ${query.limit}`,
  ].join("\n");
}
