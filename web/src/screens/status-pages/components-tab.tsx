import { useCallback } from "react";
import { Link } from "wouter";
import { api } from "../../api/client";
import { Empty, ProblemMessage } from "../../components/feedback";
import { Drawer, StateBadge } from "../../components/ui";
import { useUrlParam } from "../../lib/url-state";
import { projectPath } from "../registry";
import {
  type ComponentInput,
  type ComponentSource,
  type StatusComponent,
  type StatusPageConfig,
  usePageWrite,
} from "./api";
import { ComponentForm } from "./component-form";
import { ConfirmButton } from "./confirm-button";
import { GroupsSection } from "./groups-section";
import { moveChanges, writePositions } from "./order";

/** Components in display order (as the public page shows them), with the groups above. */
export function ComponentsTab({
  orgId,
  config,
  manager,
}: {
  orgId: string;
  config: StatusPageConfig;
  manager: boolean;
}) {
  const pageId = config.page.id;
  // The server answers them by position, then id: the order of the public page.
  const components = config.components;
  const [editing, setEditing] = useUrlParam("component");
  const close = useCallback(() => setEditing(undefined), [setEditing]);
  const move = usePageWrite<{ id: string; position: number }[]>(orgId, pageId, (base, changes) =>
    writePositions(base, "components", changes),
  );
  const remove = usePageWrite<string>(orgId, pageId, (base, id) =>
    api(`${base}/components/${id}`, { method: "DELETE" }),
  );
  const groupName = (id: string | null) =>
    id === null ? null : (config.groups.find((g) => g.id === id)?.name ?? null);
  const edited =
    editing && editing !== "new" ? components.find((c) => c.id === editing) : undefined;
  return (
    <>
      <GroupsSection orgId={orgId} config={config} manager={manager} />
      <section className="card" aria-labelledby="sp-components-title">
        <div className="sp-section-head">
          <h2 id="sp-components-title">Components</h2>
          {manager && (
            <button
              type="button"
              className="button primary small"
              onClick={() => setEditing("new")}
            >
              Add component
            </button>
          )}
        </div>
        {components.length === 0 ? (
          <Empty title="No components yet">
            Components are the services your users see (Checkout, API), each fed by monitors and
            alert rules.
          </Empty>
        ) : (
          <div className="table-scroll">
            <table className="data">
              <thead>
                <tr>
                  {manager && <th>Order</th>}
                  <th>Component</th>
                  <th>Group</th>
                  <th>Sources</th>
                  <th>State</th>
                  {manager && <th>Actions</th>}
                </tr>
              </thead>
              <tbody>
                {components.map((c, index) => (
                  <tr key={c.id}>
                    {manager && (
                      <td className="sp-order">
                        <button
                          type="button"
                          className="button small"
                          aria-label={`Move ${c.name} up`}
                          disabled={index === 0 || move.isPending}
                          onClick={() => move.mutate(moveChanges(components, index, -1))}
                        >
                          ↑
                        </button>
                        <button
                          type="button"
                          className="button small"
                          aria-label={`Move ${c.name} down`}
                          disabled={index === components.length - 1 || move.isPending}
                          onClick={() => move.mutate(moveChanges(components, index, 1))}
                        >
                          ↓
                        </button>
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
                      <StateBadge
                        state={c.status}
                        {...(c.status === "maintenance" ? { tone: "info" as const } : {})}
                      />
                    </td>
                    {manager && (
                      <td className="sp-row-actions">
                        <button
                          type="button"
                          className="button small"
                          aria-label={`Edit ${c.name}`}
                          onClick={() => setEditing(c.id)}
                        >
                          Edit
                        </button>
                        <ConfirmButton
                          label="Delete"
                          confirmLabel="Delete component"
                          accessibleName={`Delete component ${c.name}`}
                          pending={remove.isPending}
                          onConfirm={() => remove.mutate(c.id)}
                        />
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {move.isError && <ProblemMessage error={move.error} />}
        {remove.isError && <ProblemMessage error={remove.error} />}
      </section>
      {manager && editing && (editing === "new" || edited) && (
        <ComponentDrawer orgId={orgId} config={config} component={edited} onClose={close} />
      )}
    </>
  );
}

function Sources({ component }: { component: StatusComponent }) {
  const link = (kind: "monitors" | "alerts", s: ComponentSource) => (
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
  config: StatusPageConfig;
  component: StatusComponent | undefined;
  onClose: () => void;
}) {
  const save = usePageWrite<ComponentInput>(orgId, config.page.id, (base, input) =>
    component
      ? api(`${base}/components/${component.id}`, { method: "PATCH", body: input })
      : api(`${base}/components`, { method: "POST", body: input }),
  );
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
