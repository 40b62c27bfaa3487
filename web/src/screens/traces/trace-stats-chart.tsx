import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { TraceStats } from "../../../../src/contracts/traces";
import { api, v1 } from "../../api/client";
import { TimeSeriesChart } from "../../components/chart";
import {
  formatCompact,
  formatDuration,
  formatDurationTicks,
  formatNumber,
  formatPercent,
} from "../../lib/format";
import type { TimeRange } from "../../lib/time-range";
import { selectionQuery, type TraceSelection } from "./trace-selection";

/** Rate per second with a unit ("12.3/s", "0.05/s"). */
export const formatRate = (rate: number | null | undefined): string =>
  rate === null || rate === undefined
    ? "—"
    : `${rate === 0 ? "0" : rate < 1 ? rate.toPrecision(2) : formatCompact(rate)}/s`;

/**
 * The spans following the selection per bucket (GET /v1/traces/stats): their rate and errors,
 * and their p50/p95/p99 duration, above the list; a drag across a chart zooms the range.
 */
export function TraceStatsChart({
  projectId,
  range,
  selection,
  onZoom,
}: {
  projectId: string;
  range: TimeRange;
  selection: TraceSelection;
  onZoom: (from: number, to: number) => void;
}) {
  const query = useQuery({
    queryKey: ["trace-stats", projectId, range.from, range.to, selectionQuery(selection)],
    queryFn: ({ signal }) =>
      api<TraceStats>(v1(projectId, "/traces/stats"), {
        signal,
        query: { from: range.from, to: range.to, ...selectionQuery(selection) },
      }),
    placeholderData: keepPreviousData,
  });
  const charts = useMemo(() => {
    const series = query.data?.series ?? [];
    return {
      x: series.map((p) => Date.parse(p.time) / 1000),
      traffic: [
        { label: "Spans/s", values: series.map((p) => p.rate) },
        {
          label: "Errors/s",
          values: series.map((p) => (p.count === 0 ? 0 : (p.rate * p.errors) / p.count)),
          color: "#dc2626",
        },
      ],
      latency: [
        { label: "p50", values: series.map((p) => p.p50Ms), color: "#0891b2" },
        { label: "p95", values: series.map((p) => p.p95Ms), color: "#4f46e5" },
        { label: "p99", values: series.map((p) => p.p99Ms), color: "#d97706" },
      ],
    };
  }, [query.data]);
  // A bad filter is the list's to explain (it shows the same problem); the chart stays quiet.
  if (query.isError) return null;
  const data = query.data;
  const totals = data?.totals;
  const bucket = data ? formatDuration(data.bucketSeconds * 1000) : "";
  return (
    <section
      className={`card trace-stats${query.isFetching ? " refreshing" : ""}`}
      aria-label="Spans matching the filters"
    >
      <p className="trace-stats-totals" aria-live="polite">
        {totals ? (
          <>
            <strong>{formatNumber(totals.count)}</strong> spans ·{" "}
            <strong>{formatRate(totals.rate)}</strong> ·{" "}
            <strong className={totals.errors > 0 ? "wf-error-text" : undefined}>
              {formatNumber(totals.errors)}
            </strong>{" "}
            errors ({formatPercent(totals.errorRate, 1)}) · p50{" "}
            <strong>{formatDuration(totals.p50Ms)}</strong> · p95{" "}
            <strong>{formatDuration(totals.p95Ms)}</strong> · p99{" "}
            <strong>{formatDuration(totals.p99Ms)}</strong>
            <span className="muted small"> · spans matching the filters, per {bucket}</span>
          </>
        ) : (
          <span className="muted">Loading the chart…</span>
        )}
      </p>
      {data && (
        <div className="trace-stats-charts">
          <TimeSeriesChart
            x={charts.x}
            series={charts.traffic}
            height={140}
            formatValue={(n) => formatRate(n)}
            title="Span rate and errors per second"
            onZoom={onZoom}
          />
          <TimeSeriesChart
            x={charts.x}
            series={charts.latency}
            height={140}
            formatValue={formatDuration}
            formatTicks={formatDurationTicks}
            title="Span duration percentiles"
            onZoom={onZoom}
          />
        </div>
      )}
    </section>
  );
}
