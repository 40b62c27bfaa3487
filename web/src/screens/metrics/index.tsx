import { useCallback, useMemo } from "react";
import type { MetricNameView } from "../../../../src/contracts/metric-names";
import { describeType, type MetricQuery } from "../../../../src/contracts/metric-queries";
import { canWrite } from "../../api/session";
import { Empty } from "../../components/feedback";
import { SavedViews } from "../../components/saved-views";
import { PageHeader, TimeRangePicker } from "../../components/ui";
import { useChartZoom, useTimeRange } from "../../lib/time-range";
import { useUrlParams } from "../../lib/url-state";
import { toTimeRangeSetting } from "../dashboards/dashboards-api";
import { useProject } from "../project-context";
import { explorerParams, queryFor, readExplorer } from "./explorer-state";
import { MetricChart } from "./metric-chart";
import { MetricControls } from "./metric-controls";
import { MetricList } from "./metric-list";
import { useMetricName } from "./metrics-api";
import "./metrics.css";

/**
 * The metrics explorer: the project's metrics by name (searchable, with type, unit and
 * description), and the chosen one charted with its type's default aggregation (a counter as a
 * rate, a gauge as an average, a histogram as a quantile…), grouped and filtered by its
 * attributes, with the TQL it runs, "Add to dashboard" and "Create alert". The URL carries it
 * all, so a saved view keeps it (docs/metrics-explorer.md).
 */
export function Area() {
  const { projectId, role } = useProject();
  const [params, setParams] = useUrlParams();
  const [range, setRange] = useTimeRange();
  const zoom = useChartZoom(setRange);
  const search = params.get("search") ?? "";
  const paramsText = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: paramsText stands for params' value.
  const query = useMemo(() => readExplorer(params), [paramsText]);
  const metric = useMetricName(projectId, range, query?.metric, query?.type);
  const change = useCallback(
    (next: MetricQuery, push = false) => setParams(explorerParams(next), { push }),
    [setParams],
  );
  const choose = useCallback((m: MetricNameView) => change(queryFor(m), true), [change]);
  const onSearch = useCallback((text: string) => setParams({ search: text }), [setParams]);
  const entry = metric.data;
  return (
    <>
      <PageHeader
        title="Metrics"
        actions={
          <>
            <SavedViews kind="metrics" />
            <TimeRangePicker range={range} onChange={setRange} />
          </>
        }
      >
        <p className="muted">
          Every metric the project sends, charted without SQL: counters as rates, gauges as
          averages, histograms and summaries as quantiles, grouped by their attributes.
        </p>
      </PageHeader>
      <div className="metrics-layout">
        <MetricList
          projectId={projectId}
          range={range}
          search={search}
          onSearch={onSearch}
          selected={query ? { name: query.metric, type: query.type } : null}
          onSelect={choose}
        />
        <div className="metrics-main">
          {query ? (
            <>
              <section className="card metrics-chosen" aria-label="Chosen metric">
                <h2>
                  <code>{query.metric}</code>{" "}
                  <span className="badge badge-info">
                    {describeType(query.type, query.monotonic)}
                  </span>
                  {entry?.unit ? <span className="muted small"> unit {entry.unit}</span> : null}
                  {entry?.temporality && entry.temporality !== "unspecified" ? (
                    <span className="muted small"> · {entry.temporality}</span>
                  ) : null}
                </h2>
                {entry?.description && <p className="muted">{entry.description}</p>}
                {metric.isSuccess && entry === null && (
                  <p className="notice">No points of this metric in the time range.</p>
                )}
                <MetricControls query={query} metric={entry} onChange={(next) => change(next)} />
              </section>
              <MetricChart
                projectId={projectId}
                query={query}
                metric={entry}
                range={range}
                timeSetting={toTimeRangeSetting(range.spec)}
                writable={canWrite(role)}
                onZoom={zoom}
              />
            </>
          ) : (
            <Empty title="Choose a metric">
              Pick one from the list: it is charted with the aggregation its type calls for, and you
              can group it by its attributes, filter it, add it to a dashboard or alert on it.
            </Empty>
          )}
        </div>
      </div>
    </>
  );
}
