import {
  CreateGroupInput,
  type StatusPageGroupView,
  UpdateGroupInput,
} from "../contracts/status-pages.js";
import { ConflictError, NotFoundError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { StatusPageGroupRecord } from "../meta/repositories/status-pages.js";
import { toGroupView } from "./status-page-views.js";
import { changePage, nextPosition, type PageRef } from "./status-pages.js";

// A page's groups of components: named, ordered, holding no state of their own.

type GroupRef = PageRef & { groupId: string };

/** Group names are unique in a page: a 409 naming `name`. */
function requireFreeGroupName(
  groups: readonly StatusPageGroupRecord[],
  name: string,
  self?: string,
): void {
  if (groups.some((g) => g.name === name && g.id !== self))
    throw new ConflictError(`A group named '${name}' already exists on this page`, [
      { field: "name", message: `a group named '${name}' already exists on this page` },
    ]);
}

async function findGroup(
  tx: MetaAccess,
  pageId: string,
  groupId: string,
): Promise<{ group: StatusPageGroupRecord; groups: StatusPageGroupRecord[] }> {
  const groups = await tx.repos.statusPages.listGroups(pageId);
  const group = groups.find((g) => g.id === groupId);
  if (!group) throw new NotFoundError("Group", groupId);
  return { group, groups };
}

export async function createGroup({
  ctx,
  input,
  ...ref
}: PageRef & { input: unknown }): Promise<StatusPageGroupView> {
  const parsed = parseInput(CreateGroupInput, input);
  return changePage({
    ctx,
    ...ref,
    change: async (tx, page) => {
      const groups = await tx.repos.statusPages.listGroups(page.id);
      requireFreeGroupName(groups, parsed.name);
      const group = {
        id: ctx.deps.newId("spg"),
        pageId: page.id,
        name: parsed.name,
        position: parsed.position ?? nextPosition(groups),
      };
      await tx.repos.statusPages.insertGroup(group);
      return { result: toGroupView(group), componentIds: [] };
    },
  });
}

export async function updateGroup({
  ctx,
  groupId,
  input,
  ...ref
}: GroupRef & { input: unknown }): Promise<StatusPageGroupView> {
  const patch = parseInput(UpdateGroupInput, input);
  return changePage({
    ctx,
    ...ref,
    change: async (tx, page) => {
      const { group, groups } = await findGroup(tx, page.id, groupId);
      const changed = {
        ...group,
        name: patch.name ?? group.name,
        position: patch.position ?? group.position,
      };
      requireFreeGroupName(groups, changed.name, group.id);
      await tx.repos.statusPages.updateGroup(group.id, changed);
      return { result: toGroupView(changed), componentIds: [] };
    },
  });
}

/** Deletes a group; its components stay on the page, ungrouped. */
export async function deleteGroup({ ctx, groupId, ...ref }: GroupRef): Promise<void> {
  await changePage({
    ctx,
    ...ref,
    change: async (tx, page) => {
      const { group } = await findGroup(tx, page.id, groupId);
      await tx.repos.statusPages.deleteGroup(group.id);
      return { result: undefined, componentIds: [] };
    },
  });
}
