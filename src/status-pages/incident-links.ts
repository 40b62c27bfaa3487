import { type FieldIssue, InvalidInputError } from "../lib/errors.js";
import type { MetaAccess } from "../meta/meta-store.js";

/** How many components one incident may name. */
export const MAX_INCIDENT_COMPONENTS = 100;

/**
 * Links an incident to components of its organization's status pages, replacing its links, so
 * an incident opened by hand shows on them. Each id that is not a component of the organization
 * is a 400 naming it (`componentIds.1`), the same whether it exists elsewhere or not. Returns the
 * components it was linked to before, whose state may move too.
 */
export async function linkIncidentComponents(
  tx: MetaAccess,
  link: { projectId: string; incidentId: string; componentIds: readonly string[] },
): Promise<string[]> {
  const { statusPageState, projects } = tx.repos;
  const project = await projects.findById(link.projectId);
  const ids = [...new Set(link.componentIds)];
  const known = project ? await statusPageState.orgComponentIds(project.orgId, ids) : new Set();
  const issues: FieldIssue[] = [];
  for (const [i, id] of link.componentIds.entries())
    if (!known.has(id))
      issues.push({
        field: `componentIds.${i}`,
        message: `no status page component '${id}' in this organization`,
      });
  if (issues.length > 0)
    throw new InvalidInputError(issues.map((i) => `${i.field}: ${i.message}`).join("; "), issues);
  const before = await statusPageState.linkedComponents(link.incidentId);
  await statusPageState.linkIncident(link.incidentId, ids);
  return before;
}
