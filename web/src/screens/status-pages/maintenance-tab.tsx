import type {
  MaintenancePhase,
  StatusPageConfigView,
  StatusPageMaintenanceView,
} from "../../../../src/contracts/status-pages";
import { DataTable } from "../../components/data-table";
import { Empty, ProblemMessage } from "../../components/feedback";
import { Drawer, StateBadge } from "../../components/ui";
import { formatDuration, formatTime } from "../../lib/format";
import type { MaintenanceInput } from "./api";
import {
  RowActions,
  SectionHead,
  type TabProps,
  useEditedItem,
  useRemoveItem,
  useSaveItem,
} from "./collection";
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
export function MaintenanceTab({ orgId, config, manager }: TabProps) {
  const editing = useEditedItem("maintenance", config.maintenances);
  const remove = useRemoveItem(orgId, config.page.id, "maintenances");
  const names = new Map(config.components.map((c) => [c.id, c.name]));
  return (
    <section className="card" aria-labelledby="sp-maintenance-title">
      <SectionHead
        id="sp-maintenance-title"
        title="Maintenance windows"
        action={
          manager && (
            <button
              type="button"
              className="button primary small"
              onClick={() => editing.edit("new")}
              disabled={config.components.length === 0}
            >
              Schedule maintenance
            </button>
          )
        }
      />
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
        <DataTable columns={["Window", "Phase", "When", "Components", manager && "Actions"]}>
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
                <RowActions
                  what="maintenance"
                  name={m.title}
                  onEdit={() => editing.edit(m.id)}
                  remove={{ isPending: remove.isPending, mutate: () => remove.mutate(m.id) }}
                />
              )}
            </tr>
          ))}
        </DataTable>
      )}
      {remove.isError && <ProblemMessage error={remove.error} />}
      {manager && editing.open && (
        <MaintenanceDrawer
          orgId={orgId}
          config={config}
          maintenance={editing.item}
          onClose={editing.close}
        />
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
  config: StatusPageConfigView;
  maintenance: StatusPageMaintenanceView | undefined;
  onClose: () => void;
}) {
  const save = useSaveItem<MaintenanceInput>(orgId, config.page.id, "maintenances", maintenance);
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
