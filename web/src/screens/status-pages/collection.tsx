import { type ReactNode, useCallback } from "react";
import type { StatusPageConfigView } from "../../../../src/contracts/status-pages";
import { api } from "../../api/client";
import { ConfirmButton } from "../../components/confirm-button";
import { useUrlParam } from "../../lib/url-state";
import { usePageWrite } from "./api";
import { writePositions } from "./order";

/** A page's collections edited from the editor's tabs, each at `<page>/<collection>/<id>`. */
type Collection = "components" | "groups" | "maintenances";

/** What every tab of the editor receives. */
export interface TabProps {
  orgId: string;
  config: StatusPageConfigView;
  /** Owners and admins: they see the write controls. */
  manager: boolean;
}

/**
 * The item of a collection the URL says is being edited (`param`): "new", one of `items`, or
 * none; so an open drawer survives a reload and can be shared.
 */
export function useEditedItem<T extends { id: string }>(param: string, items: readonly T[]) {
  const [editing, setEditing] = useUrlParam(param);
  const close = useCallback(() => setEditing(undefined), [setEditing]);
  const item = editing && editing !== "new" ? items.find((i) => i.id === editing) : undefined;
  return { open: editing === "new" || item !== undefined, item, edit: setEditing, close };
}

/** Saves an item of a page's collection: PATCH when it exists, POST for a new one. */
export function useSaveItem<I>(
  orgId: string,
  pageId: string,
  collection: Collection,
  item: { id: string } | undefined,
) {
  return usePageWrite<I>(orgId, pageId, (base, input) =>
    item
      ? api(`${base}/${collection}/${item.id}`, { method: "PATCH", body: input })
      : api(`${base}/${collection}`, { method: "POST", body: input }),
  );
}

/** Writes the position changes of an ordered collection (`moveChanges`), one after the other. */
export function useMoveItems(orgId: string, pageId: string, collection: "groups" | "components") {
  return usePageWrite<{ id: string; position: number }[]>(orgId, pageId, (base, changes) =>
    writePositions(base, collection, changes),
  );
}

/** Deletes an item of a page's collection by its id. */
export function useRemoveItem(orgId: string, pageId: string, collection: Collection) {
  return usePageWrite<string>(orgId, pageId, (base, id) =>
    api(`${base}/${collection}/${id}`, { method: "DELETE" }),
  );
}

/** A card's title with its add button beside it (owners and admins). */
export function SectionHead({
  id,
  title,
  action,
}: {
  id: string;
  title: string;
  action?: ReactNode;
}) {
  return (
    <div className="sp-section-head">
      <h2 id={id}>{title}</h2>
      {action}
    </div>
  );
}

/** ↑ and ↓ of one item of an ordered list (groups, components). */
export function MoveButtons({
  name,
  index,
  count,
  pending,
  onMove,
}: {
  /** How the buttons name the item ("group Core services"). */
  name: string;
  index: number;
  count: number;
  pending: boolean;
  onMove: (step: -1 | 1) => void;
}) {
  return (
    <>
      <button
        type="button"
        className="button small"
        aria-label={`Move ${name} up`}
        disabled={index === 0 || pending}
        onClick={() => onMove(-1)}
      >
        ↑
      </button>
      <button
        type="button"
        className="button small"
        aria-label={`Move ${name} down`}
        disabled={index === count - 1 || pending}
        onClick={() => onMove(1)}
      >
        ↓
      </button>
    </>
  );
}

/** A row's Edit (opens its drawer) and Delete (asked twice) for owners and admins. */
export function RowActions({
  what,
  name,
  onEdit,
  remove,
}: {
  /** "component", "maintenance". */
  what: string;
  name: string;
  onEdit: () => void;
  remove: { isPending: boolean; mutate: () => void };
}) {
  return (
    <td className="sp-row-actions">
      <button
        type="button"
        className="button small"
        aria-label={`Edit ${what} ${name}`}
        onClick={onEdit}
      >
        Edit
      </button>
      <ConfirmButton
        label="Delete"
        confirmLabel={`Delete ${what}`}
        accessibleName={`Delete ${what} ${name}`}
        pending={remove.isPending}
        onConfirm={remove.mutate}
      />
    </td>
  );
}
