import { type Ctx, nowIso } from "../context.js";
import {
  CreateGroupInput,
  CreateStatusPageInput,
  type StatusPageConfigView,
  type StatusPageGroupView,
  type StatusPageView,
  UpdateGroupInput,
  UpdateStatusPageInput,
} from "../contracts/status-pages.js";
import { ConflictError, NotFoundError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { StatusPageGroupRecord, StatusPageRecord } from "../meta/repositories/status-pages.js";
import { requireOrg } from "../projects/projects.js";
import {
  toComponentView,
  toGroupView,
  toMaintenanceView,
  toPageView,
} from "./status-page-views.js";

/** A status page of an organization, as the routes name it. */
export interface PageRef {
  ctx: Ctx;
  orgId: string;
  pageId: string;
}

/** The organization's page; another organization's is not found. Access is checked apart. */
async function pageOf(meta: MetaAccess, orgId: string, pageId: string): Promise<StatusPageRecord> {
  const page = await meta.repos.statusPages.findById(pageId);
  if (!page || page.orgId !== orgId) throw new NotFoundError("Status page", pageId);
  return page;
}

/** Loads a page of the organization the actor may read or manage. */
export async function findPage(
  { ctx, orgId, pageId }: PageRef,
  access: "read" | "manage",
): Promise<StatusPageRecord> {
  await requireOrg(ctx, orgId, access);
  return pageOf(ctx.deps.meta, orgId, pageId);
}

/**
 * THE seam of every write under a page: one transaction holding the page's row lock (so limits
 * and uniqueness checks hold), after which the state engine computes again the components the
 * change touched (sources or windows) and the page, and bumps its data_version (caches key on it).
 */
export async function changePage<T>(
  ref: PageRef,
  fn: (
    tx: MetaAccess,
    page: StatusPageRecord,
  ) => Promise<{ result: T; componentIds: readonly string[] }>,
): Promise<T> {
  await requireOrg(ref.ctx, ref.orgId, "manage");
  return ref.ctx.deps.meta.transaction(async (tx) => {
    if (!(await tx.repos.statusPages.lock(ref.pageId)))
      throw new NotFoundError("Status page", ref.pageId);
    const page = await pageOf(tx, ref.orgId, ref.pageId);
    const { result, componentIds } = await fn(tx, page);
    await ref.ctx.deps.statusPages.pageChanged(tx, page.id, componentIds);
    return result;
  });
}

/** Slugs are unique across the installation: a 409 naming `slug`. */
async function requireFreeSlug(meta: MetaAccess, slug: string, self?: string): Promise<void> {
  const other = await meta.repos.statusPages.findBySlug(slug);
  if (other && other.id !== self)
    throw new ConflictError(`The slug '${slug}' is taken`, [
      { field: "slug", message: `'${slug}' is taken by another status page` },
    ]);
}

/** Where a new item goes when no position is given: after the last. */
export const nextPosition = (items: readonly { position: number }[]): number =>
  items.reduce((max, item) => Math.max(max, item.position + 1), 0);

/** A page's whole configuration: page, groups, components with their sources, windows. */
export async function configOf(
  meta: MetaAccess,
  page: StatusPageRecord,
): Promise<StatusPageConfigView> {
  const { statusPages, statusPageMaintenances } = meta.repos;
  const [groups, components, maintenances] = await Promise.all([
    statusPages.listGroups(page.id),
    statusPages.listComponents(page.id),
    statusPageMaintenances.listByPage(page.id),
  ]);
  const sources = await statusPages.sourcesOf(components.map((c) => c.id));
  return {
    page: toPageView(page),
    groups: groups.map(toGroupView),
    components: components.map((c) => toComponentView(c, sources.get(c.id))),
    maintenances: maintenances.map(toMaintenanceView),
  };
}

export async function listPages({
  ctx,
  orgId,
}: {
  ctx: Ctx;
  orgId: string;
}): Promise<StatusPageView[]> {
  await requireOrg(ctx, orgId, "read");
  return (await ctx.deps.meta.repos.statusPages.listByOrg(orgId)).map(toPageView);
}

export async function createPage({
  ctx,
  orgId,
  input,
}: {
  ctx: Ctx;
  orgId: string;
  input: unknown;
}): Promise<StatusPageConfigView> {
  await requireOrg(ctx, orgId, "manage");
  const parsed = parseInput(CreateStatusPageInput, input);
  const at = nowIso(ctx.deps);
  const page: StatusPageRecord = {
    id: ctx.deps.newId("stp"),
    orgId,
    ...parsed,
    state: "operational",
    stateChangedAt: at,
    dataVersion: 1,
    createdBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
    createdAt: at,
    updatedAt: at,
  };
  await ctx.deps.meta.transaction(async (tx) => {
    await requireFreeSlug(tx, page.slug);
    await tx.repos.statusPages.insert(page);
  });
  return configOf(ctx.deps.meta, page);
}

export async function getPage(ref: PageRef): Promise<StatusPageConfigView> {
  return configOf(ref.ctx.deps.meta, await findPage(ref, "read"));
}

/** Changes any of the page's fields; an omitted field keeps its value. */
export async function updatePage(
  ref: PageRef & { input: UpdateStatusPageInput },
): Promise<StatusPageConfigView> {
  const patch = parseInput(UpdateStatusPageInput, ref.input);
  await changePage(ref, async (tx, page) => {
    const change = {
      slug: patch.slug ?? page.slug,
      title: patch.title ?? page.title,
      description: patch.description ?? page.description,
      logoUrl: patch.logoUrl === undefined ? page.logoUrl : patch.logoUrl,
      links: patch.links ?? page.links,
      timezone: patch.timezone ?? page.timezone,
    };
    await requireFreeSlug(tx, change.slug, page.id);
    await tx.repos.statusPages.update(page.id, change);
    return { result: undefined, componentIds: [] };
  });
  return getPage(ref);
}

/** Deletes the page with its groups, components, windows and history. */
export async function deletePage(ref: PageRef): Promise<void> {
  await requireOrg(ref.ctx, ref.orgId, "manage");
  await ref.ctx.deps.meta.transaction(async (tx) => {
    const page = await pageOf(tx, ref.orgId, ref.pageId);
    await tx.repos.statusPages.delete(page.id);
  });
}

// ---- groups ----

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

export async function createGroup(ref: PageRef & { input: unknown }): Promise<StatusPageGroupView> {
  const input = parseInput(CreateGroupInput, ref.input);
  return changePage(ref, async (tx, page) => {
    const groups = await tx.repos.statusPages.listGroups(page.id);
    requireFreeGroupName(groups, input.name);
    const group = {
      id: ref.ctx.deps.newId("spg"),
      pageId: page.id,
      name: input.name,
      position: input.position ?? nextPosition(groups),
    };
    await tx.repos.statusPages.insertGroup(group);
    return { result: toGroupView(group), componentIds: [] };
  });
}

export async function updateGroup(
  ref: PageRef & { groupId: string; input: unknown },
): Promise<StatusPageGroupView> {
  const patch = parseInput(UpdateGroupInput, ref.input);
  return changePage(ref, async (tx, page) => {
    const { group, groups } = await findGroup(tx, page.id, ref.groupId);
    const changed = {
      ...group,
      name: patch.name ?? group.name,
      position: patch.position ?? group.position,
    };
    requireFreeGroupName(groups, changed.name, group.id);
    await tx.repos.statusPages.updateGroup(group.id, changed);
    return { result: toGroupView(changed), componentIds: [] };
  });
}

/** Deletes a group; its components stay on the page, ungrouped. */
export async function deleteGroup(ref: PageRef & { groupId: string }): Promise<void> {
  await changePage(ref, async (tx, page) => {
    const { group } = await findGroup(tx, page.id, ref.groupId);
    await tx.repos.statusPages.deleteGroup(group.id);
    return { result: undefined, componentIds: [] };
  });
}
