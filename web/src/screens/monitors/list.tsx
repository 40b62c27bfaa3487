import { Link } from "wouter";
import { MONITOR_TYPE_LABELS, MONITOR_TYPES } from "../../../../src/contracts/monitor-catalog";
import type { MonitorView } from "../../../../src/contracts/monitors";
import { canWrite } from "../../api/session";
import { DataTable } from "../../components/data-table";
import { QueryView } from "../../components/feedback";
import {
  FilterToolbar,
  NoMatches,
  NothingYet,
  useListFilters,
} from "../../components/list-filters";
import { RelativeTime } from "../../components/relative-time";
import { PageHeader } from "../../components/ui";
import { formatDuration } from "../../lib/format";
import { useProject } from "../project-context";
import { useMonitors } from "./api";
import { MONITOR_KINDS } from "./kinds";
import { MONITOR_STATES, MonitorStateBadge, monitorState, OutcomeBadge } from "./state";

const TYPE_OPTIONS = MONITOR_TYPES.map((key) => ({ key, label: MONITOR_TYPE_LABELS[key] }));

/** `/monitors`: every monitor with its state and last check; filters live in the URL. */
export function MonitorList() {
  const { projectId, role } = useProject();
  const monitors = useMonitors(projectId);
  const filters = useListFilters(["q", "state", "type"] as const);
  const { q, state, type } = filters.values;
  const matches = (m: MonitorView) =>
    (!q ||
      m.name.toLowerCase().includes(q.toLowerCase()) ||
      m.target.toLowerCase().includes(q.toLowerCase()) ||
      m.steps.some((s) => s.url.toLowerCase().includes(q.toLowerCase()))) &&
    (!state || monitorState(m).key === state) &&
    (!type || m.type === type);
  return (
    <>
      <PageHeader
        title="Monitors"
        actions={
          canWrite(role) && (
            <Link href="/new" className="button primary">
              New monitor
            </Link>
          )
        }
      >
        <p className="muted small">
          HTTP checks and multi-step API flows, TCP ports, DNS records, TLS certificates and
          heartbeats of your jobs.
        </p>
      </PageHeader>
      <FilterToolbar
        filters={filters}
        search={{ key: "q", placeholder: "Name or target" }}
        selects={[
          { key: "state", label: "State", any: "Any state", options: MONITOR_STATES },
          { key: "type", label: "Type", any: "Any type", options: TYPE_OPTIONS },
        ]}
      />
      <QueryView
        query={monitors}
        isEmpty={(page) => page.data.length === 0}
        empty={
          <NothingYet title="No monitors yet" canCreate={canWrite(role)}>
            <Link href="/new">Create a monitor</Link>
          </NothingYet>
        }
      >
        {(page) => {
          const rows = page.data.filter(matches);
          if (rows.length === 0) return <NoMatches title="No monitor matches these filters" />;
          return (
            <DataTable
              columns={[
                "Name",
                "Type",
                "State",
                "Last check",
                { label: "Duration", num: true },
                "Schedule",
              ]}
              caption={
                <>
                  {rows.length} of {page.data.length} monitors
                </>
              }
              className="mon-table"
            >
              {rows.map((m) => (
                <tr key={m.id}>
                  <td>
                    <Link href={`/${m.id}`}>{m.name}</Link>
                    <div className="muted small mono mon-url">{m.target}</div>
                  </td>
                  <td>
                    {MONITOR_TYPE_LABELS[m.type]}
                    {m.type === "flow" && (
                      <span className="muted small"> · {m.steps.length} steps</span>
                    )}
                  </td>
                  <td>
                    <MonitorStateBadge monitor={m} />
                  </td>
                  <td>
                    {m.lastResult ? (
                      <>
                        <OutcomeBadge passed={m.lastResult.passed} />{" "}
                        <RelativeTime at={m.lastResult.startedAt} />
                      </>
                    ) : (
                      <span className="muted">Never</span>
                    )}
                  </td>
                  <td className="num">{formatDuration(m.lastResult?.durationMs)}</td>
                  <td>{MONITOR_KINDS[m.type].cadence(m)}</td>
                </tr>
              ))}
            </DataTable>
          );
        }}
      </QueryView>
    </>
  );
}
