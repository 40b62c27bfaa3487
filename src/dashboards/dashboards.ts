import type { Ctx } from "../context.js";
import { nowIso } from "../context.js";
import {
  DashboardBody,
  type DashboardSummary,
  type DashboardView,
  DuplicateDashboardInput,
  StarDashboardInput,
  UpdateDashboardInput,
} from "../contracts/dashboards.js";
import { ConflictError, ForbiddenError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import type { DashboardRecord } from "../meta/repositories/dashboards.js";
import { findInProject } from "../projects/project-records.js";
import { requireProject } from "../projects/projects.js";
import {
  bodyOf,
  changeOf,
  requireDocumentSize,
  toDashboardSummary,
  toDashboardView,
  withIds,
} from "./dashboard-documents.js";

type ProjectArgs = { ctx: Ctx; projectId: string };
type DashboardArgs = ProjectArgs & { dashboardId: string };

/** How a list is narrowed and ordered (GET …/dashboards?q=&tag=&starred=&sort=). */
export interface DashboardListFilter {
  /** Words that must each appear in the title or a tag (any case). */
  q?: string;
  /** Only dashboards with this tag (any case). */
  tag?: string;
  /** Only the signed-in user's starred dashboards. */
  starred?: boolean;
  /** `starred` (the default): starred first, then by title; `title`; `updated`: newest first. */
  sort?: "starred" | "title" | "updated";
}

/** The project's dashboard; one of another project is reported as not found. */
export const requireDashboard = (ctx: Ctx, projectId: string, dashboardId: string) =>
  findInProject(ctx.deps.meta.repos.dashboards, projectId, "Dashboard", dashboardId);

const userOf = (ctx: Ctx) => (ctx.actor.kind === "user" ? ctx.actor.userId : undefined);

/** Whether the signed-in user starred it; API keys and the system have no stars. */
async function starredBy(ctx: Ctx, dashboardId: string): Promise<boolean> {
  const userId = userOf(ctx);
  return userId ? ctx.deps.meta.repos.dashboards.isStarred(userId, dashboardId) : false;
}

const byTitle = (a: DashboardSummary, b: DashboardSummary) =>
  a.title.localeCompare(b.title, "en", { sensitivity: "base" }) || a.id.localeCompare(b.id);

const SORTS: Record<
  NonNullable<DashboardListFilter["sort"]>,
  (a: DashboardSummary, b: DashboardSummary) => number
> = {
  starred: (a, b) => Number(b.starred) - Number(a.starred) || byTitle(a, b),
  title: byTitle,
  updated: (a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id),
};

function matches(summary: DashboardSummary, filter: DashboardListFilter): boolean {
  const tags = summary.tags.map((t) => t.toLowerCase());
  if (filter.tag && !tags.includes(filter.tag.toLowerCase())) return false;
  if (filter.starred && !summary.starred) return false;
  const words = (filter.q ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = [summary.title.toLowerCase(), ...tags];
  return words.every((word) => haystack.some((text) => text.includes(word)));
}

/** A project's dashboards without their panels (any member, viewers included). */
export async function listDashboards({
  ctx,
  projectId,
  filter = {},
}: ProjectArgs & { filter?: DashboardListFilter }): Promise<DashboardSummary[]> {
  await requireProject({ ctx, projectId, access: "read" });
  const { repos } = ctx.deps.meta;
  const userId = userOf(ctx);
  const [records, starred] = await Promise.all([
    repos.dashboards.listByProject(projectId),
    userId ? repos.dashboards.starredIn(userId, projectId) : new Set<string>(),
  ]);
  return records
    .map((record) => toDashboardSummary(record, starred.has(record.id)))
    .filter((summary) => matches(summary, filter))
    .sort(SORTS[filter.sort ?? "starred"]);
}

export async function getDashboard({
  ctx,
  projectId,
  dashboardId,
}: DashboardArgs): Promise<DashboardView> {
  await requireProject({ ctx, projectId, access: "read" });
  const record = await requireDashboard(ctx, projectId, dashboardId);
  return toDashboardView(record, await starredBy(ctx, record.id));
}

/**
 * Creates a dashboard from a body (members and above); panels and rows without an id get one.
 * `templateId` is not part of the API's input: the template installer names the template it
 * installed (src/dashboards/dashboard-templates.ts) with a body built from it.
 */
export async function createDashboard({
  ctx,
  projectId,
  input,
  templateId = null,
}: ProjectArgs & { input: unknown; templateId?: string | null }): Promise<DashboardView> {
  await requireProject({ ctx, projectId, access: "write" });
  const body = withIds(parseInput(DashboardBody, input), ctx.deps.newId);
  requireDocumentSize(body);
  const at = nowIso(ctx.deps);
  const record: DashboardRecord = {
    id: ctx.deps.newId("dsh"),
    projectId,
    ...changeOf(body, at),
    version: 1,
    templateId,
    createdBy: userOf(ctx) ?? null,
    createdAt: at,
  };
  await ctx.deps.meta.run((repos) => repos.dashboards.insert(record));
  return toDashboardView(record, false);
}

const staleVersion = (current: number) =>
  new ConflictError(
    `The dashboard was saved by someone else since it was read (it is at version ${current} now); reload it and make the change again`,
    [{ field: "version", message: `is not the current version (${current})` }],
  );

/**
 * Saves a change made on `version` (members and above): the fields given replace the stored ones,
 * the version goes up by one. A change made on another version is a 409; the store matches the
 * version in the same statement that writes, so of two saves made on one version one wins.
 */
export async function updateDashboard({
  ctx,
  projectId,
  dashboardId,
  input,
}: DashboardArgs & { input: unknown }): Promise<DashboardView> {
  await requireProject({ ctx, projectId, access: "write" });
  const { version, ...change } = parseInput(UpdateDashboardInput, input);
  const existing = await requireDashboard(ctx, projectId, dashboardId);
  if (version !== existing.version) throw staleVersion(existing.version);
  const defined = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
  const body = withIds({ ...bodyOf(existing), ...defined }, ctx.deps.newId);
  requireDocumentSize(body);
  const next = changeOf(body, nowIso(ctx.deps));
  const saved = await ctx.deps.meta.run((repos) =>
    repos.dashboards.update(existing.id, version, next),
  );
  if (!saved) {
    const current = await requireDashboard(ctx, projectId, dashboardId);
    throw staleVersion(current.version);
  }
  const record = { ...existing, ...next, version: version + 1 };
  return toDashboardView(record, await starredBy(ctx, existing.id));
}

/** Deletes a dashboard and its stars (members and above). */
export async function deleteDashboard({ ctx, projectId, dashboardId }: DashboardArgs) {
  await requireProject({ ctx, projectId, access: "write" });
  const record = await requireDashboard(ctx, projectId, dashboardId);
  await ctx.deps.meta.run((repos) => repos.dashboards.delete(record.id));
}

/** A copy under a new id and title ("<title> (copy)" unless named), at version 1. */
export async function duplicateDashboard({
  ctx,
  projectId,
  dashboardId,
  input,
}: DashboardArgs & { input: unknown }): Promise<DashboardView> {
  await requireProject({ ctx, projectId, access: "write" });
  const { title } = parseInput(DuplicateDashboardInput, input ?? {});
  const source = bodyOf(await requireDashboard(ctx, projectId, dashboardId));
  const copyTitle = title ?? `${source.title.slice(0, 193)} (copy)`;
  return createDashboard({ ctx, projectId, input: { ...source, title: copyTitle } });
}

/** Stars or unstars a dashboard for the signed-in user (viewers too: stars are one's own). */
export async function starDashboard({
  ctx,
  projectId,
  dashboardId,
  input,
}: DashboardArgs & { input: unknown }): Promise<StarDashboardInput> {
  await requireProject({ ctx, projectId, access: "read" });
  const { starred } = parseInput(StarDashboardInput, input);
  const userId = userOf(ctx);
  if (!userId) throw new ForbiddenError("Stars belong to a signed-in user");
  const record = await requireDashboard(ctx, projectId, dashboardId);
  await ctx.deps.meta.run((repos) =>
    repos.dashboards.setStar(userId, record.id, starred, nowIso(ctx.deps)),
  );
  return { starred };
}
