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
 * The escalation policy an incident's source names now (its monitor's or alert rule's
 * `escalationPolicyId`); null for a manual incident, a source without one, or one gone.
 */
export async function sourcePolicyId(
  tx: MetaAccess,
  incident: { source: string; sourceId: string | null },
): Promise<string | null> {
  const { source, sourceId } = incident;
  if (sourceId === null) return null;
  const owner =
    source === "monitor"
      ? await tx.repos.monitors.findById(sourceId)
      : source === "alert"
        ? await tx.repos.alertRules.findById(sourceId)
        : undefined;
  const id = (owner?.definition as { escalationPolicyId?: unknown } | undefined)
    ?.escalationPolicyId;
  return typeof id === "string" && id.length > 0 ? id : null;
}

/**
 * Starts the escalation of a newly opened incident under `policyId`, inside the caller's
 * transaction: a copy of the policy, the problem notification its steps resend, and the first
 * step due its delay after the incident opened. With `restartAt` (a reopen), the incident's
 * previous escalation is replaced: from step 1 of round 1 again, the first step due its delay
 * after `restartAt`. False when there is no policy, or it is gone.
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
    /** A reopen's time (ISO): restart the incident's escalation from step 1 then. */
    restartAt?: string | undefined;
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
    nextAt: dueAfter(input.restartAt ?? incident.startedAt, first.delayMinutes),
    claimedUntil: null,
    version: 0,
    createdAt: now,
    updatedAt: now,
  };
  if (input.restartAt !== undefined && (await tx.repos.incidentEscalations.restart(record)))
    return true;
  await tx.repos.incidentEscalations.insert(record);
  return true;
}

/**
 * Restarts a reopened incident's escalation from step 1 (`startEscalation` with `restartAt`),
 * under the policy its source names now and with the problem notification its escalation
 * kept; undefined when it never escalated or its source has no policy (any more).
 */
export async function restartEscalation(
  tx: MetaAccess,
  incident: {
    id: string;
    projectId: string;
    startedAt: string;
    source: string;
    sourceId: string | null;
  },
  at: string,
): Promise<{ policyId: string; policyName: string } | undefined> {
  const previous = await tx.repos.incidentEscalations.findByIncident(incident.id);
  const policyId = previous && (await sourcePolicyId(tx, incident));
  if (!previous || !policyId) return undefined;
  const notification = previous.payload as Notification;
  if (!(await startEscalation(tx, { incident, policyId, notification, now: at, restartAt: at })))
    return undefined;
  const now = await tx.repos.incidentEscalations.findByIncident(incident.id);
  return now && { policyId: now.policyId, policyName: now.policy.name };
}
