import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useCallback, useEffect, useMemo, useState } from "react";
import { Link } from "wouter";
import type { SpanBaselines, TraceSpans } from "../../../../src/contracts/traces";
import { api, v1 } from "../../api/client";
import { Loading, ProblemMessage } from "../../components/feedback";
import { CopyButton, PageHeader, StateBadge } from "../../components/ui";
import { formatDuration, formatNumber, formatTime } from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { traceLogsHref } from "../../lib/time-range";
import { useUrlParams } from "../../lib/url-state";
import { useProject } from "../project-context";
import { listReturn } from "./list-return";
import { SpanDetails } from "./span-details";
import { Waterfall } from "./waterfall";
import "./waterfall.css";
import {
  findSpans,
  flattenTrace,
  revealed,
  serviceColor,
  spanAt,
  usualDurations,
  visibleRows,
} from "./waterfall-model";

/** `/traces/:traceId`: one trace as a waterfall, with the selected span's details beside it. */
export function TraceView({ traceId }: { traceId: string }) {
  const { projectId } = useProject();
  const query = useQuery({
    queryKey: ["trace", projectId, traceId],
    // The columnar verb: about 50 bytes a span, so 50,000 spans arrive in a few megabytes.
    queryFn: ({ signal }) =>
      api<TraceSpans>(v1(projectId, `/traces/${encodeURIComponent(traceId)}/spans`), { signal }),
    // A trace is read whole and rarely changes once finished; a 50,000-span one is worth keeping.
    staleTime: 60_000,
  });
  // Each operation's usual duration, read beside the spans: the waterfall shows it once here.
  const baselines = useQuery({
    queryKey: ["trace-baselines", projectId, traceId],
    queryFn: ({ signal }) =>
      api<SpanBaselines>(v1(projectId, `/traces/${encodeURIComponent(traceId)}/baselines`), {
        signal,
      }),
    staleTime: 5 * 60_000,
  });
  const back = (
    <Link href={`~${projectPath(projectId, "traces")}${listReturn.search}`}>← All traces</Link>
  );
  if (query.isPending)
    return (
      <>
        <PageHeader title="Trace" actions={back} />
        <Loading label="Loading trace…" />
      </>
    );
  if (query.isError)
    return (
      <>
        <PageHeader title="Trace" actions={back} />
        <ProblemMessage error={query.error} title="This trace cannot be shown" />
      </>
    );
  return (
    <TraceLoaded trace={query.data} baselines={baselines.data} projectId={projectId} back={back} />
  );
}

const plural = (n: number, word: string) => (n === 1 ? word : `${word}s`);

/** The next (or previous) of `list` after `from`, wrapping around; undefined for an empty list. */
function cycle(list: readonly number[], from: number, direction: 1 | -1): number | undefined {
  if (list.length === 0) return undefined;
  if (direction === 1) return list.find((i) => i > from) ?? list[0];
  for (let k = list.length - 1; k >= 0; k--) if ((list[k] as number) < from) return list[k];
  return list[list.length - 1];
}

function TraceLoaded({
  trace: detail,
  baselines,
  projectId,
  back,
}: {
  trace: TraceSpans;
  baselines: SpanBaselines | undefined;
  projectId: string;
  back: ReactNode;
}) {
  const flat = useMemo(() => flattenTrace(detail), [detail]);
  const usual = useMemo(
    () => (baselines ? usualDurations(flat, baselines) : undefined),
    [flat, baselines],
  );
  const spanIds = detail.spans.spanId;
  const [params, setParams] = useUrlParams();
  const find = params.get("find") ?? "";
  const spanParam = params.get("span");
  const found = useMemo(() => (spanParam ? spanIds.indexOf(spanParam) : -1), [spanIds, spanParam]);
  const selected = found >= 0 ? found : undefined;
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(() => new Set());
  const rows = useMemo(() => visibleRows(flat, collapsed), [flat, collapsed]);
  const [active, setActive] = useState(selected ?? 0);
  // A span named by the URL (a shared link, an error's sample) is scrolled to on arrival.
  const [revealKey, setRevealKey] = useState(selected !== undefined ? 1 : 0);
  const matches = useMemo(() => findSpans(flat, find), [flat, find]);
  const matchSet = useMemo(() => new Set(matches), [matches]);

  const jump = useCallback(
    (index: number) => {
      setCollapsed((c) => revealed(flat, c, index));
      setActive(index);
      setRevealKey((k) => k + 1);
    },
    [flat],
  );
  const select = useCallback(
    (index: number) => setParams({ span: spanIds[index] }),
    [spanIds, setParams],
  );
  const selectById = (spanId: string) => {
    const index = spanIds.indexOf(spanId);
    if (index < 0) return;
    jump(index);
    select(index);
  };
  const close = useCallback(() => setParams({ span: undefined }), [setParams]);
  const onToggle = useCallback((index: number) => {
    setCollapsed((c) => {
      const next = new Set(c);
      if (!next.delete(index)) next.add(index);
      return next;
    });
  }, []);
  const onSetOpen = useCallback((index: number, open: boolean) => {
    setCollapsed((c) => {
      if (c.has(index) !== open) return c;
      const next = new Set(c);
      if (open) next.delete(index);
      else next.add(index);
      return next;
    });
  }, []);
  const collapseAll = () => {
    const next = new Set<number>();
    for (let i = 1; i < flat.count; i++) if ((flat.end[i] as number) > i + 1) next.add(i);
    setCollapsed(next);
    setActive(0);
    setRevealKey((k) => k + 1);
  };
  const goTo = (list: number[], direction: 1 | -1, open: boolean) => {
    const next = cycle(list, active, direction);
    if (next === undefined) return;
    jump(next);
    if (open) select(next);
  };

  const selectedSpan = selected === undefined ? undefined : spanAt(flat, selected);
  // An orphan hangs under the root, but its own parent is not in the trace.
  const parentIndex = selected === undefined ? -1 : (flat.parent[selected] as number);
  const parent =
    selected !== undefined && parentIndex >= 0 && !flat.orphans.has(selected)
      ? { name: spanAt(flat, parentIndex).name, spanId: spanIds[parentIndex] ?? "" }
      : undefined;
  const errorCount = flat.errors.length;
  const matchPosition = matches.indexOf(active);
  // Escape closes the details from anywhere on the page, as a drawer's would.
  const open = selectedSpan !== undefined;
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented) close();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open, close]);

  return (
    <div className="trace-view">
      <PageHeader
        title={`${detail.rootService}: ${detail.rootOperation}`}
        actions={
          <>
            <Link
              className="button"
              href={traceLogsHref(
                `~${projectPath(projectId, "logs")}`,
                detail.traceId,
                detail.startTime,
                new Date(Date.parse(detail.startTime) + detail.durationMs).toISOString(),
              )}
            >
              Logs of this trace
            </Link>
            {back}
          </>
        }
      >
        <p className="trace-meta">
          <span className="mono">{detail.traceId}</span>{" "}
          <CopyButton text={detail.traceId} label="Copy trace ID" />
          <span>{formatTime(detail.startTime, true)}</span>
          <span>
            <strong>{formatDuration(detail.durationMs)}</strong>
          </span>
          <span>
            {formatNumber(detail.spanCount)} {plural(detail.spanCount, "span")}
          </span>
          <StateBadge
            state={
              detail.errorCount > 0
                ? `${formatNumber(detail.errorCount)} ${plural(detail.errorCount, "error")}`
                : "no errors"
            }
            tone={detail.errorCount > 0 ? "bad" : "ok"}
          />
        </p>
      </PageHeader>
      {detail.truncated && (
        <p className="notice">
          This trace has more spans than the {formatNumber(detail.spanCount)} shown: the earliest
          ones are shown, and durations cover only them.
        </p>
      )}
      {!detail.hasRoot && (
        <p className="notice">
          The root span has not arrived (yet): the earliest span stands in as the root.
        </p>
      )}
      {detail.orphanCount > 0 && (
        <p className="notice">
          {formatNumber(detail.orphanCount)} span{detail.orphanCount === 1 ? "" : "s"} whose parent
          is not in this trace hang under the root, marked “orphan”.
        </p>
      )}

      <ul className="wf-legend" aria-label="Services">
        {detail.services.map((service, slot) => {
          const counts = detail.serviceBreakdown.find((s) => s.service === service);
          return (
            <li key={service}>
              <span
                className="wf-dot"
                style={{ background: serviceColor(slot) }}
                aria-hidden="true"
              />
              {service}{" "}
              <span className="muted">
                {formatNumber(counts?.spanCount ?? 0)} {plural(counts?.spanCount ?? 0, "span")}
                {counts?.errorCount ? (
                  <span className="wf-error-text">
                    {" "}
                    · {formatNumber(counts.errorCount)} {plural(counts.errorCount, "error")}
                  </span>
                ) : null}
              </span>
            </li>
          );
        })}
      </ul>

      <div className="toolbar wf-toolbar">
        <button type="button" className="button small" onClick={() => setCollapsed(new Set())}>
          Expand all
        </button>
        <button type="button" className="button small" onClick={collapseAll}>
          Collapse all
        </button>
        <label className="inline-field">
          <span>Find span</span>
          <input
            type="search"
            value={find}
            placeholder="name, service or span ID"
            onChange={(e) => setParams({ find: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === "Enter") goTo(matches, e.shiftKey ? -1 : 1, false);
            }}
          />
        </label>
        {find.trim() && (
          <>
            <span className="muted small" aria-live="polite">
              {matches.length === 0
                ? "No span matches"
                : `${matchPosition >= 0 ? `${matchPosition + 1} of ` : ""}${formatNumber(matches.length)} match${matches.length === 1 ? "" : "es"}`}
            </span>
            <button
              type="button"
              className="button small"
              disabled={matches.length === 0}
              onClick={() => goTo(matches, -1, false)}
            >
              Previous match
            </button>
            <button
              type="button"
              className="button small"
              disabled={matches.length === 0}
              onClick={() => goTo(matches, 1, false)}
            >
              Next match
            </button>
          </>
        )}
        <span className="spacer" />
        <button
          type="button"
          className="button small"
          disabled={errorCount === 0}
          onClick={() => goTo(flat.errors, -1, true)}
        >
          Previous error
        </button>
        <button
          type="button"
          className="button small"
          disabled={errorCount === 0}
          onClick={() => goTo(flat.errors, 1, true)}
        >
          Next error {errorCount > 0 ? `(${formatNumber(errorCount)})` : ""}
        </button>
      </div>

      <div className={`trace-layout${selectedSpan ? " with-details" : ""}`}>
        <Waterfall
          flat={flat}
          rows={rows}
          collapsed={collapsed}
          onToggle={onToggle}
          onSetOpen={onSetOpen}
          durationMs={detail.durationMs}
          selected={selected}
          onSelect={select}
          active={active}
          onActive={setActive}
          revealKey={revealKey}
          matches={matchSet}
          usual={usual}
        />
        {selectedSpan && selected !== undefined && (
          <SpanDetails
            projectId={projectId}
            traceId={detail.traceId}
            span={selectedSpan}
            usual={usual?.[selected]}
            color={serviceColor(detail.spans.service[selected] as number)}
            parent={parent}
            onClose={close}
            onSelectSpan={selectById}
          />
        )}
      </div>
    </div>
  );
}
