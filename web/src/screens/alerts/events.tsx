import { Link } from "wouter";
import { ALERT_EVENT_KINDS } from "../../../../src/contracts/alert-catalog";
import { DataTable } from "../../components/data-table";
import { Empty, QueryView } from "../../components/feedback";
import { FilterSelect } from "../../components/list-filters";
import { Pager, usePageParam } from "../../components/pager";
import { StateBadge } from "../../components/ui";
import { formatNumber, formatTime } from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { useUrlParams } from "../../lib/url-state";
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
  const page = usePageParam();
  const events = useRuleEvents(projectId, ruleId, { kind: kind || undefined, page });
  return (
    <section className="alr-events" aria-labelledby="alr-events-title">
      <div className="toolbar">
        <h2 id="alr-events-title">Events</h2>
        <FilterSelect
          label="Kind"
          value={kind}
          any="All kinds"
          options={ALERT_EVENT_KINDS.map((k) => ({ key: k, label: k.replaceAll("_", " ") }))}
          onChange={(v) => setParams({ kind: v, page: undefined })}
        />
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
            <DataTable
              columns={[
                "Time",
                "Event",
                "Series",
                { label: "Value", num: true },
                { label: "Threshold", num: true },
                "Message",
              ]}
            >
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
            </DataTable>
            <Pager
              pagination={p.pagination}
              noun={["event", "events"]}
              order="newest-first"
              label="Pages of events"
            />
          </>
        )}
      </QueryView>
    </section>
  );
}
