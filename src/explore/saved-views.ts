import type { Ctx } from "../context.js";
import { nowIso } from "../context.js";
import {
  CreateSavedViewInput,
  projectUrlPrefix,
  type SavedView,
  type SavedViewKind,
  SavedViewListQuery,
  UpdateSavedViewInput,
} from "../contracts/saved-views.js";
import { ConflictError, InvalidInputError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import type { Repositories } from "../meta/meta-store.js";
import type { SavedViewRecord } from "../meta/repositories/saved-views.js";
import { findInProject } from "../projects/project-records.js";
import { requireProject } from "../projects/projects.js";

type ProjectArgs = { ctx: Ctx; projectId: string };
type SavedViewArgs = ProjectArgs & { savedViewId: string };

const toView = (record: SavedViewRecord): SavedView => ({
  ...record,
  kind: record.kind as SavedViewKind,
});

const requireSavedView = (repos: Repositories, projectId: string, savedViewId: string) =>
  findInProject(repos.savedViews, projectId, "Saved view", savedViewId);

/** 409 naming `name`: another view of the kind has it (`self` is the one being renamed). */
function nameTaken(kind: string, name: string): ConflictError {
  const message = `a ${kind} view named '${name}' already exists in this project`;
  return new ConflictError(`A${message.slice(1)}`, [{ field: "name", message }]);
}

async function requireFreeName(
  repos: Repositories,
  projectId: string,
  kind: string,
  name: string,
  self?: string,
): Promise<void> {
  const clash = await repos.savedViews.findByName(projectId, kind, name);
  if (clash && clash.id !== self) throw nameTaken(kind, name);
}

/** A saved view opens in its own project only: its url lies under the project's path. */
function requireProjectUrl(projectId: string, url: string): void {
  const prefix = projectUrlPrefix(projectId);
  if (!url.startsWith(prefix))
    throw InvalidInputError.forField("url", `must be a path of this project, under ${prefix}`);
}

/** A write that lost a race for its name to another (the store's unique key) names `name` too. */
async function namedConflict<T>(kind: string, name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw error instanceof ConflictError ? nameTaken(kind, name) : error;
  }
}

/** A project's saved views by name, of one kind when asked (any member, viewers included). */
export async function listSavedViews({
  ctx,
  projectId,
  query,
}: ProjectArgs & { query: unknown }): Promise<SavedView[]> {
  await requireProject({ ctx, projectId, access: "read" });
  const { kind } = parseInput(SavedViewListQuery, query);
  const views = await ctx.deps.meta.repos.savedViews.listByProject(projectId, kind);
  return views
    .sort(
      (a, b) =>
        a.kind.localeCompare(b.kind) ||
        a.name.localeCompare(b.name, "en", { sensitivity: "base" }) ||
        a.id.localeCompare(b.id),
    )
    .map(toView);
}

export async function getSavedView({
  ctx,
  projectId,
  savedViewId,
}: SavedViewArgs): Promise<SavedView> {
  await requireProject({ ctx, projectId, access: "read" });
  return toView(await requireSavedView(ctx.deps.meta.repos, projectId, savedViewId));
}

/** Saves an explorer's location under a name unique among the project's views of its kind. */
export async function createSavedView({
  ctx,
  projectId,
  input,
}: ProjectArgs & { input: unknown }): Promise<SavedView> {
  await requireProject({ ctx, projectId, access: "write" });
  const { name, kind, url } = parseInput(CreateSavedViewInput, input);
  requireProjectUrl(projectId, url);
  await requireFreeName(ctx.deps.meta.repos, projectId, kind, name);
  const at = nowIso(ctx.deps);
  const record = await namedConflict(kind, name, () =>
    ctx.deps.meta.run((repos) =>
      repos.savedViews.insert({
        id: ctx.deps.newId("svw"),
        projectId,
        kind,
        name,
        url,
        createdBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
        createdAt: at,
        updatedAt: at,
      }),
    ),
  );
  return toView(record);
}

/** Renames a saved view or replaces its location (members and above). */
export async function updateSavedView({
  ctx,
  projectId,
  savedViewId,
  input,
}: SavedViewArgs & { input: unknown }): Promise<SavedView> {
  await requireProject({ ctx, projectId, access: "write" });
  const change = parseInput(UpdateSavedViewInput, input);
  const { repos } = ctx.deps.meta;
  const existing = await requireSavedView(repos, projectId, savedViewId);
  if (change.url !== undefined) requireProjectUrl(projectId, change.url);
  const name = change.name ?? existing.name;
  if (name !== existing.name)
    await requireFreeName(repos, projectId, existing.kind, name, existing.id);
  const next = { name, url: change.url ?? existing.url, updatedAt: nowIso(ctx.deps) };
  await namedConflict(existing.kind, name, () =>
    ctx.deps.meta.run((r) => r.savedViews.update(existing.id, next)),
  );
  return toView({ ...existing, ...next });
}

/** Deletes a saved view (members and above). */
export async function deleteSavedView({
  ctx,
  projectId,
  savedViewId,
}: SavedViewArgs): Promise<void> {
  await requireProject({ ctx, projectId, access: "write" });
  const { repos } = ctx.deps.meta;
  const view = await requireSavedView(repos, projectId, savedViewId);
  await repos.savedViews.delete(view.id);
}
