import { useMemo } from "react";
import { formatCompact, formatDuration, formatDurationTicks } from "../lib/format";
import { TimeSeriesChart } from "./chart";

/** One bucket of a request series: its start, requests, errors and latency percentiles. */
export interface TrafficPoint {
  time: string;
  requests: number;
  errors: number;
  p50Ms?: number | null;
  p95Ms: number | null;
  p99Ms?: number | null;
}

const PERCENTILES = [
  { key: "p50Ms", label: "p50", color: "#0891b2" },
  { key: "p95Ms", label: "p95", color: "#4f46e5" },
  { key: "p99Ms", label: "p99", color: "#d97706" },
] as const;

/**
 * Requests and errors, and latency percentiles, per bucket, side by side (a drag zooms the
 * range): the Overview's HTTP traffic and a service's page draw the same pair.
 */
export function TrafficCharts({
  id,
  points,
  bucketSeconds,
  percentiles,
  onZoom,
}: {
  /** Prefix of the two headings' ids. */
  id: string;
  points: readonly TrafficPoint[];
  bucketSeconds: number;
  percentiles: readonly ("p50" | "p95" | "p99")[];
  onZoom: (from: number, to: number) => void;
}) {
  const charts = useMemo(() => {
    const shown = PERCENTILES.filter((p) => percentiles.includes(p.label));
    return {
      x: points.map((p) => Date.parse(p.time) / 1000),
      traffic: [
        { label: "Requests", values: points.map((p) => p.requests) },
        { label: "Errors", values: points.map((p) => p.errors), color: "#dc2626" },
      ],
      latency: shown.map((p) => ({
        label: p.label,
        values: points.map((point) => point[p.key] ?? null),
        color: p.color,
      })),
    };
  }, [points, percentiles]);
  const bucket = formatDuration(bucketSeconds * 1000);
  const which = percentiles.length === 1 ? percentiles[0] : "Percentiles";
  return (
    <div className="split">
      <section className="card" aria-labelledby={`${id}-traffic`}>
        <h2 id={`${id}-traffic`}>Requests and errors</h2>
        <p className="muted small">Per {bucket}</p>
        <TimeSeriesChart
          x={charts.x}
          series={charts.traffic}
          formatValue={formatCompact}
          title="Requests and errors per bucket"
          onZoom={onZoom}
        />
      </section>
      <section className="card" aria-labelledby={`${id}-latency`}>
        <h2 id={`${id}-latency`}>Latency</h2>
        <p className="muted small">
          {which} per {bucket}
        </p>
        <TimeSeriesChart
          x={charts.x}
          series={charts.latency}
          formatValue={formatDuration}
          formatTicks={formatDurationTicks}
          title={`${percentiles.length === 1 ? `${which} latency` : "Latency percentiles"} per bucket`}
          onZoom={onZoom}
        />
      </section>
    </div>
  );
}
