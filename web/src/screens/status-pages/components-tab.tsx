import { Link } from "wouter";
import type {
  ComponentSourceView,
  StatusPageComponentView,
  StatusPageConfigView,
} from "../../../../src/contracts/status-pages";
import { DataTable } from "../../components/data-table";
import { Empty, ProblemMessage } from "../../components/feedback";
import { Drawer } from "../../components/ui";
import { projectPath } from "../../lib/project-path";
import type { ComponentInput } from "./api";
import {
  MoveButtons,
  RowActions,
  SectionHead,
  type TabProps,
  useEditedItem,
  useMoveItems,
  useRemoveItem,
  useSaveItem,
} from "./collection";
import { ComponentForm } from "./component-form";
import { GroupsSection } from "./groups-section";
import { moveChanges } from "./order";
import { StatusStateBadge } from "./state-badge";

/** Components in display order (as the public page shows them), with the groups above. */
export function ComponentsTab({ orgId, config, manager }: TabProps) {
  const pageId = config.page.id;
  // The server answers them by position, then id: the order of the public page.
  const components = config.components;
  const editing = useEditedItem("component", components);
  const move = useMoveItems(orgId, pageId, "components");
  const remove = useRemoveItem(orgId, pageId, "components");
  const groupName = (id: string | null) =>
    id === null ? null : (config.groups.find((g) => g.id === id)?.name ?? null);
  return (
    <>
      <GroupsSection orgId={orgId} config={config} manager={manager} />
      <section className="card" aria-labelledby="sp-components-title">
        <SectionHead
          id="sp-components-title"
          title="Components"
          action={
            manager && (
              <button
                type="button"
                className="button primary small"
                onClick={() => editing.edit("new")}
              >
                Add component
              </button>
            )
          }
        />
        {components.length === 0 ? (
          <Empty title="No components yet">
            Components are the services your users see (Checkout, API), each fed by monitors and
            alert rules.
          </Empty>
        ) : (
          <DataTable
            columns={[
              manager && "Order",
              "Component",
              "Group",
              "Sources",
              "State",
              manager && "Actions",
            ]}
          >
            {components.map((c, index) => (
              <tr key={c.id}>
                {manager && (
                  <td className="sp-order">
                    <MoveButtons
                      name={c.name}
                      index={index}
                      count={components.length}
                      pending={move.isPending}
                      onMove={(step) => move.mutate(moveChanges(components, index, step))}
                    />
                  </td>
                )}
                <td>
                  <strong>{c.name}</strong>
                  {c.description && <div className="muted small">{c.description}</div>}
                </td>
                <td>{groupName(c.groupId) ?? <span className="muted">—</span>}</td>
                <td>
                  <Sources component={c} />
                </td>
                <td>
                  <StatusStateBadge state={c.status} />
                  {!c.publishIncidents && (
                    <div className="muted small">Source incidents not shown</div>
                  )}
                </td>
                {manager && (
                  <RowActions
                    what="component"
                    name={c.name}
                    onEdit={() => editing.edit(c.id)}
                    remove={{ isPending: remove.isPending, mutate: () => remove.mutate(c.id) }}
                  />
                )}
              </tr>
            ))}
          </DataTable>
        )}
        {move.isError && <ProblemMessage error={move.error} />}
        {remove.isError && <ProblemMessage error={remove.error} />}
      </section>
      {manager && editing.open && (
        <ComponentDrawer
          orgId={orgId}
          config={config}
          component={editing.item}
          onClose={editing.close}
        />
      )}
    </>
  );
}

function Sources({ component }: { component: StatusPageComponentView }) {
  const link = (kind: "monitors" | "alerts", s: ComponentSourceView) => (
    <li key={s.id}>
      <Link href={`~${projectPath(s.projectId, kind, s.id)}`}>{s.name}</Link>{" "}
      <span className="muted small">{kind === "monitors" ? "monitor" : "alert rule"}</span>
    </li>
  );
  if (component.monitors.length + component.alertRules.length === 0)
    return <span className="muted">None: always operational</span>;
  return (
    <ul className="sp-source-list">
      {component.monitors.map((m) => link("monitors", m))}
      {component.alertRules.map((r) => link("alerts", r))}
    </ul>
  );
}

function ComponentDrawer({
  orgId,
  config,
  component,
  onClose,
}: {
  orgId: string;
  config: StatusPageConfigView;
  component: StatusPageComponentView | undefined;
  onClose: () => void;
}) {
  const save = useSaveItem<ComponentInput>(orgId, config.page.id, "components", component);
  const groups = [...config.groups].sort((a, b) => a.position - b.position);
  return (
    <Drawer title={component ? `Edit ${component.name}` : "Add a component"} onClose={onClose}>
      <ComponentForm
        orgId={orgId}
        groups={groups}
        component={component}
        pending={save.isPending}
        error={save.error}
        onSubmit={(input) => save.mutate(input, { onSuccess: onClose })}
      />
    </Drawer>
  );
}
