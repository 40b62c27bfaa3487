import type { ReactNode } from "react";
import { EXPLORE_SOURCES, type ExploreSource } from "../../../../src/contracts/explore-filters";
import {
  type BuilderBucket,
  type BuilderQuery,
  DEFAULT_ALERT_WINDOW,
  MAX_BUILDER_LIMIT,
} from "../../../../src/contracts/query-builder";
import type { BuilderTarget } from "../../../../src/contracts/query-builder-tql";
import { CopyButton } from "../ui";
import { AggregationRows, GroupByRows } from "./aggregation-rows";
import { aggregationLabel, compileBuilder, issueAt, keepOrder, withSource } from "./builder-state";
import { FilterRows, IssueText } from "./filter-rows";
import "./query-builder.css";

const SOURCE_LABELS: Record<ExploreSource, string> = {
  traces: "Traces (spans)",
  logs: "Logs",
  metrics: "Metrics (data points)",
};

const SECONDS: [number, string][] = [
  [10, "10 seconds"],
  [30, "30 seconds"],
  [60, "1 minute"],
  [300, "5 minutes"],
  [900, "15 minutes"],
  [3600, "1 hour"],
  [86_400, "1 day"],
];
const WINDOWS: [number, string][] = [
  [60, "1 minute"],
  [300, "5 minutes"],
  [600, "10 minutes"],
  [900, "15 minutes"],
  [1800, "30 minutes"],
  [3600, "1 hour"],
  [21_600, "6 hours"],
  [86_400, "24 hours"],
];
/** Seconds as the select lists them, a value not listed as its seconds. */
const withCurrent = (list: [number, string][], current: number | undefined): [number, string][] =>
  current === undefined || list.some(([s]) => s === current)
    ? list
    : [...list, [current, `${current} seconds`]];

/**
 * The query builder: a source, filters, aggregations, group-by fields, order, limit and time
 * bucket, with the TQL they make shown live (docs/query-builder.md). `value` is the state (kept
 * by the caller, e.g. in the URL); `target` says what the TQL is for: a table, a chart (over
 * time) or an alert (one `value` per series over a look-back window). "Edit as TQL" hands the
 * text to the caller, which leaves the builder for its TQL editor.
 */
export function QueryBuilder({
  value,
  onChange,
  sources = EXPLORE_SOURCES,
  target,
  onEditTql,
  actions,
}: {
  value: BuilderQuery;
  onChange: (value: BuilderQuery) => void;
  sources?: readonly ExploreSource[];
  target: BuilderTarget;
  onEditTql?: (tql: string) => void;
  /** Beside "Edit as TQL" (a Run button). */
  actions?: ReactNode;
}) {
  const compiled = compileBuilder(value, target);
  const issues = compiled.ok ? [] : compiled.issues;
  const set = (change: Partial<BuilderQuery>) => onChange(keepOrder({ ...value, ...change }));
  const alert = target === "alert";
  const order = value.orderBy;
  const orderKey =
    order === undefined ? "" : typeof order.by === "number" ? `a${order.by}` : `g${order.by}`;
  const grouped = value.groupBy.length > 0;
  const bucketed = target === "chart" || value.bucket !== "none";
  const general = issues.filter((i) => i.path.length === 0 || i.path[0] === "source");

  return (
    <div className="qb" data-testid="query-builder">
      <div className="qb-line">
        <label className="inline-field">
          <span>Source</span>
          <select
            value={value.source}
            onChange={(e) => set(withSource(value, e.target.value as ExploreSource))}
          >
            {sources.map((s) => (
              <option key={s} value={s}>
                {SOURCE_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <FilterRows
        source={value.source}
        filters={value.filters}
        issues={issues}
        onChange={(filters) => set({ filters })}
      />
      <AggregationRows
        source={value.source}
        aggregations={value.aggregations}
        issues={issues}
        max={alert ? 1 : undefined}
        onChange={(aggregations) => set({ aggregations })}
      />
      <GroupByRows
        source={value.source}
        groupBy={value.groupBy}
        issues={issues}
        onChange={(groupBy) => set({ groupBy })}
      />
      <div className="qb-line">
        {!alert && (
          <>
            <label className="inline-field">
              <span>{bucketed && grouped ? "Top series by" : "Order by"}</span>
              <select
                value={orderKey}
                onChange={(e) => {
                  const key = e.target.value;
                  const dir = order?.dir ?? "desc";
                  if (key === "") set({ orderBy: undefined });
                  else if (key.startsWith("a")) set({ orderBy: { by: Number(key.slice(1)), dir } });
                  else set({ orderBy: { by: key.slice(1), dir } });
                }}
              >
                <option value="">
                  {aggregationLabel(value.aggregations[0] ?? { fn: "count" })}
                </option>
                {value.aggregations.slice(1).map((a, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: an aggregation is its position
                  <option key={i} value={`a${i + 1}`}>
                    {aggregationLabel(a)}
                  </option>
                ))}
                {value.groupBy
                  .filter((f) => f !== "")
                  .map((f) => (
                    <option key={f} value={`g${f}`}>
                      {f}
                    </option>
                  ))}
              </select>
            </label>
            <select
              aria-label="Order direction"
              value={order?.dir ?? "desc"}
              onChange={(e) =>
                set({
                  orderBy: { by: order?.by ?? 0, dir: e.target.value === "asc" ? "asc" : "desc" },
                })
              }
            >
              <option value="desc">descending</option>
              <option value="asc">ascending</option>
            </select>
            <label className="inline-field">
              <span>{bucketed && grouped ? "Series" : "Limit"}</span>
              <input
                type="number"
                className="qb-limit"
                min={1}
                max={MAX_BUILDER_LIMIT}
                value={Number.isFinite(value.limit) ? value.limit : ""}
                aria-invalid={issueAt(issues, "limit") ? true : undefined}
                onChange={(e) => set({ limit: e.target.valueAsNumber })}
              />
            </label>
            <label className="inline-field">
              <span>Time bucket</span>
              <select
                value={String(value.bucket)}
                onChange={(e) => {
                  const v = e.target.value;
                  set({ bucket: (v === "auto" || v === "none" ? v : Number(v)) as BuilderBucket });
                }}
              >
                <option value="auto">auto (the range's)</option>
                <option value="none">
                  {target === "chart" ? "none (auto in a chart)" : "none"}
                </option>
                {withCurrent(
                  SECONDS,
                  typeof value.bucket === "number" ? value.bucket : undefined,
                ).map(([s, label]) => (
                  <option key={s} value={s}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          </>
        )}
        {alert && (
          <label className="inline-field">
            <span>Look back over</span>
            <select
              value={value.window ?? DEFAULT_ALERT_WINDOW}
              onChange={(e) => set({ window: Number(e.target.value) })}
            >
              {withCurrent(WINDOWS, value.window).map(([s, label]) => (
                <option key={s} value={s}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <IssueText id="qb-order" message={issueAt(issues, "orderBy.by")} />
      <IssueText id="qb-limit" message={issueAt(issues, "limit")} />
      {general.map((issue) => (
        <IssueText key={issue.path.join(".")} id="qb-general" message={issue.message} />
      ))}
      <section className="qb-tql" aria-label="Generated TQL">
        <div className="qb-tql-head">
          <strong className="small">TQL</strong>
          <span className="muted small">
            {alert
              ? "One value per series over the look-back window, as an alert reads it"
              : "Runs over the time range"}
          </span>
          <span className="spacer" />
          {compiled.ok && <CopyButton text={compiled.tql} label="Copy" />}
          {compiled.ok && onEditTql && (
            <button type="button" className="button small" onClick={() => onEditTql(compiled.tql)}>
              Edit as TQL
            </button>
          )}
          {actions}
        </div>
        {compiled.ok ? (
          <pre className="mono qb-tql-text" data-testid="builder-tql">
            {compiled.tql}
          </pre>
        ) : (
          <p className="muted small" role="status">
            Complete the query to see its TQL ({issues.length}{" "}
            {issues.length === 1 ? "thing" : "things"} to fix above).
          </p>
        )}
      </section>
    </div>
  );
}
