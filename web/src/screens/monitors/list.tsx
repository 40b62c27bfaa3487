import { Link } from "wouter";
import { canWrite } from "../../api/session";
import { Empty, QueryView } from "../../components/feedback";
import { PageHeader } from "../../components/ui";
import { formatDuration, formatRelative, formatTime } from "../../lib/format";
import { useUrlParams } from "../../lib/url-state";
import { useProject } from "../project-context";
import { type Monitor, useMonitors } from "./api";
import {
  frequencyLabel,
  MONITOR_STATES,
  MonitorStateBadge,
  monitorState,
  OutcomeBadge,
  TYPE_LABELS,
} from "./state";

/** `/monitors`: every monitor with its state and last check; filters live in the URL. */
export function MonitorList() {
  const { projectId, role } = useProject();
  const monitors = useMonitors(projectId);
  const [params, setParams] = useUrlParams();
  const q = params.get("q") ?? "";
  const state = params.get("state") ?? "";
  const type = params.get("type") ?? "";
  const matches = (m: Monitor) =>
    (!q ||
      m.name.toLowerCase().includes(q.toLowerCase()) ||
      m.steps.some((s) => s.url.toLowerCase().includes(q.toLowerCase()))) &&
    (!state || monitorState(m).key === state) &&
    (!type || m.type === type);
  const filtered = Boolean(q || state || type);
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
        <p className="muted small">HTTP checks of your endpoints and multi-step API flows.</p>
      </PageHeader>
      <search className="toolbar">
        <label className="field">
          <span>Search</span>
          <input
            type="search"
            value={q}
            placeholder="Name or URL"
            onChange={(e) => setParams({ q: e.target.value })}
          />
        </label>
        <label className="field">
          <span>State</span>
          <select value={state} onChange={(e) => setParams({ state: e.target.value })}>
            <option value="">Any state</option>
            {MONITOR_STATES.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Type</span>
          <select value={type} onChange={(e) => setParams({ type: e.target.value })}>
            <option value="">Any type</option>
            <option value="api">API</option>
            <option value="flow">Multi-step</option>
          </select>
        </label>
        {filtered && (
          <button
            type="button"
            className="button small"
            onClick={() => setParams({ q: undefined, state: undefined, type: undefined })}
          >
            Clear filters
          </button>
        )}
      </search>
      <QueryView
        query={monitors}
        isEmpty={(page) => page.data.length === 0}
        empty={
          <Empty title="No monitors yet">
            {canWrite(role) ? (
              <Link href="/new">Create a monitor</Link>
            ) : (
              "A member of the organization can create one."
            )}
          </Empty>
        }
      >
        {(page) => {
          const rows = page.data.filter(matches);
          if (rows.length === 0) return <Empty title="No monitor matches these filters" />;
          return (
            <div className="table-scroll">
              <table className="data mon-table">
                <caption className="visually-hidden">
                  {rows.length} of {page.data.length} monitors
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Type</th>
                    <th scope="col">State</th>
                    <th scope="col">Last check</th>
                    <th scope="col" className="num">
                      Duration
                    </th>
                    <th scope="col">Frequency</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((m) => (
                    <tr key={m.id}>
                      <td>
                        <Link href={`/${m.id}`}>{m.name}</Link>
                        <div className="muted small mono mon-url">{m.steps[0]?.url}</div>
                      </td>
                      <td>
                        {TYPE_LABELS[m.type]}
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
                            <time
                              dateTime={m.lastResult.startedAt}
                              title={formatTime(m.lastResult.startedAt)}
                            >
                              {formatRelative(m.lastResult.startedAt)}
                            </time>
                          </>
                        ) : (
                          <span className="muted">Never</span>
                        )}
                      </td>
                      <td className="num">{formatDuration(m.lastResult?.durationMs)}</td>
                      <td>Every {frequencyLabel(m.frequency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          );
        }}
      </QueryView>
    </>
  );
}
