import { Link } from "wouter";
import type { AiDashboard, Recommendation } from "../../../../src/contracts/ai";
import { Empty } from "../../components/feedback";
import { StateBadge } from "../../components/ui";
import {
  capitalize,
  formatDuration,
  formatNumber,
  formatPercent,
  formatTime,
  formatUsd,
} from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { useProject } from "../project-context";

const SEVERITY_TONE = {
  critical: "bad",
  high: "bad",
  medium: "warn",
  low: "info",
  info: "muted",
} as const;

/** "costPerCallUsd" → "Cost per call usd": the analyzers' metric names as words. */
const words = (key: string) => {
  const text = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/\b(Usd|Ms)$/, "")
    .toLowerCase()
    .trim();
  return capitalize(text);
};

/**
 * A metric in its unit. The analyzers name their units in the key (docs/design.md: counts, rates 0–1,
 * milliseconds, USD): `…Usd`, `…Ms`, `…Rate`/`…Ratio`/`share…`, and times `…At`/`…Seen`.
 */
export function formatMetric(key: string, value: number): string {
  if (/Usd$/.test(key)) return formatUsd(value);
  if (/Ms$/.test(key)) return formatDuration(value);
  if (/(Rate|Ratio)$|^share|Share/.test(key)) return formatPercent(value, 1);
  if (/(At|Seen)$|^(from|to)$/.test(key) && value > 1e11)
    return formatTime(new Date(value).toISOString());
  if (/Seconds$/.test(key)) return formatDuration(value * 1000);
  return formatNumber(value);
}

/** The analyzers' findings, most severe first, with the figures they rest on and a fix. */
export function Recommendations({ data }: { data: AiDashboard }) {
  return (
    <section aria-labelledby="ai-findings-title" className="ai-findings">
      <h2 id="ai-findings-title">Recommendations</h2>
      <p className="muted small">
        {data.analyzers.length} analyzers ran over {data.contexts.join(", ")} in this time range.
      </p>
      {data.recommendations.length === 0 ? (
        <Empty title="Nothing to recommend">
          The analyzers found no slow endpoints, errors, leaked secrets or costly AI patterns in
          this time range.
        </Empty>
      ) : (
        <ol className="ai-recommendations">
          {data.recommendations.map((r) => (
            <RecommendationCard key={r.id} recommendation={r} />
          ))}
        </ol>
      )}
    </section>
  );
}

function RecommendationCard({ recommendation: r }: { recommendation: Recommendation }) {
  const { projectId } = useProject();
  const { metrics, labels, breakdown, excerpts, traceIds, logIds } = r.evidence;
  return (
    <li className="card ai-recommendation" data-recommendation={r.id}>
      <header>
        <StateBadge state={r.severity} tone={SEVERITY_TONE[r.severity]} />
        <span className="badge badge-muted">{r.context}</span>
        <h3>{r.title}</h3>
      </header>
      {Object.keys(labels).length > 0 && (
        <ul className="ai-labels" aria-label="About">
          {Object.entries(labels).map(([k, v]) => (
            <li key={k}>
              <span className="muted">{k}</span> <code>{v}</code>
            </li>
          ))}
        </ul>
      )}
      {Object.keys(metrics).length > 0 && (
        <dl className="ai-metrics">
          {Object.entries(metrics).map(([k, v]) => (
            <div key={k}>
              <dt>{words(k)}</dt>
              <dd>{formatMetric(k, v)}</dd>
            </div>
          ))}
        </dl>
      )}
      <p className="ai-action">
        <strong>Suggested fix: </strong>
        {r.action}
      </p>
      {(breakdown.length > 0 ||
        excerpts.length > 0 ||
        traceIds.length > 0 ||
        logIds.length > 0) && (
        <details>
          <summary>Evidence</summary>
          {breakdown.length > 0 && (
            <table className="data ai-breakdown">
              <caption className="visually-hidden">Top contributors</caption>
              <thead>
                <tr>
                  <th scope="col">Dimension</th>
                  <th scope="col">Value</th>
                  <th scope="col" className="num">
                    Count
                  </th>
                </tr>
              </thead>
              <tbody>
                {breakdown.map((b) => (
                  <tr key={`${b.dimension}:${b.value}`}>
                    <td>{b.dimension}</td>
                    <td>
                      <code>{b.value}</code>
                    </td>
                    <td className="num">{formatNumber(b.count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {excerpts.map((text) => (
            <pre key={text}>{text}</pre>
          ))}
          {traceIds.length > 0 && (
            <p>
              Sample traces:{" "}
              {traceIds.map((id, i) => (
                <span key={id}>
                  {i > 0 && ", "}
                  <Link href={`~${projectPath(projectId, "traces", id)}`}>
                    <code>{id.slice(0, 12)}…</code>
                  </Link>
                </span>
              ))}
            </p>
          )}
          {logIds.length > 0 && (
            <p>
              Sample log records:{" "}
              {logIds.map((id, i) => (
                <span key={id}>
                  {i > 0 && ", "}
                  <code>{id}</code>
                </span>
              ))}
            </p>
          )}
        </details>
      )}
    </li>
  );
}
