import type { Ctx } from "../context.js";
import { InvalidInputError, NotFoundError } from "../lib/domain-errors.js";
import { unknownIds } from "../lib/validation.js";
import type { MetaAccess } from "../meta/meta-store.js";
import { requireOrg } from "../projects/projects.js";

/**
 * Putting an incident on public pages is the pages' owners' and admins' call, as any other write
 * under a page: checked before the incident's transaction opens.
 */
export async function requireLinkAccess({
  ctx,
  projectId,
}: {
  ctx: Ctx;
  projectId: string;
}): Promise<void> {
  const project = await ctx.deps.meta.repos.projects.findById(projectId);
  if (!project) throw new NotFoundError("Project", projectId);
  await requireOrg({ ctx, orgId: project.orgId, access: "manage" });
}

/**
 * Links an incident to components of its organization's status pages, replacing its links, so
 * an incident opened by hand shows on them. Each id that is not a component of the organization
 * is a 400 naming it (`componentIds.1`), the same whether it exists elsewhere or not. Returns the
 * components it was linked to before, whose state may move too.
 */
export async function linkIncidentComponents({
  tx,
  ...link
}: {
  /** The incident's transaction. */
  tx: MetaAccess;
  projectId: string;
  incidentId: string;
  componentIds: readonly string[];
}): Promise<string[]> {
  const { statusPageIncidentLinks, projects } = tx.repos;
  const project = await projects.findById(link.projectId);
  const ids = [...new Set(link.componentIds)];
  const known = project
    ? await statusPageIncidentLinks.orgComponentIds(project.orgId, ids)
    : new Set<string>();
  const issues = unknownIds(
    "componentIds",
    link.componentIds,
    known,
    (id) => `no status page component '${id}' in this organization`,
  );
  if (issues.length > 0) throw InvalidInputError.forIssues(issues);
  const before = await statusPageIncidentLinks.linkedComponents(link.incidentId);
  await statusPageIncidentLinks.linkIncident(link.incidentId, ids);
  return before;
}
