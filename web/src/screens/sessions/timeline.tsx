import { type ReactNode, useMemo, useState } from "react";
import { Link } from "wouter";
import type { SessionDetail } from "../../../../src/contracts/browser-sessions";
import { Empty } from "../../components/feedback";
import { StateBadge } from "../../components/ui";
import { formatCompact, formatDuration, formatTime, formatUsd } from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { traceLogsHref } from "../../lib/time-range";
import { useUrlParam } from "../../lib/url-state";
import { useProject } from "../project-context";
import {
  formatOffset,
  ROW_KINDS,
  type RowKind,
  type TimelineRow,
  timelineRows,
} from "./timeline-model";

const KIND_LABELS: Record<RowKind, string> = {
  page: "Page views",
  request: "Requests",
  ai: "AI calls",
  log: "Logs",
  error: "Errors",
};

/** The session's timeline, in time order, with the kinds to show in the URL (`show`). */
export function Timeline({ session }: { session: SessionDetail }) {
  const [show, setShow] = useUrlParam("show");
  const shown = new Set<string>(show ? show.split(",") : ROW_KINDS);
  const rows = useMemo(() => timelineRows(session.timeline), [session.timeline]);
  const counts = useMemo(() => {
    const byKind = new Map<string, number>();
    for (const row of rows) byKind.set(row.kind, (byKind.get(row.kind) ?? 0) + 1);
    return byKind;
  }, [rows]);
  const visible = rows.filter((r) => shown.has(r.kind));
  const toggle = (kind: RowKind, on: boolean) => {
    const next = ROW_KINDS.filter((k) => (k === kind ? on : shown.has(k)));
    setShow(next.length === ROW_KINDS.length ? undefined : next.join(",") || "none");
  };
  return (
    <section aria-labelledby="timeline-title" className="sessions-timeline">
      <h2 id="timeline-title">Timeline</h2>
      <fieldset className="sessions-kinds">
        <legend className="visually-hidden">Show</legend>
        {ROW_KINDS.map((kind) => (
          <label key={kind}>
            <input
              type="checkbox"
              checked={shown.has(kind)}
              onChange={(e) => toggle(kind, e.target.checked)}
            />{" "}
            {KIND_LABELS[kind]} <span className="muted">({counts.get(kind) ?? 0})</span>
          </label>
        ))}
      </fieldset>
      {session.truncated && (
        <p className="notice">
          This session sent more than the timeline shows: these are its first{" "}
          {session.timeline.length} items. Query the rest with TQL (<code>session_id</code>).
        </p>
      )}
      {visible.length === 0 ? (
        <Empty title="Nothing to show">Choose more kinds above.</Empty>
      ) : (
        <ol className="sessions-rows">
          {visible.map((row) => (
            <li key={row.key} className={`sessions-row sessions-row-${row.kind}`}>
              <time dateTime={row.time} title={formatTime(row.time, true)} className="mono">
                {formatOffset(session.startedAt, row.time)}
              </time>
              <RowContent row={row} start={session.startedAt} end={session.lastSeen} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** One row; `start` and `end` are the session's, the window its traces' logs are looked for in. */
function RowContent({ row, start, end }: { row: TimelineRow; start: string; end: string }) {
  const { projectId } = useProject();
  const trace = (traceId: string | null, label = "Trace") =>
    traceId ? (
      <Link href={`~${projectPath(projectId, "traces", traceId)}`} className="sessions-link">
        {label}
      </Link>
    ) : null;
  switch (row.kind) {
    case "page":
      return (
        <div>
          <span className="sessions-kind">Page view</span> <code>{row.page}</code>
        </div>
      );
    case "request":
      return <RequestRow row={row} start={start} trace={trace(row.root.traceId, "Open trace")} />;
    case "ai": {
      const e = row.entry;
      return (
        <div>
          <span className="sessions-kind">AI {e.operation || "call"}</span> <code>{e.model}</code>{" "}
          <span className="muted">
            {e.provider} · {formatCompact(e.inputTokens)} in / {formatCompact(e.outputTokens)} out ·{" "}
            {formatUsd(e.costUsd)} · {formatDuration(e.durationMs)}
          </span>{" "}
          {e.status === "error" && <StateBadge state="error" />} {trace(e.traceId)}
        </div>
      );
    }
    case "log": {
      const e = row.entry;
      return (
        <div>
          <StateBadge
            state={e.level}
            tone={
              e.level === "error" || e.level === "fatal"
                ? "bad"
                : e.level === "warn"
                  ? "warn"
                  : "muted"
            }
          />{" "}
          <span className="sessions-message">{e.message}</span>{" "}
          <span className="muted small">{e.service}</span>{" "}
          {e.traceId && (
            <Link
              href={traceLogsHref(`~${projectPath(projectId, "logs")}`, e.traceId, start, end)}
              className="sessions-link"
            >
              Logs of trace
            </Link>
          )}
        </div>
      );
    }
    case "error": {
      const e = row.entry;
      return (
        <div>
          <span className="badge badge-bad">error</span> <strong>{e.type ?? "Failed span"}</strong>:{" "}
          <span className="sessions-message">{e.message}</span>{" "}
          <span className="muted small">{e.service}</span>{" "}
          {e.errorId && (
            <Link
              href={`~${projectPath(projectId, "errors", e.errorId)}`}
              className="sessions-link"
            >
              Error group
            </Link>
          )}{" "}
          {trace(e.traceId)}
        </div>
      );
    }
  }
}

function RequestRow({
  row,
  start,
  trace,
}: {
  row: Extract<TimelineRow, { kind: "request" }>;
  start: string;
  trace: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const { root, children } = row;
  const id = `spans-${root.spanId}`;
  return (
    <div>
      <span className="sessions-kind">Request</span> <code>{root.name}</code>{" "}
      <span className="muted">
        {root.service} · {formatDuration(root.durationMs)}
      </span>{" "}
      {row.failed && <StateBadge state="failed" />} {trace}
      {children.length > 0 && (
        <>
          {" "}
          <button
            type="button"
            className="button small"
            aria-expanded={open}
            aria-controls={id}
            onClick={() => setOpen(!open)}
          >
            {open ? "Hide" : "Show"} {children.length} more span{children.length === 1 ? "" : "s"}
          </button>
          {open && (
            <ul id={id} className="sessions-children">
              {children.map((span) => (
                <li key={span.spanId}>
                  <span className="mono muted">{formatOffset(start, span.time)}</span>{" "}
                  <code>{span.name}</code>{" "}
                  <span className="muted small">
                    {span.service} · {formatDuration(span.durationMs)}
                  </span>
                  {span.status === "error" && (
                    <>
                      {" "}
                      <StateBadge state="error" />
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
