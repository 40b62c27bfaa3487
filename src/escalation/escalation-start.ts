import type { MetaAccess } from "../meta/meta-store.js";
import type { IncidentEscalationRecord } from "../meta/repositories/incident-escalations.js";
import type { Notification } from "../notifications/notification-payloads.js";

// An incident opened by a monitor or an alert rule with an escalation policy starts its
// escalation in the same transaction (docs/escalation.md); the worker (escalation-runner.ts)
// sends its steps.

const MINUTE_MS = 60_000;

/** When a step waiting `delayMinutes` after `from` (ISO) is due. */
export const dueAfter = (from: string, delayMinutes: number): string =>
  new Date(Date.parse(from) + delayMinutes * MINUTE_MS).toISOString();

/**
 * Starts the escalation of a newly opened incident under `policyId`, inside the caller's
 * transaction: a copy of the policy, the problem notification its steps resend, and the first
 * step due its delay after the incident opened. False when there is no policy, or it is gone.
 */
export async function startEscalation(
  tx: MetaAccess,
  input: {
    incident: { id: string; projectId: string; startedAt: string };
    policyId: string | null;
    /** The incident's problem notification (monitor.down, alert.fired), without extras. */
    notification: Notification;
    /** Now (ISO): when the escalation starts. */
    now: string;
  },
): Promise<boolean> {
  const { incident, policyId } = input;
  if (!policyId) return false;
  const policy = await tx.repos.escalationPolicies.findById(policyId);
  if (!policy || policy.projectId !== incident.projectId) return false;
  const first = policy.steps[0];
  if (!first) return false;
  const { acknowledgeUrl: _, escalation: __, ...payload } = input.notification;
  const { now } = input;
  const record: IncidentEscalationRecord = {
    incidentId: incident.id,
    projectId: incident.projectId,
    policyId: policy.id,
    policy: { name: policy.name, steps: policy.steps, repeat: policy.repeat },
    payload,
    status: "active",
    stopReason: null,
    step: 0,
    round: 1,
    nextAt: dueAfter(incident.startedAt, first.delayMinutes),
    claimedUntil: null,
    version: 0,
    createdAt: now,
    updatedAt: now,
  };
  await tx.repos.incidentEscalations.insert(record);
  return true;
}
