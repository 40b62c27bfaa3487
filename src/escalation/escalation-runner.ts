import { mintAcknowledgeLinks } from "../incidents/ack-links.js";
import { appendIncidentEvents, escalationStoppedEntry } from "../incidents/incident-lifecycle.js";
import type { AppUrl } from "../lib/app-url.js";
import type { Clock } from "../lib/clock.js";
import type { IdGenerator } from "../lib/ids.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type {
  EscalationChange,
  IncidentEscalationRecord,
} from "../meta/repositories/incident-escalations.js";
import { isAcknowledged } from "../meta/repositories/incidents.js";
import type { EscalationStep, Notification } from "../notifications/notification-payloads.js";
import { dueAfter } from "./escalation-start.js";

// The escalation worker's one pass (docs/escalation.md): stop the escalations whose incident
// was acknowledged or resolved (those transactions stop them themselves; this catches any
// other writer), then send each due step to its channels through the
// notification outbox and move to the next step, round or the end. Every write is fenced by the
// row's version, so several workers never send one step twice.

export interface EscalationRunDeps {
  meta: MetaAccess;
  clock: Clock;
  newId: IdGenerator;
  /** Where each step's one-click acknowledge links point (VIGIL_PUBLIC_URL, else the server). */
  appUrl: Pick<AppUrl, "link">;
  /** How long a claim keeps other workers off a due escalation (default 60 s). */
  claimMs?: number | undefined;
  /** Escalations handled per pass, of each kind (default 100). */
  batch?: number | undefined;
}

/** What one pass did. */
export interface EscalationPass {
  /** Steps sent (their deliveries queued). */
  steps: number;
  deliveries: number;
  stopped: number;
  completed: number;
  /** Claimed rows another worker wrote first (nothing written here). */
  lost: number;
}

const DEFAULT_CLAIM_MS = 60_000;
const DEFAULT_BATCH = 100;

const SYSTEM = { kind: "system" as const, id: null };

/** One pass: stops first (so a step due at the same time is not sent), then the due steps. */
export async function runEscalations(deps: EscalationRunDeps): Promise<EscalationPass> {
  const pass: EscalationPass = { steps: 0, deliveries: 0, stopped: 0, completed: 0, lost: 0 };
  const batch = deps.batch ?? DEFAULT_BATCH;
  for (const { escalation, reason } of await deps.meta.repos.incidentEscalations.listStoppable(
    batch,
  )) {
    const stopped = await deps.meta.transaction((tx) => stop(tx, deps, escalation, reason));
    if (stopped) pass.stopped += 1;
  }
  const now = deps.clock.now();
  const claimed = await deps.meta.repos.incidentEscalations.claimDue(
    now.toISOString(),
    batch,
    new Date(now.getTime() + (deps.claimMs ?? DEFAULT_CLAIM_MS)).toISOString(),
  );
  for (const escalation of claimed) {
    const outcome = await deps.meta.transaction((tx) => sendStep(tx, deps, escalation));
    if (outcome.kind === "lost") pass.lost += 1;
    else if (outcome.kind === "stopped") pass.stopped += 1;
    else {
      pass.steps += 1;
      pass.deliveries += outcome.deliveries;
      if (outcome.completed) pass.completed += 1;
    }
  }
  return pass;
}

/** Stops an escalation for good and says so on the incident's timeline; false when fenced out. */
async function stop(
  tx: MetaAccess,
  deps: EscalationRunDeps,
  escalation: IncidentEscalationRecord,
  reason: "acknowledged" | "resolved",
): Promise<boolean> {
  const at = deps.clock.now().toISOString();
  const change: EscalationChange = {
    status: "stopped",
    stopReason: reason,
    step: escalation.step,
    round: escalation.round,
    nextAt: null,
    updatedAt: at,
  };
  if (
    !(await tx.repos.incidentEscalations.advance(escalation.incidentId, escalation.version, change))
  )
    return false;
  await appendIncidentEvents(tx, deps, escalation.incidentId, [
    escalationStoppedEntry(escalation, reason, at),
  ]);
  return true;
}

/** Whether the alert rule that opened an incident is muted at `at` (a muted rule notifies no one). */
async function ruleMuted(tx: MetaAccess, ruleId: string | null, at: string): Promise<boolean> {
  const rule = ruleId ? await tx.repos.alertRules.findById(ruleId) : undefined;
  if (!rule?.muted) return false;
  return rule.mutedUntil === null || rule.mutedUntil > at;
}

/** Whether the monitor that opened an incident is paused (a paused monitor notifies no one). */
async function monitorPaused(tx: MetaAccess, monitorId: string | null): Promise<boolean> {
  const monitor = monitorId ? await tx.repos.monitors.findById(monitorId) : undefined;
  return monitor?.status === "paused";
}

/** Why a step goes by unsent: its alert rule is muted or its monitor paused; null otherwise. */
async function silencedBy(
  tx: MetaAccess,
  incident: { source: string; sourceId: string | null },
  at: string,
): Promise<string | null> {
  if (incident.source === "alert" && (await ruleMuted(tx, incident.sourceId, at)))
    return "the alert rule is muted";
  if (incident.source === "monitor" && (await monitorPaused(tx, incident.sourceId)))
    return "the monitor is paused";
  return null;
}

/** Where the escalation goes after sending step `step` of round `round`. */
export function nextPosition(
  escalation: Pick<IncidentEscalationRecord, "policy" | "step" | "round">,
  sentAt: string,
): Pick<EscalationChange, "status" | "step" | "round" | "nextAt"> {
  const { steps, repeat } = escalation.policy;
  let step = escalation.step + 1;
  let round = escalation.round;
  if (step >= steps.length) {
    step = 0;
    round += 1;
  }
  const next = steps[step];
  if (round > repeat + 1 || !next)
    return { status: "completed", step: escalation.step, round: escalation.round, nextAt: null };
  return { status: "active", step, round, nextAt: dueAfter(sentAt, next.delayMinutes) };
}

type StepOutcome =
  | { kind: "lost" }
  | { kind: "stopped" }
  | { kind: "sent"; deliveries: number; completed: boolean };

/**
 * Sends a claimed escalation's due step: the fenced advance first (on PostgreSQL it locks the
 * row), then one delivery per step channel still in the project, and the timeline entry.
 */
async function sendStep(
  tx: MetaAccess,
  deps: EscalationRunDeps,
  escalation: IncidentEscalationRecord,
): Promise<StepOutcome> {
  const incident = await tx.repos.incidents.findById(escalation.incidentId);
  if (!incident) return { kind: "lost" };
  if (incident.status === "resolved" || isAcknowledged(incident)) {
    const reason = isAcknowledged(incident) ? "acknowledged" : "resolved";
    return (await stop(tx, deps, escalation, reason)) ? { kind: "stopped" } : { kind: "lost" };
  }
  const { policy } = escalation;
  const step = policy.steps[escalation.step];
  const at = deps.clock.now().toISOString();
  const position = nextPosition(escalation, at);
  const change: EscalationChange = { ...position, stopReason: null, updatedAt: at };
  if (!(await tx.repos.incidentEscalations.advance(incident.id, escalation.version, change)))
    return { kind: "lost" };
  const known = new Set(
    (await tx.repos.notificationChannels.listByProject(incident.projectId)).map((c) => c.id),
  );
  // A muted alert rule or a paused monitor notifies no one: its steps go by unsent (and the
  // timeline says why), the escalation still moving on.
  const silenced = await silencedBy(tx, incident, at);
  const channelIds = silenced ? [] : (step?.channelIds ?? []).filter((id) => known.has(id));
  const where: EscalationStep = {
    policyId: escalation.policyId,
    policyName: policy.name,
    step: escalation.step + 1,
    steps: policy.steps.length,
    round: escalation.round,
    rounds: policy.repeat + 1,
  };
  const problem = escalation.payload as Notification;
  // One link per channel, so the timeline names whose click acknowledged.
  const links = await mintAcknowledgeLinks({ tx, deps, incidentId: incident.id, channelIds });
  const deliveries = [];
  for (const channelId of channelIds) {
    const acknowledgeUrl = links.get(channelId);
    const payload: Notification = {
      ...problem,
      escalation: where,
      ...(acknowledgeUrl ? { acknowledgeUrl } : {}),
    };
    deliveries.push({
      id: deps.newId("ntf"),
      projectId: incident.projectId,
      channelId,
      monitorId: incident.source === "monitor" ? incident.sourceId : null,
      ruleId: incident.source === "alert" ? incident.sourceId : null,
      incidentId: incident.id,
      event: problem.event,
      payload,
      createdAt: at,
    });
  }
  await tx.repos.notificationDeliveries.insertMany(deliveries);
  const missing = (step?.channelIds.length ?? 0) - channelIds.length;
  const which =
    `step ${where.step} of ${where.steps}` +
    (where.rounds > 1 ? ` (round ${where.round} of ${where.rounds})` : "") +
    ` — ${policy.name}`;
  await appendIncidentEvents(tx, deps, incident.id, [
    {
      type: "escalated",
      at,
      actor: SYSTEM,
      message: silenced
        ? `escalation ${which} not sent: ${silenced}`
        : `escalated to ${which}: ${problem.event} queued for ${channelIds.length} channel(s)` +
          (missing > 0 ? `; ${missing} deleted channel(s) skipped` : ""),
      data: {
        ...where,
        channelIds,
        ...(silenced === null
          ? {}
          : incident.source === "alert"
            ? { muted: true }
            : { paused: true }),
      },
    },
  ]);
  return { kind: "sent", deliveries: deliveries.length, completed: change.status === "completed" };
}
