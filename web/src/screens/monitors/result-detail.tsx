import { Link } from "wouter";
import type {
  AssertionResultView,
  CheckResultView,
  StepResultView,
} from "../../../../src/contracts/monitors";
import { StateBadge } from "../../components/ui";
import { formatDuration, formatTime } from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { operatorLabel } from "./assertion-builder";
import { assertionWords, sentRequests, stepWords, TRIGGER_WORDS } from "./result-words";
import { OutcomeBadge } from "./state";
import { TlsCertificate } from "./tls-certificate";

/** Why a check failed, in one line: the first failed step's transport error or assertion. */
export function failureReason(result: CheckResultView): string | undefined {
  if (result.passed) return undefined;
  const step = result.steps.find((s) => s.status === "failed");
  if (!step) return "The check failed";
  const where = result.steps.length > 1 ? `${step.name}: ` : "";
  if (step.transportError) return `${where}${step.transportError.message}`;
  const failed = step.assertions.find((a) => !a.passed);
  return failed ? `${where}${describeAssertion(failed)} — ${failed.message}` : `${where}failed`;
}

const describeAssertion = (a: AssertionResultView) =>
  `${assertionWords(a)}${a.target ? ` ${a.target}` : ""} ${operatorLabel(a.operator)} ${JSON.stringify(a.expected)}`;

/**
 * One check in full: every step with its request, outcome, assertions and extractions; a tcp,
 * dns, tls or heartbeat check is one step (method TCP, DNS, TLS or PING) with what it received.
 */
export function ResultDetail({
  result,
  projectId,
}: {
  result: CheckResultView;
  projectId: string;
}) {
  return (
    <div className="mon-result">
      <p className="mon-result-summary">
        <OutcomeBadge passed={result.passed} />{" "}
        <time dateTime={result.startedAt}>{formatTime(result.startedAt)}</time> ·{" "}
        {formatDuration(result.durationMs)} in total · {TRIGGER_WORDS[result.trigger].summary}
        {sentRequests(result) && (
          <>
            {" · "}
            <Link href={`~${projectPath(projectId, "traces", result.traceId)}`} className="small">
              Trace {result.traceId.slice(0, 8)}…
            </Link>
          </>
        )}
      </p>
      {!result.passed && <p className="mon-reason">{failureReason(result)}</p>}
      <ol className="mon-step-results">
        {result.steps.map((step, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a result's steps never move; names may repeat
          <StepOutcome key={`${i}-${step.name}`} step={step} />
        ))}
      </ol>
    </div>
  );
}

function StepOutcome({ step }: { step: StepResultView }) {
  const words = stepWords(step.method);
  return (
    <li className={`mon-step-result mon-${step.status}`}>
      <div className="mon-step-result-head">
        <StateBadge
          state={step.status}
          tone={step.status === "passed" ? "ok" : step.status === "failed" ? "bad" : "muted"}
        />{" "}
        <strong>{step.name}</strong>{" "}
        <code className="mon-url">
          {step.method} {step.url}
        </code>
        {step.statusCode !== null && <span> · HTTP {step.statusCode}</span>}
        {step.durationMs !== null && <span> · {formatDuration(step.durationMs)}</span>}
      </div>
      {step.status === "skipped" && <p className="muted small">Skipped: an earlier step failed.</p>}
      {step.transportError && (
        <p className="mon-reason">
          {words.failed} ({step.transportError.code}): {step.transportError.message}
        </p>
      )}
      {step.assertions.length > 0 && (
        <table className="data mon-assertions">
          <thead>
            <tr>
              <th scope="col">Assertion</th>
              <th scope="col">Expected</th>
              <th scope="col">Actual</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {step.assertions.map((a, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a result's assertions never move and may repeat
              <tr key={`${i}-${a.type}`}>
                <td>
                  {assertionWords(a)}
                  {a.target && <code> {a.target}</code>} {operatorLabel(a.operator)}
                </td>
                <td>
                  <code>{a.expected}</code>
                </td>
                <td>
                  {a.actual === null ? (
                    <span className="muted">(empty)</span>
                  ) : (
                    <code className="mon-actual">{a.actual}</code>
                  )}
                </td>
                <td>
                  <StateBadge
                    state={a.passed ? "passed" : "failed"}
                    tone={a.passed ? "ok" : "bad"}
                  />
                  <div className="small muted">{a.message}</div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {Object.keys(step.extracted).length > 0 && (
        <p className="small">
          Extracted:{" "}
          {Object.entries(step.extracted).map(([name, value]) => (
            <code key={name} className="mon-var">
              {name} = {value.length > 40 ? `${value.slice(0, 40)}…` : value}
            </code>
          ))}
        </p>
      )}
      {step.tls && <TlsCertificate tls={step.tls} />}
      {step.responseBody !== null && (
        <details open={words.open}>
          <summary>
            {words.body}
            {step.responseBodyTruncated ? " (truncated)" : ""}
          </summary>
          <pre>{step.responseBody}</pre>
        </details>
      )}
    </li>
  );
}
