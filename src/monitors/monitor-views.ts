import type { NotificationDeliveryView } from "../contracts/channels.js";
import type { CheckResultView, MonitorIncidentView, MonitorView } from "../contracts/monitors.js";
import type { IncidentEventRecord, IncidentRecord } from "../meta/repositories/incidents.js";
import type {
  MonitorResultRecord,
  MonitorResultSummary,
} from "../meta/repositories/monitor-results.js";
import type { MonitorRecord } from "../meta/repositories/monitors.js";
import type { StepResult } from "./check-result.js";
import type { MonitorDefinition } from "./definition.js";

// The API's views of a monitor, a check and an outage (contracts/monitors.ts), from the records.

export function toMonitorView(
  record: MonitorRecord,
  lastResult: MonitorResultSummary | undefined,
): MonitorView {
  const definition = record.definition as MonitorDefinition;
  return {
    id: record.id,
    projectId: record.projectId,
    name: record.name,
    type: definition.type,
    frequency: definition.frequency,
    timeoutSeconds: definition.timeoutSeconds,
    locations: definition.locations,
    alertAfter: definition.alertAfter,
    channelIds: record.channelIds,
    steps: definition.steps,
    status: record.status,
    health: record.health,
    failureStreak: record.failureStreak,
    lastCheckedAt: record.lastCheckedAt,
    lastResultId: record.lastResultId,
    lastResult:
      lastResult && lastResult.id === record.lastResultId
        ? {
            id: lastResult.id,
            startedAt: lastResult.startedAt,
            durationMs: lastResult.durationMs,
            passed: lastResult.passed,
          }
        : null,
    openIncidentId: record.openIncidentId,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

export function toCheckResultView(record: MonitorResultRecord): CheckResultView {
  const detail = record.detail as { traceId: string; steps: StepResult[] };
  return {
    id: record.id,
    monitorId: record.monitorId,
    trigger: record.trigger,
    startedAt: record.startedAt,
    durationMs: record.durationMs,
    passed: record.passed,
    traceId: detail.traceId,
    steps: detail.steps,
  };
}

const resultIdOf = (event: IncidentEventRecord | undefined): string | null =>
  typeof event?.data.resultId === "string" ? event.data.resultId : null;

/**
 * A monitor's outage as the monitor API has always shown it, from the incident and its
 * `monitor_down` / `monitor_recovered` timeline entries (which carry the check ids).
 */
export function toIncidentView(
  record: IncidentRecord,
  timeline: readonly IncidentEventRecord[],
  notifications: NotificationDeliveryView[],
): MonitorIncidentView {
  const down = timeline.find((e) => e.type === "monitor_down");
  const recovered = timeline.findLast((e) => e.type === "monitor_recovered");
  return {
    id: record.id,
    monitorId: record.sourceId ?? "",
    status: record.status,
    startedAt: record.startedAt,
    resolvedAt: record.resolvedAt,
    durationMs: record.durationMs,
    cause: record.cause ?? "",
    openedByResultId: resultIdOf(down) ?? "",
    closedByResultId: record.status === "resolved" ? resultIdOf(recovered) : null,
    notifications,
  };
}
