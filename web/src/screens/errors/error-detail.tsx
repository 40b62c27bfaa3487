import { useMemo } from "react";
import { Link, useParams } from "wouter";
import {
  type ErrorDetail as Detail,
  ERROR_SEVERITIES,
  type ErrorSeverity,
} from "../../../../src/contracts/error-groups";
import { canWrite } from "../../api/session";
import { TimeSeriesChart } from "../../components/chart";
import { Empty, ProblemMessage, QueryView } from "../../components/feedback";
import { Field, KeyValues, PageHeader, StateBadge, TimeRangePicker } from "../../components/ui";
import { formatDuration, formatNumber, formatRelative, formatTime } from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { traceLogsHref, useChartZoom, useTimeRange } from "../../lib/time-range";
import { useProject } from "../project-context";
import { useErrorDetail, useUpdateError } from "./errors-api";
import { StackTrace } from "./stack-trace";

/** One error group: triage, stack trace, occurrences over time, services and sample traces. */
export function ErrorDetail() {
  const { projectId } = useProject();
  const { errorId = "" } = useParams<{ errorId: string }>();
  const [range, setRange] = useTimeRange();
  const detail = useErrorDetail(projectId, errorId, { from: range.from, to: range.to });
  const zoom = useChartZoom(setRange);
  return (
    <>
      <p className="errors-back">
        <Link href="/">← All errors</Link>
      </p>
      <QueryView query={detail} loadingLabel="Loading the error…">
        {(error) => (
          <>
            <PageHeader
              title={error.type}
              actions={<TimeRangePicker range={range} onChange={setRange} />}
            >
              <p className="errors-detail-message">{error.message}</p>
              <p className="muted small">
                <StateBadge
                  state={error.status === "active" ? "open" : "resolved"}
                  tone={error.status === "active" ? "bad" : "ok"}
                />{" "}
                <StateBadge state={error.severity} /> <span className="mono">{error.culprit}</span>
              </p>
            </PageHeader>
            <Triage error={error} />
            <Summary error={error} />
            <section className="card" aria-labelledby="error-occurrences">
              <h2 id="error-occurrences">Occurrences</h2>
              <p className="muted small">
                {formatNumber(error.occurrencesInWindow)} in the {range.label.toLowerCase()}, per{" "}
                {formatDuration(error.window.bucketSeconds * 1000)}
              </p>
              <OccurrencesChart error={error} onZoom={zoom} />
            </section>
            <section className="card" aria-labelledby="error-stack">
              <h2 id="error-stack">Stack trace</h2>
              <StackTrace stack={error.stack} raw={error.stacktrace} />
            </section>
            <div className="split">
              <SampleTraces error={error} projectId={projectId} />
              <section className="card" aria-labelledby="error-services">
                <h2 id="error-services">Services</h2>
                {error.affectedServices.length === 0 ? (
                  <p className="muted">None recorded.</p>
                ) : (
                  <table className="data">
                    <thead>
                      <tr>
                        <th scope="col">Service</th>
                        <th scope="col" className="num">
                          Occurrences
                        </th>
                        <th scope="col">Last seen</th>
                      </tr>
                    </thead>
                    <tbody>
                      {error.affectedServices.map((s) => (
                        <tr key={s.service}>
                          <td>{s.service}</td>
                          <td className="num">{formatNumber(s.occurrences)}</td>
                          <td>{formatRelative(s.lastSeen)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </section>
            </div>
          </>
        )}
      </QueryView>
    </>
  );
}

/** Resolve / reopen and severity, for members and above; viewers see the state only. */
function Triage({ error }: { error: Detail }) {
  const { projectId, role } = useProject();
  const update = useUpdateError(projectId, error.id);
  if (!canWrite(role)) return null;
  const pending = update.isPending ? update.variables : undefined;
  return (
    <section className="card errors-triage" aria-label="Triage">
      {error.status === "active" ? (
        <button
          type="button"
          className="button primary"
          disabled={update.isPending}
          onClick={() => update.mutate({ status: "resolved" })}
        >
          {pending && "status" in pending ? "Resolving…" : "Resolve"}
        </button>
      ) : (
        <button
          type="button"
          className="button"
          disabled={update.isPending}
          onClick={() => update.mutate({ status: "active" })}
        >
          {pending && "status" in pending ? "Reopening…" : "Reopen"}
        </button>
      )}
      <Field label="Severity" name="severity" error={update.error}>
        {(props) => (
          <select
            {...props}
            value={error.severity}
            disabled={update.isPending}
            onChange={(e) => update.mutate({ severity: e.target.value as ErrorSeverity })}
          >
            {ERROR_SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        )}
      </Field>
      <p className="muted small">
        {error.status === "resolved"
          ? `Resolved ${formatRelative(error.resolvedAt)}. It reopens by itself if it occurs again.`
          : "Resolving hides it from the open list until it occurs again."}
      </p>
      {update.isError && <ProblemMessage error={update.error} title="The change was not saved" />}
    </section>
  );
}

function Summary({ error }: { error: Detail }) {
  return (
    <section className="card" aria-label="Summary">
      <KeyValues
        entries={[
          ["occurrences", formatNumber(error.occurrences)],
          ["first seen", `${formatTime(error.firstSeen)} (${formatRelative(error.firstSeen)})`],
          ["last seen", `${formatTime(error.lastSeen)} (${formatRelative(error.lastSeen)})`],
          ["source", error.source],
          ["services", error.services.join(", ") || "—"],
          ["error id", error.id],
        ]}
      />
    </section>
  );
}

function OccurrencesChart({
  error,
  onZoom,
}: {
  error: Detail;
  onZoom: (from: number, to: number) => void;
}) {
  const chart = useMemo(
    () => ({
      x: error.occurrencesOverTime.map((p) => Date.parse(p.time) / 1000),
      series: [{ label: "Occurrences", values: error.occurrencesOverTime.map((p) => p.count) }],
    }),
    [error.occurrencesOverTime],
  );
  if (error.occurrencesInWindow === 0)
    return <Empty title="No occurrences in this range">Choose a longer range.</Empty>;
  return (
    <TimeSeriesChart
      x={chart.x}
      series={chart.series}
      kind="bar"
      height={180}
      formatValue={formatNumber}
      title="Occurrences per bucket"
      onZoom={onZoom}
    />
  );
}

function SampleTraces({ error, projectId }: { error: Detail; projectId: string }) {
  return (
    <section className="card" aria-labelledby="error-traces">
      <h2 id="error-traces">Sample traces</h2>
      {error.sampleTraces.length === 0 ? (
        <p className="muted">No occurrence carried a trace (a logged error, or no tracing).</p>
      ) : (
        <ul className="errors-samples">
          {error.sampleTraces.map((t) => (
            <li key={t.traceId}>
              <Link href={`~${projectPath(projectId, "traces", t.traceId)}`} className="mono">
                {t.traceId}
              </Link>
              <span className="small muted">
                {formatTime(t.time)} · {t.service}
              </span>
              <span className="small errors-message">{t.message}</span>
              {/* The window around the occurrence, whatever its age (not the last 30 days). */}
              <Link
                className="small"
                href={traceLogsHref(`~${projectPath(projectId, "logs")}`, t.traceId, t.time)}
              >
                Logs of this trace
              </Link>
              {t.logId && (
                // The same occurrence as logged: one occurrence, both sources linked.
                <Link
                  className="small"
                  href={traceLogsHref(
                    `~${projectPath(projectId, "logs")}`,
                    t.traceId,
                    t.time,
                    undefined,
                    t.logId,
                  )}
                >
                  Its error log
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
