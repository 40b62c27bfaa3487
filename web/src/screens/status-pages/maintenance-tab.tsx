import { useCallback } from "react";
import { api } from "../../api/client";
import { Empty, ProblemMessage } from "../../components/feedback";
import { Drawer, StateBadge } from "../../components/ui";
import { formatDuration, formatTime } from "../../lib/format";
import { useUrlParam } from "../../lib/url-state";
import {
  type Maintenance,
  type MaintenanceInput,
  type MaintenancePhase,
  type StatusPageConfig,
  usePageWrite,
} from "./api";
import { ConfirmButton } from "./confirm-button";
import { MaintenanceForm } from "./maintenance-form";

/** A window's edge, short enough for a table cell ("Nov 26, 20:00"); the full time on hover. */
const edge = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });

const PHASE_TONE: Record<MaintenancePhase, "info" | "warn" | "muted"> = {
  scheduled: "info",
  in_progress: "warn",
  completed: "muted",
};

/** The page's maintenance windows, latest start first; owners and admins schedule them. */
export function MaintenanceTab({
  orgId,
  config,
  manager,
}: {
  orgId: string;
  config: StatusPageConfig;
  manager: boolean;
}) {
  const [editing, setEditing] = useUrlParam("maintenance");
  const close = useCallback(() => setEditing(undefined), [setEditing]);
  const remove = usePageWrite<string>(orgId, config.page.id, (base, id) =>
    api(`${base}/maintenances/${id}`, { method: "DELETE" }),
  );
  const names = new Map(config.components.map((c) => [c.id, c.name]));
  const edited =
    editing && editing !== "new" ? config.maintenances.find((m) => m.id === editing) : undefined;
  return (
    <section className="card" aria-labelledby="sp-maintenance-title">
      <div className="sp-section-head">
        <h2 id="sp-maintenance-title">Maintenance windows</h2>
        {manager && (
          <button
            type="button"
            className="button primary small"
            onClick={() => setEditing("new")}
            disabled={config.components.length === 0}
          >
            Schedule maintenance
          </button>
        )}
      </div>
      <p className="muted small">
        While a window is in progress its components show “maintenance”, which never counts as
        downtime.
      </p>
      {config.maintenances.length === 0 ? (
        <Empty title="No maintenance scheduled">
          {config.components.length === 0
            ? "Add a component first: a window covers at least one."
            : "Announce planned work ahead so your users know what to expect."}
        </Empty>
      ) : (
        <div className="table-scroll">
          <table className="data">
            <thead>
              <tr>
                <th>Window</th>
                <th>Phase</th>
                <th>When</th>
                <th>Components</th>
                {manager && <th>Actions</th>}
              </tr>
            </thead>
            <tbody>
              {config.maintenances.map((m) => (
                <tr key={m.id}>
                  <td>
                    <strong>{m.title}</strong>
                    {m.message && <div className="muted small sp-lines">{m.message}</div>}
                  </td>
                  <td>
                    <StateBadge state={m.phase} tone={PHASE_TONE[m.phase]} />
                  </td>
                  <td className="sp-nowrap">
                    <time dateTime={m.startsAt} title={formatTime(m.startsAt)}>
                      {edge(m.startsAt)}
                    </time>
                    <br />
                    <span aria-hidden="true">→ </span>
                    <span className="visually-hidden">until </span>
                    <time dateTime={m.endsAt} title={formatTime(m.endsAt)}>
                      {edge(m.endsAt)}
                    </time>
                    <div className="muted small">
                      {formatDuration(Date.parse(m.endsAt) - Date.parse(m.startsAt))}
                    </div>
                  </td>
                  <td>{m.componentIds.map((id) => names.get(id) ?? id).join(", ")}</td>
                  {manager && (
                    <td className="sp-row-actions">
                      <button
                        type="button"
                        className="button small"
                        aria-label={`Edit maintenance ${m.title}`}
                        onClick={() => setEditing(m.id)}
                      >
                        Edit
                      </button>
                      <ConfirmButton
                        label="Delete"
                        confirmLabel="Delete window"
                        accessibleName={`Delete maintenance ${m.title}`}
                        pending={remove.isPending}
                        onConfirm={() => remove.mutate(m.id)}
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {remove.isError && <ProblemMessage error={remove.error} />}
      {manager && editing && (editing === "new" || edited) && (
        <MaintenanceDrawer orgId={orgId} config={config} maintenance={edited} onClose={close} />
      )}
    </section>
  );
}

function MaintenanceDrawer({
  orgId,
  config,
  maintenance,
  onClose,
}: {
  orgId: string;
  config: StatusPageConfig;
  maintenance: Maintenance | undefined;
  onClose: () => void;
}) {
  const save = usePageWrite<MaintenanceInput>(orgId, config.page.id, (base, input) =>
    maintenance
      ? api(`${base}/maintenances/${maintenance.id}`, { method: "PATCH", body: input })
      : api(`${base}/maintenances`, { method: "POST", body: input }),
  );
  return (
    <Drawer
      title={maintenance ? `Edit ${maintenance.title}` : "Schedule maintenance"}
      onClose={onClose}
    >
      <MaintenanceForm
        components={config.components}
        maintenance={maintenance}
        pending={save.isPending}
        error={save.error}
        onSubmit={(input) => save.mutate(input, { onSuccess: onClose })}
      />
    </Drawer>
  );
}
