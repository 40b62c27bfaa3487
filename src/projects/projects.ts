import type { Ctx } from "../context.js";
import { nowIso } from "../context.js";
import type { MemberRole } from "../contracts/auth.js";
import { CreateProjectInput } from "../contracts/projects.js";
import { ForbiddenError, InvalidInputError, NotFoundError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import type { Organization } from "../meta/repositories/organizations.js";
import type { Project } from "../meta/repositories/projects.js";

// Who may do what to an organization's projects: the access levels every verb asks for.
/** Member roles allowed to manage an organization's projects and API keys. */
export const MANAGING_ROLES: readonly MemberRole[] = ["owner", "admin"];

/** Member roles allowed to change a project's data (resolve errors, edit monitors): all but viewer. */
export const WRITING_ROLES: readonly MemberRole[] = ["owner", "admin", "member"];

export type { Project };

/** What a verb does with a project: read it, change its data (all but viewers), or manage it. */
export type ProjectAccess = "read" | "write" | "manage";
/** What a verb does with an organization: read its resources, or manage them. */
export type OrgAccess = "read" | "manage";

/**
 * Loads a project the actor may use. Projects outside the actor's organizations are reported as
 * not found, so their existence does not leak; `write` (triaging its data) needs a role above
 * viewer, `manage` an owner or admin role. API keys only read.
 */
export async function requireProject({
  ctx,
  projectId,
  access,
}: {
  ctx: Ctx;
  projectId: string;
  access: ProjectAccess;
}): Promise<Project> {
  const project = await ctx.deps.meta.repos.projects.findById(projectId);
  const { actor } = ctx;
  if (!project) throw new NotFoundError("Project", projectId);
  if (actor.kind === "system") return project;
  if (actor.kind === "api_key") {
    if (actor.projectId !== project.id || access !== "read")
      throw new NotFoundError("Project", projectId);
    return project;
  }
  const membership = actor.memberships.find((m) => m.orgId === project.orgId);
  if (!membership) throw new NotFoundError("Project", projectId);
  if (access === "manage" && !MANAGING_ROLES.includes(membership.role)) {
    throw new ForbiddenError(`Your role '${membership.role}' cannot manage this project`);
  }
  if (access === "write" && !WRITING_ROLES.includes(membership.role)) {
    throw new ForbiddenError(`Your role '${membership.role}' can only view this project`);
  }
  return project;
}

/**
 * Loads an organization the signed-in user belongs to, for org-wide resources (status pages).
 * Outsiders get not found, so its existence does not leak; `read` is any member role, `manage`
 * an owner or admin. API keys belong to one project, never to an organization's management.
 */
export async function requireOrg({
  ctx,
  orgId,
  access,
}: {
  ctx: Ctx;
  orgId: string;
  access: OrgAccess;
}): Promise<Organization> {
  const { actor } = ctx;
  if (actor.kind === "api_key")
    throw new ForbiddenError("API keys cannot use organization resources");
  const membership =
    actor.kind === "user" ? actor.memberships.find((m) => m.orgId === orgId) : undefined;
  if (actor.kind === "user" && !membership) throw new NotFoundError("Organization", orgId);
  const org = await ctx.deps.meta.repos.organizations.findById(orgId);
  if (!org) throw new NotFoundError("Organization", orgId);
  if (membership && access === "manage" && !MANAGING_ROLES.includes(membership.role))
    throw new ForbiddenError(`Your role '${membership.role}' cannot manage this organization`);
  return org;
}

/** The projects the actor can see: a user's organizations' projects, or every project for the operator (CLI). */
export async function listProjects({ ctx }: { ctx: Ctx }): Promise<Project[]> {
  const { actor } = ctx;
  const { repos } = ctx.deps.meta;
  if (actor.kind === "system")
    return repos.projects.listByOrgs((await repos.organizations.list()).map((o) => o.id));
  if (actor.kind !== "user") throw new ForbiddenError("Listing projects needs a user session");
  return repos.projects.listByOrgs(actor.memberships.map((m) => m.orgId));
}

export async function createProject({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: CreateProjectInput;
}): Promise<Project> {
  const { name, orgId } = parseInput(CreateProjectInput, input);
  const { actor } = ctx;
  let targetOrg: string;
  if (actor.kind === "system") {
    if (!orgId) throw InvalidInputError.forField("orgId", "is required");
    if (!(await ctx.deps.meta.repos.organizations.findById(orgId)))
      throw new NotFoundError("Organization", orgId);
    targetOrg = orgId;
  } else if (actor.kind === "user") {
    const candidates = orgId
      ? actor.memberships.filter((m) => m.orgId === orgId)
      : actor.memberships;
    const membership = candidates[0];
    if (!membership) throw new NotFoundError("Organization", orgId ?? "(none)");
    if (candidates.length > 1)
      throw InvalidInputError.forField("orgId", "you belong to several organizations; name one");
    if (!MANAGING_ROLES.includes(membership.role)) {
      throw new ForbiddenError(`Your role '${membership.role}' cannot create projects`);
    }
    targetOrg = membership.orgId;
  } else {
    throw new ForbiddenError("API keys cannot create projects");
  }
  return ctx.deps.meta.run((repos) =>
    repos.projects.insert({
      id: ctx.deps.newId("prj"),
      orgId: targetOrg,
      name,
      createdAt: nowIso(ctx.deps),
    }),
  );
}
