import type { CheckTrigger } from "../contracts/monitor-catalog.js";
import { startEscalation } from "../escalation/escalation-start.js";
import type { DomainEvent } from "../events/event-bus.js";
import { mintAcknowledgeLinks } from "../incidents/ack-links.js";
import {
  appendIncidentEvent,
  openSourceIncident,
  resolveSourceIncident,
} from "../incidents/source-incidents.js";
import type { AppUrl } from "../lib/app-url.js";
import type { Clock } from "../lib/clock.js";
import type { IdGenerator } from "../lib/ids.js";
import { LeaseLostError } from "../lib/leased-scheduler.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { IncidentRecord } from "../meta/repositories/incidents.js";
import type { MonitorResultRecord } from "../meta/repositories/monitor-results.js";
import type { LockedMonitor } from "../meta/repositories/monitors.js";
import type { LeaseFence } from "../meta/repositories/work-leases.js";
import type { MonitorEvent, MonitorNotification } from "../notifications/notification-payloads.js";
import type { StatusPageSignals } from "../status-pages/signals.js";
import type { WebhookService } from "../webhooks/webhook-service.js";
import type { CheckResult, StepResult } from "./check-result.js";
import { type MonitorDefinition, storedDefinition } from "./definition.js";
import { targetOf } from "./kinds/registry.js";
import { applyCheck, type Transition } from "./state-machine.js";

// Recording one check (the engine, engine.ts, runs it and calls recordCheck): the result, the
// state machine, the outage's incident and what it notifies, in one transaction.

export type { CheckTrigger };

/** A check as recorded: the stored result, and what it did to the monitor. */
export interface RecordedCheck {
  id: string;
  monitorId: string;
  /** The monitor as it was when the check was recorded (its metrics carry these). */
  monitor: { projectId: string; name: string; type: MonitorDefinition["type"]; location: string };
  trigger: CheckTrigger;
  result: CheckResult;
  record: MonitorResultRecord;
  transition: Transition;
  /** Notifications queued for the monitor's channels (0 without a transition or channels). */
  notifications: number;
  /** incident.* events enqueued for webhook endpoints. */
  webhooks: number;
}

/** What recording a check writes with. */
export interface CheckRecordingDeps {
  meta: MetaAccess;
  clock: Clock;
  newId: IdGenerator;
  /** Where incident.created / incident.resolved are enqueued, in the check's transaction. */
  webhooks?: Pick<WebhookService, "enqueueIn" | "kick"> | undefined;
  /** Status pages count the check in their history and follow the monitor's outages. */
  statusPages?: StatusPageSignals | undefined;
  /** The app's public address: monitor.down carries a one-click acknowledge link per channel. */
  appUrl?: Pick<AppUrl, "link"> | undefined;
}

/** The first failure of a result, as one line: the incident's cause and the alert's reason. */
export function describeFailure(result: CheckResult): {
  step: StepResult | undefined;
  reason: string;
} {
  const step = result.steps.find((s) => s.status === "failed");
  if (!step) return { step, reason: "the check failed" };
  if (step.transportError) return { step, reason: step.transportError.message };
  const failed = step.assertions.find((a) => !a.passed);
  const reason = failed
    ? `${failed.type}${failed.target ? ` ${failed.target}` : ""} ${failed.operator} ${JSON.stringify(failed.expected)}: ${failed.message}`
    : "the step failed";
  return { step, reason };
}

/** A check to record: its result, and what its record is fenced and guarded by. */
export interface RecordCheckInput {
  monitorId: string;
  result: CheckResult;
  trigger: CheckTrigger;
  fence: LeaseFence | undefined;
  /**
   * Runs in the transaction after the monitor's row lock, with the monitor as it is then;
   * false records nothing (undefined). A heartbeat's ping or missed deadline moves its deadline
   * here, fenced by the deadline it saw (heartbeat-watcher.ts).
   */
  guard?: ((tx: MetaAccess, current: LockedMonitor) => Promise<boolean>) | undefined;
}

/**
 * Records a check in one transaction: the result, the state machine's step, the outage's incident,
 * the status pages' signals, the channels' notifications and the incident.* webhooks. Undefined
 * when the monitor was deleted meanwhile; LeaseLostError when the fence no longer holds.
 */
export async function recordCheck(
  deps: CheckRecordingDeps,
  check: RecordCheckInput,
): Promise<RecordedCheck | undefined> {
  const id = deps.newId("run");
  return deps.meta.transaction((tx) => recordIn(tx, deps, check, id));
}

/** recordCheck's transaction (made once, not per record: docs/monitors.md, "Hot functions"). */
async function recordIn(
  tx: MetaAccess,
  deps: CheckRecordingDeps,
  check: RecordCheckInput,
  id: string,
): Promise<RecordedCheck | undefined> {
  const { monitorId, result, trigger, fence } = check;
  // The row is locked (PostgreSQL) and re-read in one statement: a run on another node, a
  // resume or an edit may have moved the state since the check started; a deleted monitor
  // records nothing.
  const current = await tx.repos.monitors.lockForCheck(monitorId);
  if (!current) return undefined;
  // Fenced: a worker whose lease moved on records nothing (the new holder runs the slot).
  if (fence && !(await tx.repos.workLeases.advance(fence))) throw new LeaseLostError(fence);
  if (check.guard && !(await check.guard(tx, current))) return undefined;
  // The definition as it is now: an edit during the check (alertAfter, name) applies.
  const definition = storedDefinition(current.definition);
  const { next, transition } = applyCheck(current, result.passed, definition.alertAfter);
  const record: MonitorResultRecord = {
    id,
    monitorId,
    startedAt: result.startedAt,
    durationMs: result.durationMs,
    passed: result.passed,
    trigger,
    detail: { traceId: result.traceId, steps: result.steps },
  };
  await tx.repos.monitorResults.insert(record);
  const { incident, openIncidentId, events } = await recordOutage(tx, deps, current, {
    transition,
    resultId: id,
    result,
  });
  await tx.repos.monitors.updateState(monitorId, {
    ...next,
    lastCheckedAt: result.startedAt,
    lastResultId: id,
    openIncidentId,
  });
  // The state first, the day's count after: the lock order of every status page writer.
  if (transition !== "none")
    await deps.statusPages?.sourcesChanged(tx, [{ kind: "monitor", id: monitorId }]);
  // A monitor no component takes its state from (read with its lock) is counted by no page.
  if (current.feedsStatusPage)
    await deps.statusPages?.checkRecorded(tx, {
      monitorId,
      passed: result.passed,
      at: result.startedAt,
    });
  const notify = incident ? await tx.repos.monitors.channelsOf(monitorId) : [];
  if (incident && notify.length > 0)
    await queueNotifications(tx, deps, {
      event: transition === "recovered" ? "monitor.recovered" : "monitor.down",
      monitor: current,
      channelIds: notify,
      definition,
      incident,
      resultId: id,
      result,
    });
  if (events.length > 0) await deps.webhooks?.enqueueIn(tx, events);
  return {
    id,
    monitorId,
    monitor: {
      projectId: current.projectId,
      name: current.name,
      type: definition.type,
      location: definition.locations[0],
    },
    trigger,
    result,
    record,
    transition,
    notifications: notify.length,
    webhooks: events.length,
  };
}

/**
 * Opens the outage's incident (source monitor) or resolves it. A recovery after someone
 * resolved the incident by hand still ends the outage on its timeline and notifies recovery.
 */
async function recordOutage(
  tx: MetaAccess,
  deps: CheckRecordingDeps,
  monitor: LockedMonitor,
  check: { transition: Transition; resultId: string; result: CheckResult },
): Promise<{
  incident: IncidentRecord | undefined;
  openIncidentId: string | null;
  events: DomainEvent[];
}> {
  const { transition, resultId, result } = check;
  const at = result.startedAt;
  if (transition === "outage_started") {
    const cause = describeFailure(result).reason;
    const opened = await openSourceIncident(tx, deps, {
      projectId: monitor.projectId,
      source: "monitor",
      sourceId: monitor.id,
      title: `${monitor.name} is down`,
      severity: "high",
      cause,
      at,
      event: { type: "monitor_down", message: cause, data: { resultId } },
    });
    // A new outage starts the monitor's escalation policy: its monitor.down, step by step.
    if (opened.created) {
      const definition = storedDefinition(monitor.definition);
      await startEscalation(tx, {
        incident: opened.incident,
        policyId: definition.escalationPolicyId ?? null,
        notification: notificationOf({
          event: "monitor.down",
          ...{ monitor, definition, incident: opened.incident, resultId, result },
        }),
        now: deps.clock.now().toISOString(),
      });
    }
    return {
      incident: opened.incident,
      openIncidentId: opened.incident.id,
      events: opened.events,
    };
  }
  if (transition !== "recovered")
    return { incident: undefined, openIncidentId: monitor.openIncidentId, events: [] };
  const event = { type: "monitor_recovered" as const, data: { resultId } };
  const resolved = await resolveSourceIncident(tx, deps, {
    source: "monitor",
    sourceId: monitor.id,
    at,
    event,
  });
  if (resolved)
    return { incident: resolved.incident, openIncidentId: null, events: resolved.events };
  const closed = monitor.openIncidentId
    ? await tx.repos.incidents.findById(monitor.openIncidentId)
    : undefined;
  if (closed)
    await appendIncidentEvent(tx, deps, closed.id, {
      ...event,
      at,
      actor: { kind: "monitor", id: monitor.id },
    });
  return { incident: closed, openIncidentId: null, events: [] };
}

/** Queues the monitor's notification for each of its channels and notes it on the incident's timeline. */
async function queueNotifications(
  tx: MetaAccess,
  deps: CheckRecordingDeps,
  outage: {
    event: MonitorEvent;
    monitor: LockedMonitor;
    /** The channels notified (at least one). */
    channelIds: string[];
    definition: MonitorDefinition;
    incident: IncidentRecord;
    resultId: string;
    result: CheckResult;
  },
): Promise<void> {
  const { event, monitor, channelIds, incident, result } = outage;
  const notification = notificationOf(outage);
  const now = deps.clock.now().toISOString();
  // A problem carries a one-click acknowledge link, one per channel (the click names it).
  const links =
    event === "monitor.down" && deps.appUrl
      ? await mintAcknowledgeLinks({
          tx,
          deps: { clock: deps.clock, appUrl: deps.appUrl },
          incidentId: incident.id,
          channelIds,
        })
      : new Map<string, string>();
  await tx.repos.notificationDeliveries.insertMany(
    channelIds.map((channelId) => {
      const acknowledgeUrl = links.get(channelId);
      return {
        id: deps.newId("ntf"),
        projectId: monitor.projectId,
        channelId,
        monitorId: monitor.id,
        incidentId: incident.id,
        event,
        payload: acknowledgeUrl ? { ...notification, acknowledgeUrl } : notification,
        createdAt: now,
      };
    }),
  );
  await appendIncidentEvent(tx, deps, incident.id, {
    type: "notified",
    at: result.startedAt,
    actor: { kind: "monitor", id: monitor.id },
    message: `${event} queued for ${channelIds.length} channel(s)`,
    data: { event, channelIds },
  });
}

function notificationOf({
  event,
  monitor,
  definition,
  incident,
  resultId,
  result,
}: {
  event: MonitorEvent;
  monitor: LockedMonitor;
  definition: MonitorDefinition;
  incident: IncidentRecord;
  resultId: string;
  result: CheckResult;
}): MonitorNotification {
  const failure = event === "monitor.down" ? describeFailure(result) : undefined;
  return {
    event,
    projectId: monitor.projectId,
    monitor: {
      id: monitor.id,
      name: monitor.name,
      type: definition.type,
      // The target line: the URL of an HTTP monitor, tcp://host:port, dns A example.com, …
      url: targetOf(definition),
    },
    incident: {
      id: incident.id,
      startedAt: incident.startedAt,
      resolvedAt: incident.resolvedAt,
      durationMs: incident.durationMs,
    },
    check: {
      resultId,
      startedAt: result.startedAt,
      failedStep: failure?.step?.name ?? null,
      reason: failure?.reason ?? null,
      statusCode: failure?.step?.statusCode ?? null,
    },
  };
}
