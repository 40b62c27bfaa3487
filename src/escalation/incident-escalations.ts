import type { Ctx } from "../context.js";
import type { IncidentEscalationView } from "../contracts/escalation.js";
import { NotFoundError } from "../lib/domain-errors.js";
import type { IncidentEscalationRecord } from "../meta/repositories/incident-escalations.js";
import { findInProject } from "../projects/project-records.js";
import { requireProject } from "../projects/projects.js";

/** An escalation as the API shows it: steps sent, the next one and when. */
export function toIncidentEscalationView(record: IncidentEscalationRecord): IncidentEscalationView {
  const steps = record.policy.steps.length;
  const rounds = record.policy.repeat + 1;
  const active = record.status === "active";
  return {
    incidentId: record.incidentId,
    policyId: record.policyId,
    policyName: record.policy.name,
    status: record.status,
    stopReason: record.stopReason,
    // A completed escalation keeps the last step it sent; the others the next one to send.
    stepsSent:
      record.status === "completed" ? steps * rounds : (record.round - 1) * steps + record.step,
    nextStep: active ? record.step + 1 : null,
    steps,
    round: record.round,
    rounds,
    nextAt: active ? record.nextAt : null,
  };
}

/** The escalation of a project's incident (404 when the incident has none). */
export async function getIncidentEscalation({
  ctx,
  projectId,
  incidentId,
}: {
  ctx: Ctx;
  projectId: string;
  incidentId: string;
}): Promise<IncidentEscalationView> {
  await requireProject({ ctx, projectId, access: "read" });
  const { repos } = ctx.deps.meta;
  await findInProject(repos.incidents, projectId, "Incident", incidentId);
  const record = await repos.incidentEscalations.findByIncident(incidentId);
  if (!record) throw new NotFoundError("Escalation of incident", incidentId);
  return toIncidentEscalationView(record);
}
