import { type FormEvent, useState } from "react";
import type { StatusPageGroupView } from "../../../../src/contracts/status-pages";
import { api } from "../../api/client";
import { ConfirmButton } from "../../components/confirm-button";
import { FormProblem, ProblemMessage } from "../../components/feedback";
import { TextField } from "../../components/text-field";
import { usePageWrite } from "./api";
import { MoveButtons, type TabProps, useMoveItems, useRemoveItem } from "./collection";
import { moveChanges } from "./order";

/** The page's groups: add, rename, order, delete (their components stay, ungrouped). */
export function GroupsSection({ orgId, config, manager }: TabProps) {
  const pageId = config.page.id;
  const groups = [...config.groups].sort(
    (a, b) => a.position - b.position || (a.id < b.id ? -1 : 1),
  );
  const move = useMoveItems(orgId, pageId, "groups");
  const remove = useRemoveItem(orgId, pageId, "groups");
  const members = (groupId: string) => config.components.filter((c) => c.groupId === groupId);
  return (
    <section className="card" aria-labelledby="sp-groups-title">
      <h2 id="sp-groups-title">Groups</h2>
      {groups.length === 0 ? (
        <p className="muted">
          No groups. Groups gather components under a heading (“Core services”, “Regions”).
        </p>
      ) : (
        <ul className="sp-rows">
          {groups.map((group, index) => (
            <li key={group.id}>
              <GroupRow
                orgId={orgId}
                pageId={pageId}
                group={group}
                count={members(group.id).length}
                manager={manager}
              />
              {manager && (
                <span className="sp-row-actions">
                  <MoveButtons
                    name={`group ${group.name}`}
                    index={index}
                    count={groups.length}
                    pending={move.isPending}
                    onMove={(step) => move.mutate(moveChanges(groups, index, step))}
                  />
                  <ConfirmButton
                    label="Delete"
                    confirmLabel="Delete group"
                    accessibleName={`Delete group ${group.name}`}
                    pending={remove.isPending}
                    onConfirm={() => remove.mutate(group.id)}
                  />
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {move.isError && <ProblemMessage error={move.error} />}
      {remove.isError && <ProblemMessage error={remove.error} />}
      {manager && <AddGroup orgId={orgId} pageId={pageId} />}
    </section>
  );
}

function GroupRow({
  orgId,
  pageId,
  group,
  count,
  manager,
}: {
  orgId: string;
  pageId: string;
  group: StatusPageGroupView;
  count: number;
  manager: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(group.name);
  const rename = usePageWrite<string>(orgId, pageId, (base, next) =>
    api(`${base}/groups/${group.id}`, { method: "PATCH", body: { name: next } }),
  );
  if (!editing)
    return (
      <span className="sp-row-main">
        <strong>{group.name}</strong>{" "}
        <span className="muted small">
          {count} component{count === 1 ? "" : "s"}
        </span>
        {manager && (
          <button
            type="button"
            className="button small"
            aria-label={`Rename group ${group.name}`}
            onClick={() => {
              setName(group.name);
              setEditing(true);
            }}
          >
            Rename
          </button>
        )}
      </span>
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate(name, { onSuccess: () => setEditing(false) });
  };
  return (
    <form className="sp-inline-form" onSubmit={submit} aria-label={`Rename group ${group.name}`}>
      <TextField
        label="Group name"
        name="name"
        error={rename.error}
        value={name}
        required
        maxLength={100}
        onChange={setName}
      />
      <button type="submit" className="button small primary" disabled={rename.isPending}>
        Save
      </button>
      <button type="button" className="button small" onClick={() => setEditing(false)}>
        Cancel
      </button>
      <FormProblem error={rename.error} fields={["name"]} />
    </form>
  );
}

function AddGroup({ orgId, pageId }: { orgId: string; pageId: string }) {
  const [name, setName] = useState("");
  const add = usePageWrite<string>(orgId, pageId, (base, groupName) =>
    api(`${base}/groups`, { method: "POST", body: { name: groupName } }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(name, { onSuccess: () => setName("") });
  };
  return (
    <form className="sp-inline-form" onSubmit={submit} aria-label="Add a group">
      <TextField
        label="New group"
        name="name"
        error={add.error}
        value={name}
        required
        maxLength={100}
        placeholder="Core services"
        onChange={setName}
      />
      <button type="submit" className="button small" disabled={add.isPending}>
        Add group
      </button>
      <FormProblem error={add.error} fields={["name"]} />
    </form>
  );
}
