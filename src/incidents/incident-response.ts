import { nowIso } from "../context.js";
import type { IncidentDetailView } from "../contracts/incidents.js";
import { AcknowledgeIncidentInput, AssignIncidentInput } from "../contracts/incidents.js";
import { ConflictError, InvalidInputError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import type { MetaAccess } from "../meta/meta-store.js";
import { type IncidentAcknowledger, isAcknowledged } from "../meta/repositories/incidents.js";
import { requireProject } from "../projects/projects.js";
import { appendIncidentEvents, stopEscalationIn } from "./incident-lifecycle.js";
import { incidentAcknowledgedEvent, incidentAssignedEvent } from "./incident-webhook-events.js";
import { actorOf, changeIncident, handActor, type IncidentRef } from "./incidents.js";

// Responding to an incident from the dashboard and the API (docs/incidents.md "Acknowledge,
// assign, severity"): acknowledge (once; escalation stops) and assign to a member of the
// project's organization. Each is a timeline entry and a webhook event. Acknowledging from a
// notification's one-click link is ack-link-verbs.ts; a severity change is updateIncident.

/**
 * Acknowledges an active incident: who and when are kept, a timeline entry (with the optional
 * note) and `incident.acknowledged` are written. Idempotent: acknowledging an acknowledged
 * incident answers it as it is (200, the first acknowledger kept, nothing written). A resolved
 * incident is 409.
 */
export async function acknowledgeIncident(
  ref: IncidentRef & { input: unknown },
): Promise<IncidentDetailView> {
  const { message } = parseInput(AcknowledgeIncidentInput, ref.input ?? {});
  return changeIncident(ref, async (tx, incident) => {
    if (isAcknowledged(incident)) return { incident, events: [] };
    if (incident.status !== "active")
      throw new ConflictError(
        `Incident '${incident.id}' is resolved; there is nothing to acknowledge`,
      );
    const at = nowIso(ref.ctx.deps);
    const actor = actorOf(ref.ctx);
    const by: IncidentAcknowledger = {
      kind: actor.kind === "user" ? "user" : "system",
      id: actor.id,
      label: await userLabel(tx, actor.id),
    };
    if (!(await tx.repos.incidents.acknowledge(incident.id, { at, by }))) {
      // Acknowledged (or resolved) a moment ago by someone else: answer it as it is now.
      const now = await tx.repos.incidents.findById(incident.id);
      if (now?.status === "resolved" && !isAcknowledged(now))
        throw new ConflictError(
          `Incident '${incident.id}' is resolved; there is nothing to acknowledge`,
        );
      return { incident: now ?? incident, events: [] };
    }
    await appendIncidentEvents(tx, ref.ctx.deps, incident.id, [
      { type: "acknowledged", at, actor, message: message ?? null, data: { via: "app" } },
    ]);
    await stopEscalationIn(tx, ref.ctx.deps, incident.id, "acknowledged", at);
    const acknowledged = { ...incident, acknowledgedAt: at, acknowledgedBy: by, updatedAt: at };
    return {
      incident: acknowledged,
      events: [incidentAcknowledgedEvent(acknowledged, { at, by })],
    };
  });
}

/**
 * Assigns an incident to a member of the project's organization (any role), or unassigns it
 * with null. Someone who is not a member is a 400 naming `assigneeId`. Assigning the current
 * assignee again changes nothing and writes nothing.
 */
export async function assignIncident(
  ref: IncidentRef & { input: unknown },
): Promise<IncidentDetailView> {
  const { assigneeId } = parseInput(AssignIncidentInput, ref.input);
  const project = await requireProject({ ctx: ref.ctx, projectId: ref.projectId, access: "write" });
  const { users } = ref.ctx.deps.meta.repos;
  const assignee = assigneeId === null ? null : await users.findById(assigneeId);
  if (assigneeId !== null) {
    const member =
      assignee !== undefined &&
      (await users.listMemberships(assigneeId)).some((m) => m.orgId === project.orgId);
    if (!member || !assignee)
      throw InvalidInputError.forField(
        "assigneeId",
        "is not a member of the project's organization",
      );
  }
  return changeIncident(ref, async (tx, incident) => {
    if (incident.assigneeId === assigneeId) return { incident, events: [] };
    const at = nowIso(ref.ctx.deps);
    const actor = actorOf(ref.ctx);
    await tx.repos.incidents.assign(incident.id, assigneeId, at);
    const view = assignee ? { id: assignee.id, name: assignee.name, email: assignee.email } : null;
    await appendIncidentEvents(tx, ref.ctx.deps, incident.id, [
      {
        type: "assigned",
        at,
        actor,
        message: view ? `Assigned to ${view.name}` : "Unassigned",
        data: {
          from: incident.assigneeId,
          to: assigneeId,
          ...(view ? { toName: view.name } : {}),
        },
      },
    ]);
    const assigned = { ...incident, assigneeId, updatedAt: at };
    return {
      incident: assigned,
      events: [
        incidentAssignedEvent(assigned, {
          at,
          assignee: view,
          previousAssigneeId: incident.assigneeId,
          actor: handActor(actor),
        }),
      ],
    };
  });
}

/** A user's name as the acknowledger's label; null for the operator. */
async function userLabel(tx: MetaAccess, userId: string | null): Promise<string | null> {
  if (userId === null) return null;
  return (await tx.repos.users.findById(userId))?.name ?? null;
}
