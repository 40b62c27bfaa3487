import { Link } from "wouter";
import { ALERT_EVENT_KINDS } from "../../../../src/alerts/catalog";
import { Empty, QueryView } from "../../components/feedback";
import { StateBadge } from "../../components/ui";
import { formatNumber, formatTime } from "../../lib/format";
import { useUrlParams } from "../../lib/url-state";
import { projectPath } from "../registry";
import { useRuleEvents } from "./api";
import { seriesLabel } from "./draft";

const KIND_TONES: Record<string, "ok" | "bad" | "warn" | "muted" | "info"> = {
  fired: "bad",
  error: "bad",
  pending: "warn",
  no_data: "warn",
  renotified: "info",
  resolved: "ok",
  recovered_from_error: "ok",
};

/** The rule's events, newest first; the kind and the page live in the URL. */
export function RuleEvents({ projectId, ruleId }: { projectId: string; ruleId: string }) {
  const [params, setParams] = useUrlParams();
  const kind = params.get("kind") ?? "";
  const page = Math.max(1, Number(params.get("page") ?? "1") || 1);
  const events = useRuleEvents(projectId, ruleId, { kind: kind || undefined, page });
  return (
    <section className="alr-events" aria-labelledby="alr-events-title">
      <div className="toolbar">
        <h2 id="alr-events-title">Events</h2>
        <label className="inline-field">
          <span>Kind</span>
          <select
            value={kind}
            onChange={(e) => setParams({ kind: e.target.value, page: undefined })}
          >
            <option value="">All kinds</option>
            {ALERT_EVENT_KINDS.map((k) => (
              <option key={k} value={k}>
                {k.replaceAll("_", " ")}
              </option>
            ))}
          </select>
        </label>
      </div>
      <QueryView
        query={events}
        isEmpty={(p) => p.data.length === 0}
        empty={
          <Empty title="No events yet">
            Fires, resolves and errors show here as the rule is evaluated.
          </Empty>
        }
      >
        {(p) => (
          <>
            <div className="table-scroll">
              <table className="data">
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Event</th>
                    <th scope="col">Series</th>
                    <th scope="col" className="num">
                      Value
                    </th>
                    <th scope="col" className="num">
                      Threshold
                    </th>
                    <th scope="col">Message</th>
                  </tr>
                </thead>
                <tbody>
                  {p.data.map((e) => (
                    <tr key={e.id}>
                      <td>
                        <time dateTime={e.at}>{formatTime(e.at)}</time>
                      </td>
                      <td>
                        <StateBadge state={e.kind} tone={KIND_TONES[e.kind] ?? "muted"} />
                        {!e.notified && <div className="muted small">not notified</div>}
                      </td>
                      <td className="mono small">{seriesLabel(e.labels)}</td>
                      <td className="num">{e.value === null ? "—" : formatNumber(e.value)}</td>
                      <td className="num">{formatNumber(e.threshold)}</td>
                      <td>
                        {e.message}
                        {e.incidentId && (
                          <>
                            {" "}
                            <Link href={`~${projectPath(projectId, "incidents", e.incidentId)}`}>
                              Incident
                            </Link>
                          </>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {(page > 1 || p.pagination.hasMore) && (
              <nav className="toolbar" aria-label="Pages of events">
                <button
                  type="button"
                  className="button small"
                  disabled={page <= 1}
                  onClick={() => setParams({ page: page - 1 })}
                >
                  Newer
                </button>
                <span className="muted small">
                  Page {page} of {p.pagination.totalPages}
                </span>
                <button
                  type="button"
                  className="button small"
                  disabled={!p.pagination.hasMore}
                  onClick={() => setParams({ page: page + 1 })}
                >
                  Older
                </button>
              </nav>
            )}
          </>
        )}
      </QueryView>
    </section>
  );
}
