import { useCallback, useId, useMemo } from "react";
import type { CheckResultView } from "../../../../src/contracts/monitors";
import { DataTable } from "../../components/data-table";
import { Empty, QueryView } from "../../components/feedback";
import { FilterSelect } from "../../components/list-filters";
import { Pager, usePageParam } from "../../components/pager";
import { Drawer, TimeRangePicker } from "../../components/ui";
import { formatDuration, formatPercent, formatTime } from "../../lib/format";
import { useTimeRange } from "../../lib/time-range";
import { useUrlParams } from "../../lib/url-state";
import { useMonitorResults, useResult } from "./api";
import { failureReason, ResultDetail } from "./result-detail";
import { sentRequests, TRIGGER_WORDS } from "./result-words";
import { OutcomeBadge } from "./state";

/** HTTP checks: steps passed; a one-step check of another kind: the things it checked. */
function stepsPassed(result: CheckResultView): string {
  const [only] = result.steps;
  if (only && result.steps.length === 1 && !sentRequests(result)) {
    const passed = only.assertions.filter((a) => a.passed).length;
    return `${passed}/${only.assertions.length} checks passed`;
  }
  return `${result.steps.filter((s) => s.status === "passed").length}/${result.steps.length} passed`;
}

const OUTCOMES = [
  { key: "passed", label: "Passed" },
  { key: "failed", label: "Failed" },
];

/**
 * The checks as a strip of bars, oldest on the left: the height is the duration, the colour the
 * outcome (and the pattern, so colour is not the only signal). Each bar's title has its details.
 */
function ResultsStrip({ results }: { results: CheckResultView[] }) {
  const ordered = useMemo(() => [...results].reverse(), [results]);
  const max = Math.max(1, ...ordered.map((r) => r.durationMs));
  const slot = 10;
  // At least 60 slots, newest on the right: a few checks stay thin bars, not slabs.
  const slots = Math.max(60, ordered.length);
  const offset = slots - ordered.length;
  const failed = ordered.filter((r) => !r.passed).length;
  const oldest = ordered[0];
  const newest = ordered.at(-1);
  const hatch = `${useId().replaceAll(":", "")}-hatch`;
  return (
    <figure className="mon-strip">
      <div className="mon-strip-axis muted small" aria-hidden="true">
        <span>{formatDuration(max)}</span>
        <span>0</span>
      </div>
      <svg
        viewBox={`0 0 ${slots * slot} 100`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`${ordered.length} checks, ${failed} failed, longest ${formatDuration(max)}`}
      >
        <defs>
          <pattern
            id={hatch}
            patternUnits="userSpaceOnUse"
            width="4"
            height="4"
            patternTransform="rotate(45)"
          >
            <rect width="2" height="4" fill="#fecaca" />
          </pattern>
        </defs>
        {ordered.map((r, i) => {
          const height = Math.max(3, (r.durationMs / max) * 100);
          const bar = { x: (offset + i) * slot + 1.5, width: slot - 3, y: 100 - height, height };
          return (
            <g key={r.id}>
              <title>
                {`${formatTime(r.startedAt)} · ${r.passed ? "passed" : "failed"} · ${formatDuration(r.durationMs)}`}
              </title>
              <rect className={r.passed ? "mon-bar-passed" : "mon-bar-failed"} {...bar} />
              {!r.passed && <rect {...bar} fill={`url(#${hatch})`} />}
            </g>
          );
        })}
      </svg>
      <figcaption className="mon-strip-time muted small">
        <span>{offset === 0 && oldest ? formatTime(oldest.startedAt) : ""}</span>
        <span className="mon-strip-legend">
          <span className="mon-key mon-bar-passed" /> passed{" "}
          <span className="mon-key mon-bar-failed" /> failed
        </span>
        <span>{newest && formatTime(newest.startedAt)}</span>
      </figcaption>
    </figure>
  );
}

/** The results tab: range and outcome filters (in the URL), the chart, and the checks. */
export function ResultsTimeline({
  projectId,
  monitorId,
  waiting,
}: {
  projectId: string;
  monitorId: string;
  /** What brings a first check, under "No checks in this range". */
  waiting: string;
}) {
  const [range, setRange] = useTimeRange();
  const [params, setParams] = useUrlParams();
  const outcome = params.get("outcome");
  const page = usePageParam();
  const selected = params.get("result");
  const results = useMonitorResults(projectId, monitorId, {
    from: range.from,
    to: range.to,
    passed: outcome === "passed" ? "true" : outcome === "failed" ? "false" : undefined,
    page,
  });
  const close = useCallback(() => setParams({ result: undefined }), [setParams]);
  return (
    <section aria-label="Results">
      <div className="toolbar">
        <TimeRangePicker
          range={range}
          onChange={(key, options) => {
            setRange(key, options);
            setParams({ page: undefined });
          }}
        />
        <FilterSelect
          label="Outcome"
          value={outcome ?? ""}
          any="All checks"
          options={OUTCOMES}
          onChange={(v) => setParams({ outcome: v, page: undefined })}
        />
      </div>
      <QueryView
        query={results}
        isEmpty={(p) => p.data.length === 0}
        empty={
          <Empty title="No checks in this range">
            {outcome ? "Try all outcomes or a longer range." : waiting}
          </Empty>
        }
      >
        {(p) => {
          const passed = p.data.filter((r) => r.passed).length;
          return (
            <>
              <div className="card">
                <p className="muted small mon-chart-caption">
                  {p.pagination.total} checks · {formatPercent(passed / p.data.length, 1)} passed
                  {p.pagination.hasMore || page > 1 ? ` (this page: ${p.data.length})` : ""}
                </p>
                <ResultsStrip results={p.data} />
              </div>
              <DataTable
                columns={[
                  "Time",
                  "Outcome",
                  { label: "Duration", num: true },
                  "Steps",
                  "Failure reason",
                  { label: "Details", hidden: true },
                ]}
                caption="Checks, newest first"
                className="mon-results"
              >
                {p.data.map((r) => (
                  <tr key={r.id} aria-selected={r.id === selected}>
                    <td>
                      <time dateTime={r.startedAt}>{formatTime(r.startedAt)}</time>
                      {TRIGGER_WORDS[r.trigger].note && (
                        <span className="muted small"> · {TRIGGER_WORDS[r.trigger].note}</span>
                      )}
                    </td>
                    <td>
                      <OutcomeBadge passed={r.passed} />
                    </td>
                    <td className="num">{formatDuration(r.durationMs)}</td>
                    <td>{stepsPassed(r)}</td>
                    <td className="mon-reason-cell">{failureReason(r) ?? ""}</td>
                    <td>
                      <button
                        type="button"
                        className="button small"
                        onClick={() => setParams({ result: r.id }, { push: true })}
                        aria-label={`Details of the check at ${formatTime(r.startedAt)}`}
                      >
                        Details
                      </button>
                    </td>
                  </tr>
                ))}
              </DataTable>
              <Pager
                pagination={p.pagination}
                noun={["check", "checks"]}
                order="newest-first"
                label="Pages of results"
              />
            </>
          );
        }}
      </QueryView>
      {selected && (
        <Drawer title="Check result" onClose={close}>
          <SelectedResult projectId={projectId} monitorId={monitorId} resultId={selected} />
        </Drawer>
      )}
    </section>
  );
}

function SelectedResult({
  projectId,
  monitorId,
  resultId,
}: {
  projectId: string;
  monitorId: string;
  resultId: string;
}) {
  const result = useResult(projectId, monitorId, resultId);
  return (
    <QueryView query={result}>
      {(data) => <ResultDetail result={data} projectId={projectId} />}
    </QueryView>
  );
}
