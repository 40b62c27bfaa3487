import { Link, useLocation } from "wouter";
import { MONITOR_TYPE_LABELS } from "../../../../src/contracts/monitor-catalog";
import type { CheckResultView, MonitorView } from "../../../../src/contracts/monitors";
import { canWrite } from "../../api/session";
import { ConfirmButton } from "../../components/confirm-button";
import { DataTable } from "../../components/data-table";
import { policySummary, useEscalationPolicies } from "../../components/escalation-picker";
import { Empty, ProblemMessage, QueryView } from "../../components/feedback";
import { PageHeader, StateBadge, Tabs } from "../../components/ui";
import { formatDuration, formatRelative, formatTime } from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { useUrlParam } from "../../lib/url-state";
import { useProject } from "../project-context";
import { useMonitor, useMonitorAction, useMonitorIncidents } from "./api";
import { MONITOR_KINDS } from "./kinds";
import { PingInstructions } from "./ping-instructions";
import { ResultDetail } from "./result-detail";
import { ResultsTimeline } from "./results";
import { MonitorStateBadge, OutcomeBadge } from "./state";

const TABS = [
  { key: "results", label: "Results" },
  { key: "incidents", label: "Incidents" },
  { key: "configuration", label: "Configuration" },
] as const;
type Tab = (typeof TABS)[number]["key"];

/** `/monitors/:monitorId`: state, actions, results timeline, incidents and configuration. */
export function MonitorDetail({ monitorId }: { monitorId: string }) {
  const { projectId } = useProject();
  const monitor = useMonitor(projectId, monitorId);
  return (
    <QueryView query={monitor}>
      {(data) => <Loaded monitor={data} projectId={projectId} />}
    </QueryView>
  );
}

function Loaded({ monitor, projectId }: { monitor: MonitorView; projectId: string }) {
  const { role } = useProject();
  const [, navigate] = useLocation();
  const [tab, setTab] = useUrlParam("tab", "results");
  const run = useMonitorAction<CheckResultView>(projectId, monitor.id, "run");
  const pause = useMonitorAction<MonitorView>(projectId, monitor.id, "pause");
  const resume = useMonitorAction<MonitorView>(projectId, monitor.id, "resume");
  const remove = useMonitorAction<void>(projectId, monitor.id, "delete");
  const paused = monitor.status === "paused";
  const toggle = paused ? resume : pause;
  const writer = canWrite(role);
  const kind = MONITOR_KINDS[monitor.type];
  const failure = [run, pause, resume, remove].find((m) => m.isError)?.error;
  return (
    <>
      <PageHeader
        title={monitor.name}
        actions={
          writer && (
            <>
              {kind.runnable && (
                <button
                  type="button"
                  className="button primary"
                  disabled={run.isPending}
                  onClick={() => run.mutate()}
                >
                  {run.isPending ? "Running…" : "Run now"}
                </button>
              )}
              <button
                type="button"
                className="button"
                disabled={toggle.isPending}
                onClick={() => toggle.mutate()}
              >
                {paused ? "Resume" : "Pause"}
              </button>
              <Link href={`/${monitor.id}/edit`} className="button">
                Edit
              </Link>
              <ConfirmButton
                label="Delete"
                size="normal"
                question={`Delete “${monitor.name}” with its results and incidents?`}
                pending={remove.isPending}
                onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate("/") })}
              />
            </>
          )
        }
      >
        <p className="mon-subtitle">
          <Link href="/" className="muted small">
            ← Monitors
          </Link>{" "}
          <MonitorStateBadge monitor={monitor} />{" "}
          <span className="muted">
            {MONITOR_TYPE_LABELS[monitor.type]} · {kind.cadence(monitor).toLowerCase()}
            {kind.scheduled && ` · timeout ${monitor.timeoutSeconds} s`} · alert after{" "}
            {monitor.alertAfter} {monitor.alertAfter === 1 ? "failure" : "consecutive failures"}
          </span>
        </p>
        <p className="muted small mono mon-url mon-target">{monitor.target}</p>
      </PageHeader>
      {failure !== undefined && <ProblemMessage error={failure} />}
      <div className="grid mon-stats">
        <div className="stat">
          <div className="label">Last check</div>
          <div className="value">
            {monitor.lastResult ? <OutcomeBadge passed={monitor.lastResult.passed} /> : "—"}
          </div>
          <div className="muted small">
            {monitor.lastResult
              ? `${formatRelative(monitor.lastResult.startedAt)} · ${formatDuration(monitor.lastResult.durationMs)}`
              : "Not checked yet"}
          </div>
        </div>
        <div className="stat">
          <div className="label">Consecutive failures</div>
          <div className="value">{monitor.failureStreak}</div>
          <div className="muted small">Outage at {monitor.alertAfter}</div>
        </div>
        <div className="stat">
          <div className="label">Open incident</div>
          <div className="value">
            {monitor.openIncidentId ? (
              <Link href={`~${projectPath(projectId, "incidents", monitor.openIncidentId)}`}>
                View incident
              </Link>
            ) : (
              "None"
            )}
          </div>
          <div className="muted small">{kind.activity[monitor.status]}</div>
        </div>
      </div>
      {monitor.pingUrl && <PingInstructions monitor={monitor} />}
      <div role="status" aria-live="polite">
        {run.isPending && <p className="muted">Running the check…</p>}
        {run.data && (
          <section className="card mon-run" aria-label="Result of the run">
            <h2>Run now: {run.data.passed ? "passed" : "failed"}</h2>
            <ResultDetail result={run.data} projectId={projectId} />
          </section>
        )}
      </div>
      <Tabs tabs={TABS} value={tab as Tab} onChange={(key) => setTab(key)} label="Monitor views" />
      <div role="tabpanel">
        {tab === "incidents" ? (
          <MonitorIncidents projectId={projectId} monitorId={monitor.id} />
        ) : tab === "configuration" ? (
          <Configuration monitor={monitor} />
        ) : (
          <ResultsTimeline projectId={projectId} monitorId={monitor.id} waiting={kind.waiting} />
        )}
      </div>
    </>
  );
}

/** The configuration tab: the kind's own settings, then what every kind has. */
function Configuration({ monitor }: { monitor: MonitorView }) {
  const { Summary } = MONITOR_KINDS[monitor.type];
  return (
    <div className="mon-configuration">
      <Summary monitor={monitor} />
      <p className="muted small">
        Created {formatTime(monitor.createdAt)} · changed {formatTime(monitor.updatedAt)} · location
        Default
        {monitor.escalationPolicyId && (
          <EscalationPolicyName
            projectId={monitor.projectId}
            policyId={monitor.escalationPolicyId}
          />
        )}
      </p>
    </div>
  );
}

/** " · escalation policy <name>" linking to the policies in Settings. */
function EscalationPolicyName({ projectId, policyId }: { projectId: string; policyId: string }) {
  const policies = useEscalationPolicies(projectId);
  const policy = policies.data?.find((p) => p.id === policyId);
  return (
    <>
      {" · escalation policy "}
      <Link href={`~${projectPath(projectId, "settings", "escalation")}`}>
        {policy ? `${policy.name} (${policySummary(policy)})` : policyId}
      </Link>
    </>
  );
}

function MonitorIncidents({ projectId, monitorId }: { projectId: string; monitorId: string }) {
  const incidents = useMonitorIncidents(projectId, monitorId);
  return (
    <QueryView
      query={incidents}
      isEmpty={(p) => p.data.length === 0}
      empty={
        <Empty title="No incidents">An outage opens one when failures reach “alert after”.</Empty>
      }
    >
      {(p) => (
        <DataTable
          columns={[
            "Status",
            "Started",
            "Ended",
            { label: "Duration", num: true },
            "Cause",
            "Notifications",
          ]}
        >
          {p.data.map((incident) => (
            <tr key={incident.id}>
              <td>
                <Link href={`~${projectPath(projectId, "incidents", incident.id)}`}>
                  <StateBadge
                    state={incident.status === "active" ? "down" : "resolved"}
                    tone={incident.status === "active" ? "bad" : "ok"}
                  />
                </Link>
              </td>
              <td>{formatTime(incident.startedAt)}</td>
              <td>{incident.resolvedAt ? formatTime(incident.resolvedAt) : "Ongoing"}</td>
              <td className="num">{formatDuration(incident.durationMs)}</td>
              <td className="mon-reason-cell">{incident.cause}</td>
              <td>
                {incident.notifications.length === 0
                  ? "—"
                  : incident.notifications.map((n) => `${n.event} (${n.status})`).join(", ")}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </QueryView>
  );
}
