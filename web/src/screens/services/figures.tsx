import type { ServiceSummary } from "../../../../src/contracts/services";
import { formatDuration, formatNumber, formatPercent } from "../../lib/format";
import type { SortColumn } from "./table-sort";

/** What a service, an operation and an edge all have: requests, errors and latency. */
export type Figures = Pick<
  ServiceSummary,
  "requests" | "rate" | "errors" | "errorRate" | "p50Ms" | "p95Ms" | "p99Ms"
>;

/** A rate as people read it: per second from one a second up, else per minute. */
export function formatRate(perSecond: number): string {
  if (perSecond === 0) return "0 /s";
  if (perSecond >= 1)
    return `${formatNumber(Number(perSecond.toFixed(perSecond < 10 ? 2 : 1)))} /s`;
  const perMinute = perSecond * 60;
  return `${formatNumber(Number(perMinute.toFixed(perMinute < 10 ? 2 : 1)))} /min`;
}

/** An error rate, "—" without requests (nothing to fail), "0 %" without errors. */
export const formatErrorRate = (row: Pick<Figures, "requests" | "errors" | "errorRate">): string =>
  row.requests === 0 ? "—" : row.errors === 0 ? "0 %" : formatPercent(row.errorRate, 1);

/** How an error rate reads: bad from 5 %, a warning from 1 %. */
export function errorTone(errorRate: number): "bad" | "warn" | undefined {
  return errorRate >= 0.05 ? "bad" : errorRate >= 0.01 ? "warn" : undefined;
}

/** The sortable figure columns every table of this area shows, in order. */
export function figureColumns<T extends Figures>(): SortColumn<T>[] {
  return [
    { key: "rate", label: "Rate", num: true, value: (r) => r.rate },
    {
      key: "errors",
      label: "Error %",
      num: true,
      value: (r) => (r.requests === 0 ? null : r.errorRate),
    },
    { key: "p50", label: "p50", num: true, value: (r) => r.p50Ms },
    { key: "p95", label: "p95", num: true, value: (r) => r.p95Ms },
    { key: "p99", label: "p99", num: true, value: (r) => r.p99Ms },
  ];
}

/** The cells of `figureColumns`, in the same order. */
export function FigureCells({ row }: { row: Figures }) {
  const tone = row.requests > 0 ? errorTone(row.errorRate) : undefined;
  return (
    <>
      <td className="num" title={`${formatNumber(row.requests)} requests`}>
        {formatRate(row.rate)}
      </td>
      <td
        className={`num${tone ? ` svc-tone-${tone}` : ""}`}
        title={`${formatNumber(row.errors)} errors`}
      >
        {formatErrorRate(row)}
      </td>
      <td className="num">{formatDuration(row.p50Ms)}</td>
      <td className="num">{formatDuration(row.p95Ms)}</td>
      <td className="num">{formatDuration(row.p99Ms)}</td>
    </>
  );
}
