import { useMemo } from "react";
import { Link } from "wouter";
import { toNumber } from "../../../lib/column-types";
import { formatDuration, formatTime } from "../../../lib/format";
import { MAX_RECORDS } from "./logs-panel";
import { listTime, type PanelViewProps } from "./panel-props";
import { ShapeHint } from "./panel-states";
import { recordRows, TRACE_COLUMNS } from "./record-rows";

const STATUS_TONE: Record<string, string> = { error: "bad", ok: "ok" };

/**
 * Traces (or spans): time, service, operation or route, duration and status; a click anywhere
 * on a row opens its trace (the operation is the link, stretched over the row).
 */
export function TracesPanel({ frames, window, linkFor }: PanelViewProps) {
  const rows = useMemo(
    () => frames.flatMap((f) => recordRows(f.result.columns, f.result.rows, TRACE_COLUMNS)),
    [frames],
  );
  if (rows.length > 0 && rows.every((r) => r.values.traceId === ""))
    return (
      <ShapeHint>
        A traces panel needs <code>trace_id</code>, with some of{" "}
        <code>timestamp, service_name, operation_name, duration_ms, status, http_route</code>.
      </ShapeHint>
    );
  const shown = rows.slice(0, MAX_RECORDS);
  return (
    <div className="panel-records">
      <table className="data panel-traces">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Service</th>
            <th scope="col">Operation</th>
            <th scope="col" className="num">
              Duration
            </th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row, i) => {
            const { traceId, spanId, service, operation, route, duration, status, time } =
              row.values;
            const href = traceId ? linkFor?.({ kind: "trace", traceId, spanId }) : null;
            const name = operation || route || traceId;
            const ms = toNumber(duration);
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: a trace may be listed twice (two spans).
              <tr key={i} className={status === "error" ? "panel-trace error" : "panel-trace"}>
                <td
                  className="mono small panel-trace-time"
                  title={row.iso ? formatTime(row.iso, true) : undefined}
                >
                  {row.iso ? listTime(row.iso, window) : time}
                </td>
                <td>{service}</td>
                <td className="panel-trace-name" title={route && operation ? route : undefined}>
                  {href ? (
                    <Link href={`~${href}`} className="panel-row-link">
                      {name}
                    </Link>
                  ) : (
                    name
                  )}
                </td>
                <td className="num">{ms === null ? duration : formatDuration(ms)}</td>
                <td>
                  {status && (
                    <span className={`badge badge-${STATUS_TONE[status] ?? "muted"}`}>
                      {status}
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length > MAX_RECORDS && (
        <p className="muted small">
          The first {MAX_RECORDS} of {rows.length} rows: the traces screen lists them all.
        </p>
      )}
    </div>
  );
}
