import { useMemo, useState } from "react";
import { Link } from "wouter";
import { formatTime } from "../../../lib/format";
import { levelTone } from "../../logs/logs-api";
import { listTime, type PanelViewProps } from "./panel-props";
import { ShapeHint } from "./panel-states";
import { LOG_COLUMNS, recordRows } from "./record-rows";

/** Records listed at most: a panel is a glance, the logs screen is for reading them all. */
export const MAX_RECORDS = 500;

/**
 * Log records: time, level, service and message, other columns as fields; a record opens in
 * the logs screen, its trace in the traces screen. A click on the message shows it whole.
 */
export function LogsPanel({ frames, window, linkFor }: PanelViewProps) {
  const rows = useMemo(
    () => frames.flatMap((f) => recordRows(f.result.columns, f.result.rows, LOG_COLUMNS)),
    [frames],
  );
  const [open, setOpen] = useState<number | null>(null);
  if (rows.length > 0 && rows.every((r) => r.values.message === "" && r.fields.length === 0))
    return (
      <ShapeHint>
        A logs panel reads <code>timestamp, level, service_name, message, trace_id, id</code> from
        the <code>logs</code> table.
      </ShapeHint>
    );
  const shown = rows.slice(0, MAX_RECORDS);
  return (
    <div className="panel-records">
      <ul className="panel-logs">
        {shown.map((row, i) => {
          const { time, level, service, message, traceId, spanId, id } = row.values;
          const logHref = linkFor?.({
            kind: "log",
            logId: id,
            traceId,
            time: row.iso ?? undefined,
          });
          const traceHref = traceId ? linkFor?.({ kind: "trace", traceId, spanId }) : null;
          const expanded = open === i;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: records have no key but their place.
            <li key={i} className={`panel-log level-${levelTone(level)}`}>
              <time
                className="mono small"
                dateTime={row.iso ?? undefined}
                title={row.iso ? formatTime(row.iso, true) : undefined}
              >
                {row.iso ? listTime(row.iso, window) : time}
              </time>
              {level && <span className={`badge badge-${levelTone(level)}`}>{level}</span>}
              {service && (
                <span className="panel-log-service" title={service}>
                  {service}
                </span>
              )}
              <button
                type="button"
                className={`panel-log-message mono${expanded ? " open" : ""}`}
                aria-expanded={expanded}
                onClick={() => setOpen(expanded ? null : i)}
              >
                {message || row.fields.map(([k, v]) => `${k}=${v}`).join(" ")}
                {message && row.fields.length > 0 && (
                  <span className="panel-log-fields muted">
                    {row.fields.map(([k, v]) => ` ${k}=${v}`).join("")}
                  </span>
                )}
              </button>
              <span className="panel-record-links small">
                {logHref && <Link href={`~${logHref}`}>Log</Link>}
                {traceHref && <Link href={`~${traceHref}`}>Trace</Link>}
              </span>
            </li>
          );
        })}
      </ul>
      {rows.length > MAX_RECORDS && (
        <p className="muted small">
          The first {MAX_RECORDS} of {rows.length} records: the logs screen lists them all.
        </p>
      )}
    </div>
  );
}
