import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { Link } from "wouter";
import type { Attributes, SpanDetail } from "../../../../src/contracts/traces";
import { api, v1 } from "../../api/client";
import { Loading, ProblemMessage } from "../../components/feedback";
import { CopyButton, KeyValues, StateBadge } from "../../components/ui";
import { formatDuration, formatTime } from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { formatRatio, type SpanRowData, timesUsual, type Usual } from "./waterfall-model";

const sorted = (attributes: Attributes): [string, string][] =>
  Object.entries(attributes).sort(([a], [b]) => a.localeCompare(b));

/** "Usual duration": its operation's p50 and p95 over the 24 h before, and how this one compares. */
function usualEntry(span: SpanRowData, usual: Usual | undefined): [string, string][] {
  const ratio = timesUsual(span.durationMs, usual);
  if (ratio === undefined || !usual) return [];
  return [
    [
      "Usual (24 h before)",
      `p50 ${formatDuration(usual.p50Ms)} · p95 ${formatDuration(usual.p95Ms)} · ${usual.count.toLocaleString()} spans; this one ${formatRatio(ratio)} p50`,
    ],
  ];
}

/**
 * One span's details beside the waterfall (not a modal: the keyboard stays in the list, so
 * moving through spans and opening the next one is one key each). What the waterfall knows
 * shows at once; attributes, events, links and the resource come from the span's own verb.
 */
export function SpanDetails({
  projectId,
  traceId,
  span,
  usual,
  color,
  parent,
  onClose,
  onSelectSpan,
}: {
  projectId: string;
  traceId: string;
  span: SpanRowData;
  /** Its operation's usual duration over the 24 h before the trace, when known. */
  usual?: Usual | undefined;
  color: string;
  /** The parent's name, or undefined when the parent is not in the trace (an orphan). */
  parent: { name: string; spanId: string } | undefined;
  onClose: () => void;
  onSelectSpan: (spanId: string) => void;
}) {
  const body = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new span starts at the top
  useEffect(() => {
    body.current?.scrollTo({ top: 0 });
  }, [span.spanId]);
  const detail = useQuery({
    queryKey: ["span", projectId, traceId, span.spanId],
    queryFn: ({ signal }) =>
      api<SpanDetail>(
        v1(
          projectId,
          `/traces/${encodeURIComponent(traceId)}/spans/${encodeURIComponent(span.spanId)}`,
        ),
        { signal },
      ),
    staleTime: 5 * 60_000,
  });
  const overview: [string, string][] = [
    ["Service", span.service],
    ["Kind", span.kind],
    ["Duration", formatDuration(span.durationMs)],
    ["Self time", formatDuration(span.selfTimeMs)],
    ...usualEntry(span, usual),
    ["Offset in trace", `+${formatDuration(span.startOffsetMs)}`],
    ["Depth", String(span.depth)],
  ];
  const d = detail.data;
  if (d) {
    overview.splice(4, 0, ["Start", formatTime(d.startTime, true)]);
    if (d.statusMessage) overview.push(["Status message", d.statusMessage]);
    if (d.http) {
      overview.push(["HTTP", `${d.http.method} ${d.http.route || d.http.target}`.trim()]);
      if (d.http.statusCode > 0) overview.push(["HTTP status", String(d.http.statusCode)]);
    }
  }
  return (
    <aside className="span-details card" aria-labelledby="span-details-title">
      <header className="span-details-head">
        <div>
          <h2 id="span-details-title">
            <span className="wf-dot" style={{ background: color }} aria-hidden="true" /> {span.name}
          </h2>
          <div className="span-details-badges">
            <StateBadge
              state={span.status}
              tone={span.status === "error" ? "bad" : span.status === "ok" ? "ok" : "muted"}
            />
            <span className="badge badge-muted">{span.kind}</span>
            {parent === undefined && span.depth > 0 && (
              <span className="badge badge-warn">orphan</span>
            )}
          </div>
        </div>
        <button
          type="button"
          className="button small"
          onClick={onClose}
          aria-label="Close span details"
        >
          ✕
        </button>
      </header>
      <div className="span-details-body" ref={body}>
        <section>
          <KeyValues entries={overview} />
          <p className="span-ids">
            <span className="mono">{span.spanId}</span>{" "}
            <CopyButton text={span.spanId} label="Copy span ID" />
          </p>
          {span.depth > 0 && (
            <p className="muted small">
              Parent:{" "}
              {parent ? (
                <button
                  type="button"
                  className="trace-link-button"
                  onClick={() => onSelectSpan(parent.spanId)}
                >
                  {parent.name}
                </button>
              ) : (
                <span className="mono">{d?.parentSpanId ?? "…"} (not in this trace)</span>
              )}
            </p>
          )}
        </section>
        {detail.isPending && <Loading label="Loading attributes and events…" />}
        {detail.isError && <ProblemMessage error={detail.error} />}
        {d && (
          <Recorded
            detail={d}
            projectId={projectId}
            traceId={traceId}
            onSelectSpan={onSelectSpan}
          />
        )}
      </div>
    </aside>
  );
}

/** What the span recorded: exceptions and their error groups, attributes, events, links, resource. */
function Recorded({
  detail,
  projectId,
  traceId,
  onSelectSpan,
}: {
  detail: SpanDetail;
  projectId: string;
  traceId: string;
  onSelectSpan: (spanId: string) => void;
}) {
  const exceptions = detail.events.filter((e) => e.name === "exception");
  const offsetMs = (time: string) => Date.parse(time) - Date.parse(detail.startTime);
  return (
    <>
      {(detail.errorGroups.length > 0 || exceptions.length > 0) && (
        <section className="span-exceptions">
          <h3>Exception{exceptions.length === 1 ? "" : "s"}</h3>
          {detail.errorGroups.map((g) => (
            <p key={g.errorId}>
              <Link href={`~${projectPath(projectId, "errors", g.errorId)}`}>
                Error group: {g.type || "error"}
              </Link>{" "}
              {g.occurrences > 1 && (
                <span className="muted small">{g.occurrences} occurrences in this span</span>
              )}
            </p>
          ))}
          {exceptions.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: events have no id; a span's list never changes
            <div key={`${e.time}-${i}`} className="exception">
              <p>
                <strong>{e.attributes["exception.type"] ?? "Exception"}</strong>
                {e.attributes["exception.message"] ? `: ${e.attributes["exception.message"]}` : ""}
              </p>
              {e.attributes["exception.stacktrace"] && (
                <pre>{e.attributes["exception.stacktrace"]}</pre>
              )}
            </div>
          ))}
        </section>
      )}

      <section>
        <h3>Attributes</h3>
        <KeyValues entries={sorted(detail.attributes)} />
      </section>

      <section>
        <h3>Events ({detail.events.length})</h3>
        {detail.events.length === 0 ? (
          <p className="muted">None</p>
        ) : (
          <ol className="span-events">
            {detail.events.map((e, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: events have no id; a span's list never changes
              <li key={`${e.time}-${i}`}>
                <div>
                  <strong>{e.name}</strong>{" "}
                  <span className="muted small">
                    +{formatDuration(offsetMs(e.time))} · {formatTime(e.time, true)}
                  </span>
                </div>
                {Object.keys(e.attributes).length > 0 && (
                  <KeyValues
                    entries={sorted(e.attributes).filter(
                      ([k]) => e.name !== "exception" || k !== "exception.stacktrace",
                    )}
                  />
                )}
              </li>
            ))}
          </ol>
        )}
      </section>

      <section>
        <h3>Links ({detail.links.length})</h3>
        {detail.links.length === 0 ? (
          <p className="muted">None</p>
        ) : (
          <ul className="span-links">
            {detail.links.map((l) => (
              <li key={`${l.traceId}-${l.spanId}`}>
                {l.traceId === traceId ? (
                  <button
                    type="button"
                    className="trace-link-button mono"
                    onClick={() => onSelectSpan(l.spanId)}
                  >
                    span {l.spanId}
                  </button>
                ) : (
                  <Link href={`/${l.traceId}?span=${l.spanId}`} className="mono">
                    trace {l.traceId.slice(0, 12)}… span {l.spanId}
                  </Link>
                )}
                {Object.keys(l.attributes).length > 0 && (
                  <KeyValues entries={sorted(l.attributes)} />
                )}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section>
        <h3>Resource</h3>
        <KeyValues entries={sorted(detail.resource)} />
      </section>
    </>
  );
}
