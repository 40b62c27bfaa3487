import { type Ctx, type DomainDeps, nowIso } from "../context.js";
import {
  CreateStatusPageInput,
  type StatusPageConfigView,
  type StatusPageView,
  UpdateStatusPageInput,
} from "../contracts/status-pages.js";
import { ConflictError, NotFoundError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { StatusPageRecord } from "../meta/repositories/status-pages.js";
import { requireOrg } from "../projects/projects.js";
import type { StatusPageSignalDeps } from "./signals.js";
import {
  toComponentView,
  toGroupView,
  toMaintenanceView,
  toPageView,
} from "./status-page-views.js";

// A status page's commands and queries, and the two every write under a page goes through
// (findPage, changePage). Its groups, components and windows are groups.ts, components.ts and
// maintenances.ts; the state they feed is the engine's (engine.ts, state-rule.ts).

/** A status page of an organization, as the routes name it, with the acting ctx. */
export interface PageRef {
  ctx: Ctx<DomainDeps & StatusPageSignalDeps>;
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
export async function findPage({
  ctx,
  orgId,
  pageId,
  access,
}: PageRef & { access: "read" | "manage" }): Promise<StatusPageRecord> {
  await requireOrg({ ctx, orgId, access });
  return pageOf(ctx.deps.meta, orgId, pageId);
}

/** What a write under a page does in its transaction: its result and the components it touched. */
export type PageChange<T> = (
  tx: MetaAccess,
  page: StatusPageRecord,
) => Promise<{ result: T; componentIds: readonly string[] }>;

/**
 * THE seam of every write under a page: one transaction holding the page's row lock (so limits
 * and uniqueness checks hold), after which the state engine computes again the components the
 * change touched (sources or windows) and the page, and bumps its data_version (caches key on it).
 */
export async function changePage<T>({
  ctx,
  orgId,
  pageId,
  change,
}: PageRef & { change: PageChange<T> }): Promise<T> {
  await requireOrg({ ctx, orgId, access: "manage" });
  return ctx.deps.meta.transaction(async (tx) => {
    if (!(await tx.repos.statusPages.lock(pageId))) throw new NotFoundError("Status page", pageId);
    const page = await pageOf(tx, orgId, pageId);
    const { result, componentIds } = await change(tx, page);
    await ctx.deps.statusPages.pageChanged(tx, page.id, componentIds);
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
async function configOf(meta: MetaAccess, page: StatusPageRecord): Promise<StatusPageConfigView> {
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
  await requireOrg({ ctx, orgId, access: "read" });
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
  await requireOrg({ ctx, orgId, access: "manage" });
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

export async function getPage({ ctx, ...ref }: PageRef): Promise<StatusPageConfigView> {
  return configOf(ctx.deps.meta, await findPage({ ctx, ...ref, access: "read" }));
}

/** Changes any of the page's fields; an omitted field keeps its value. */
export async function updatePage({
  ctx,
  input,
  ...ref
}: PageRef & { input: unknown }): Promise<StatusPageConfigView> {
  const patch = parseInput(UpdateStatusPageInput, input);
  await changePage({
    ctx,
    ...ref,
    change: async (tx, page) => {
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
    },
  });
  return getPage({ ctx, ...ref });
}

/** Deletes the page with its groups, components, windows and history. */
export async function deletePage({ ctx, orgId, pageId }: PageRef): Promise<void> {
  await requireOrg({ ctx, orgId, access: "manage" });
  await ctx.deps.meta.transaction(async (tx) => {
    const page = await pageOf(tx, orgId, pageId);
    await tx.repos.statusPages.delete(page.id);
  });
}
