import type { Logger } from "pino";
import type { DomainEvent } from "../events/event-bus.js";
import {
  appendIncidentEvent,
  openSourceIncident,
  resolveSourceIncident,
} from "../incidents/source-incidents.js";
import type { Clock } from "../lib/clock.js";
import { redactUrl } from "../lib/http/redact-url.js";
import type { IdGenerator } from "../lib/ids.js";
import { LeaseLostError } from "../lib/leased-scheduler.js";
import type { Metrics } from "../lib/metrics.js";
import { SerialByKey } from "../lib/serial-by-key.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { IncidentRecord } from "../meta/repositories/incidents.js";
import type { MonitorResultRecord } from "../meta/repositories/monitor-results.js";
import type { MonitorRecord } from "../meta/repositories/monitors.js";
import type { LeaseFence } from "../meta/repositories/work-leases.js";
import type { MonitorEvent, MonitorNotification } from "../notifications/notification-payloads.js";
import type { StatusPageSignals } from "../status-pages/signals.js";
import type { WebhookService } from "../webhooks/webhook-service.js";
import type { CheckResult, StepResult } from "./check-result.js";
import type { MonitorDefinition } from "./definition.js";
import { applyCheck, type Transition } from "./state-machine.js";

export type CheckTrigger = "scheduled" | "manual";

/** A check as recorded: the stored result, and what it did to the monitor. */
export interface RecordedCheck {
  id: string;
  monitorId: string;
  trigger: CheckTrigger;
  result: CheckResult;
  record: MonitorResultRecord;
  transition: Transition;
  /** Notifications queued for the monitor's channels (0 without a transition or channels). */
  notifications: number;
  /** incident.* events enqueued for webhook endpoints. */
  webhooks: number;
}

export interface MonitorEngineDeps {
  meta: MetaAccess;
  clock: Clock;
  newId: IdGenerator;
  /** Executes a definition's requests (the undici runner); the signal aborts them at shutdown. */
  run(definition: MonitorDefinition, signal: AbortSignal): Promise<CheckResult>;
  /** Called after a check queued notifications, so the dispatcher sends them without waiting. */
  onNotificationsQueued?: () => void;
  /** Where incident.created / incident.resolved are enqueued, in the check's transaction. */
  webhooks?: Pick<WebhookService, "enqueueIn" | "kick"> | undefined;
  /** Status pages count the check in their history and follow the monitor's outages. */
  statusPages?: StatusPageSignals | undefined;
  logger: Logger;
  metrics?: Metrics;
}

/** Runs checks and records them: one result, the state machine, incidents and queued notifications. */
export interface MonitorEngine {
  /**
   * Runs one check of the monitor now and records it, after any run of the same monitor still in
   * flight (a monitor never overlaps itself). Undefined when the monitor no longer exists. With a
   * fence (a scheduled slot under a worker's lease) the record is written only while the lease
   * holds and the slot was not recorded yet; otherwise it rejects with LeaseLostError.
   */
  check(
    monitorId: string,
    trigger: CheckTrigger,
    fence?: LeaseFence,
  ): Promise<RecordedCheck | undefined>;
  isRunning(monitorId: string): boolean;
  /** Resolves when every check in flight has been recorded. */
  idle(): Promise<void>;
  /** Cancels the requests of every check in flight (shutdown); cancelled checks are not recorded. */
  abort(): void;
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

function firstUrl(definition: MonitorDefinition): string {
  return redactUrl(definition.steps[0]?.url ?? "");
}

export function createMonitorEngine(deps: MonitorEngineDeps): MonitorEngine {
  const running = new SerialByKey<RecordedCheck | undefined>();
  const shutdown = new AbortController();

  async function record(
    monitorId: string,
    result: CheckResult,
    trigger: CheckTrigger,
    fence: LeaseFence | undefined,
  ): Promise<RecordedCheck | undefined> {
    const id = deps.newId("run");
    return deps.meta.transaction(async (tx) => {
      // The row is locked (PostgreSQL) and re-read: a run on another node, a resume or an edit
      // may have moved the state since the check started; a deleted monitor records nothing.
      if (!(await tx.repos.monitors.lock(monitorId))) return undefined;
      // Fenced: a worker whose lease moved on records nothing (the new holder runs the slot).
      if (fence && !(await tx.repos.workLeases.advance(fence))) throw new LeaseLostError(fence);
      const current = await tx.repos.monitors.findById(monitorId);
      if (!current) return undefined;
      // The definition as it is now: an edit during the check (alertAfter, name) applies.
      const definition = current.definition as MonitorDefinition;
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
      const { incident, openIncidentId, events } = await recordOutage(tx, current, {
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
      await deps.statusPages?.checkRecorded(tx, {
        monitorId,
        passed: result.passed,
        at: result.startedAt,
      });
      const notify = incident ? current.channelIds : [];
      if (incident && notify.length > 0) {
        const event: MonitorEvent =
          transition === "recovered" ? "monitor.recovered" : "monitor.down";
        const notification = notificationOf(event, current, definition, incident, id, result);
        const now = deps.clock.now().toISOString();
        await tx.repos.notificationDeliveries.insertMany(
          notify.map((channelId) => ({
            id: deps.newId("ntf"),
            projectId: current.projectId,
            channelId,
            monitorId: current.id,
            incidentId: incident.id,
            event,
            payload: notification,
            createdAt: now,
          })),
        );
        await appendIncidentEvent(tx, deps, incident.id, {
          type: "notified",
          at: result.startedAt,
          actor: { kind: "monitor", id: current.id },
          message: `${event} queued for ${notify.length} channel(s)`,
          data: { event, channelIds: notify },
        });
      }
      if (events.length > 0) await deps.webhooks?.enqueueIn(tx, events);
      return {
        id,
        monitorId,
        trigger,
        result,
        record,
        transition,
        notifications: notify.length,
        webhooks: events.length,
      };
    });
  }

  /**
   * Opens the outage's incident (source monitor) or resolves it. A recovery after someone
   * resolved the incident by hand still ends the outage on its timeline and notifies recovery.
   */
  async function recordOutage(
    tx: MetaAccess,
    monitor: MonitorRecord,
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

  async function execute(monitorId: string, trigger: CheckTrigger, fence?: LeaseFence) {
    const monitor = await deps.meta.repos.monitors.findCheckable(monitorId);
    // A paused monitor is checked only on request (spec: pause stops checks).
    if (!monitor || (trigger === "scheduled" && monitor.status !== "active")) return undefined;
    const { signal } = shutdown;
    const result = await deps.run(monitor.definition as MonitorDefinition, signal);
    if (signal.aborted) return undefined;
    const recorded = await record(monitorId, result, trigger, fence);
    if (!recorded) return undefined;
    deps.metrics?.monitorChecks.inc({ trigger, outcome: result.passed ? "passed" : "failed" });
    if (recorded.transition !== "none") {
      deps.metrics?.monitorTransitions.inc({ kind: recorded.transition });
      deps.logger.info(
        { monitorId, transition: recorded.transition, resultId: recorded.id },
        recorded.transition === "recovered" ? "monitor recovered" : "monitor outage started",
      );
      if (recorded.notifications > 0) deps.onNotificationsQueued?.();
      if (recorded.webhooks > 0) deps.webhooks?.kick();
    }
    return recorded;
  }

  return {
    check: (monitorId, trigger, fence) =>
      running.run(monitorId, () => execute(monitorId, trigger, fence)),
    isRunning: (monitorId) => running.isRunning(monitorId),
    idle: () => running.idle(),
    abort: () => shutdown.abort(),
  };
}

function notificationOf(
  event: MonitorEvent,
  monitor: MonitorRecord,
  definition: MonitorDefinition,
  incident: IncidentRecord,
  resultId: string,
  result: CheckResult,
): MonitorNotification {
  const failure = event === "monitor.down" ? describeFailure(result) : undefined;
  return {
    event,
    projectId: monitor.projectId,
    monitor: {
      id: monitor.id,
      name: monitor.name,
      type: definition.type,
      url: firstUrl(definition),
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
