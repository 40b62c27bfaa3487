import type { Ctx } from "../context.js";
import { nowIso } from "../context.js";
import {
  CreateSavedQueryInput,
  type SavedQueryView,
  UpdateSavedQueryInput,
} from "../contracts/tql.js";
import { parseInput } from "../lib/validation.js";
import type { Repositories } from "../meta/meta-store.js";
import type { SavedQueryRecord } from "../meta/repositories/saved-queries.js";
import { findInProject, requireFreeName } from "../projects/project-records.js";
import { requireProject } from "../projects/projects.js";

type ProjectArgs = { ctx: Ctx; projectId: string };
type SavedQueryArgs = ProjectArgs & { savedQueryId: string };

const toView = (record: SavedQueryRecord): SavedQueryView => ({ ...record });

/** The project's saved query; one of another project is reported as not found. */
const requireSavedQuery = (repos: Repositories, projectId: string, savedQueryId: string) =>
  findInProject(repos.savedQueries, projectId, "Saved query", savedQueryId);

/** A project's saved queries by name (any member, viewers included). */
export async function listSavedQueries({ ctx, projectId }: ProjectArgs): Promise<SavedQueryView[]> {
  await requireProject({ ctx, projectId, access: "read" });
  const saved = await ctx.deps.meta.repos.savedQueries.listByProject(projectId);
  return saved
    .sort(
      (a, b) =>
        a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || a.id.localeCompare(b.id),
    )
    .map(toView);
}

export async function getSavedQuery({
  ctx,
  projectId,
  savedQueryId,
}: SavedQueryArgs): Promise<SavedQueryView> {
  await requireProject({ ctx, projectId, access: "read" });
  return toView(await requireSavedQuery(ctx.deps.meta.repos, projectId, savedQueryId));
}

/** Saves a query under a name unique in the project (members and above). */
export async function createSavedQuery({
  ctx,
  projectId,
  input,
}: ProjectArgs & { input: CreateSavedQueryInput }): Promise<SavedQueryView> {
  await requireProject({ ctx, projectId, access: "write" });
  const { name, query, description } = parseInput(CreateSavedQueryInput, input);
  await requireFreeName(ctx.deps.meta.repos.savedQueries, projectId, "a saved query", name);
  const at = nowIso(ctx.deps);
  const record = await ctx.deps.meta.run((repos) =>
    repos.savedQueries.insert({
      id: ctx.deps.newId("sqr"),
      projectId,
      name,
      description,
      query,
      createdBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
      createdAt: at,
      updatedAt: at,
    }),
  );
  return toView(record);
}

/** Renames a saved query or replaces its text or description (members and above). */
export async function updateSavedQuery({
  ctx,
  projectId,
  savedQueryId,
  input,
}: SavedQueryArgs & { input: UpdateSavedQueryInput }): Promise<SavedQueryView> {
  await requireProject({ ctx, projectId, access: "write" });
  const change = parseInput(UpdateSavedQueryInput, input);
  const { repos } = ctx.deps.meta;
  const existing = await requireSavedQuery(repos, projectId, savedQueryId);
  const name = change.name ?? existing.name;
  if (name !== existing.name)
    await requireFreeName(repos.savedQueries, projectId, "a saved query", name, existing.id);
  const next = {
    name,
    query: change.query ?? existing.query,
    description: change.description ?? existing.description,
    updatedAt: nowIso(ctx.deps),
  };
  await ctx.deps.meta.run((r) => r.savedQueries.update(existing.id, next));
  return toView({ ...existing, ...next });
}

/** Deletes a saved query (members and above). */
export async function deleteSavedQuery({
  ctx,
  projectId,
  savedQueryId,
}: SavedQueryArgs): Promise<void> {
  await requireProject({ ctx, projectId, access: "write" });
  const { repos } = ctx.deps.meta;
  const saved = await requireSavedQuery(repos, projectId, savedQueryId);
  await repos.savedQueries.delete(saved.id);
}
