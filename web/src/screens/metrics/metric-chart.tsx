import { useMemo, useState } from "react";
import { Link } from "wouter";
import type { Panel, TimeRangeSetting } from "../../../../src/contracts/dashboards";
import type { MetricNameView } from "../../../../src/contracts/metric-names";
import {
  describeType,
  effectiveAggregation,
  type MetricQuery,
} from "../../../../src/contracts/metric-queries";
import { metricQueryTql } from "../../../../src/contracts/metric-queries-tql";
import { ProblemMessage } from "../../components/feedback";
import { CopyButton } from "../../components/ui";
import { formatDuration, formatNumber } from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { rangeParams, type TimeRange } from "../../lib/time-range";
import { usePanelResults } from "../dashboards/dashboards-api";
import { PanelBody } from "../dashboards/panels/index";
import { AddToDashboard } from "../tql/add-to-dashboard";
import { panelUnit, queryTitle } from "./explorer-state";

/** Buckets the chart asks for: enough detail, and a few dozen series stay under the row cap. */
const MAX_DATA_POINTS = 200;
/** What "Add to dashboard" reads the query's result as: a time column, so a time series. */
const TIMED = { columns: [{ name: "t", type: "DateTime64(9, 'UTC')" }] };

/**
 * The chosen metric drawn as its query asks (the dashboards' time series renderer, over the
 * dashboard query endpoint), the TQL it runs, and where it can go next: the TQL screen, a
 * dashboard panel, an alert rule (the same aggregation over the last five minutes).
 */
export function MetricChart({
  projectId,
  query,
  metric,
  range,
  timeSetting,
  writable,
  onZoom,
}: {
  projectId: string;
  query: MetricQuery;
  metric: MetricNameView | null | undefined;
  range: TimeRange;
  timeSetting: TimeRangeSetting;
  writable: boolean;
  onZoom: (from: number, to: number) => void;
}) {
  const [adding, setAdding] = useState(false);
  const aggregation = effectiveAggregation(query);
  const tql = useMemo(() => metricQueryTql(query), [query]);
  const title = queryTitle(query, aggregation);
  const panel: Panel = useMemo(
    () => ({
      title,
      type: "timeseries",
      gridPos: { x: 0, y: 0, w: 12, h: 8 },
      queries: [{ refId: "A", tql }],
      unit: panelUnit(metric?.unit ?? "", aggregation),
      thresholds: [],
      links: [],
      options: {},
    }),
    [title, tql, metric?.unit, aggregation],
  );
  const { results, error, loading, fetching } = usePanelResults(
    projectId,
    panel,
    {},
    timeSetting,
    0,
    { maxDataPoints: MAX_DATA_POINTS },
  );
  const answer = results[0];
  const window = answer ? answer.window : { from: range.from, to: range.to };
  const alertQuery = new URLSearchParams({
    query: metricQueryTql(query, "alert"),
    name: `${title}`.slice(0, 200),
    description: `From the metrics explorer: ${query.metric} (${describeType(query.type, query.monotonic)}), the last five minutes.`,
  });
  const tqlParams = new URLSearchParams({ q: tql });
  for (const [key, value] of Object.entries(rangeParams(range.spec)))
    if (value) tqlParams.set(key, value);
  const tqlHref = `${projectPath(projectId, "tql")}?${tqlParams.toString()}`;
  return (
    <section
      className="card metrics-chart"
      aria-labelledby="metrics-chart-title"
      aria-busy={fetching}
    >
      <header className="metrics-chart-head">
        <h2 id="metrics-chart-title">{title}</h2>
        <span className="spacer" />
        {answer && (
          <span className="muted small" aria-live="polite">
            {formatNumber(answer.rowCount)} rows · {formatDuration(answer.durationMs)} ·{" "}
            {answer.window.bucketSeconds} s buckets
          </span>
        )}
      </header>
      <div
        className="metrics-chart-body"
        data-state={error ? "error" : loading ? "loading" : "done"}
      >
        {error ? (
          <ProblemMessage error={error} title="The query failed" />
        ) : (
          <PanelBody
            panel={panel}
            results={answer ? [answer] : []}
            loading={loading || fetching}
            window={window}
            onZoom={(from, to) => onZoom(Date.parse(from) / 1000, Date.parse(to) / 1000)}
          />
        )}
      </div>
      <div className="toolbar metrics-actions">
        {writable && (
          <button type="button" className="button primary" onClick={() => setAdding(true)}>
            Add to dashboard
          </button>
        )}
        {writable && (
          <Link
            href={`~${projectPath(projectId, "alerts", "new")}?${alertQuery.toString()}`}
            className="button"
          >
            Create alert
          </Link>
        )}
        <Link href={`~${tqlHref}`} className="button">
          Open in TQL
        </Link>
      </div>
      <details className="metrics-tql" open>
        <summary>TQL</summary>
        <div className="metrics-tql-head">
          <span className="muted small">
            The query the chart runs; the dashboard binds <code>{"{from}"}</code>,{" "}
            <code>{"{to}"}</code> and <code>{"{bucket_seconds}"}</code>.
          </span>
          <CopyButton text={tql} label="Copy TQL" />
        </div>
        <pre className="metrics-tql-text">{tql}</pre>
      </details>
      {adding && (
        <AddToDashboard
          projectId={projectId}
          query={tql}
          result={TIMED}
          typed={{}}
          suggestedTitle={title}
          onClose={() => setAdding(false)}
        />
      )}
    </section>
  );
}
