import { z } from "zod";
import type { IncidentEventRecord, IncidentRecord } from "../meta/repositories/incidents.js";
import type {
  MonitorResultRecord,
  MonitorResultSummary,
} from "../meta/repositories/monitor-results.js";
import type { MonitorRecord } from "../meta/repositories/monitors.js";
import { DeliveryView } from "../notifications/channels.js";
import { ASSERTION_TYPE_NAMES, OPERATORS } from "./assertions/registry.js";
import {
  Assertion,
  FREQUENCY_NAMES,
  MONITOR_TYPES,
  type MonitorDefinition,
  Step,
} from "./definition.js";
import { STEP_STATUSES, type StepResult } from "./check-result.js";

/** A stored step: the request schema with its defaults applied, every step named and asserted. */
const StepView = Step.extend({ name: z.string(), assertions: z.array(Assertion) });

/** A monitor as the API shows it: its definition and where its state machine stands. */
export const MonitorView = z
  .object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    type: z.enum(MONITOR_TYPES),
    frequency: z.enum(FREQUENCY_NAMES),
    timeoutSeconds: z.number().int(),
    locations: z.array(z.literal("default")),
    alertAfter: z.number().int(),
    channelIds: z.array(z.string()),
    steps: z.array(StepView),
    status: z.enum(["active", "paused"]).describe("paused: no scheduled checks"),
    health: z
      .enum(["pending", "passing", "outage"])
      .describe("pending: never checked; outage: failures reached alertAfter"),
    failureStreak: z.number().int().describe("Consecutive failed checks"),
    lastCheckedAt: z.string().nullable(),
    lastResultId: z.string().nullable(),
    lastResult: z
      .object({
        id: z.string(),
        startedAt: z.string(),
        durationMs: z.number().describe("Total of all steps"),
        passed: z.boolean(),
      })
      .nullable()
      .describe("The last check, without its steps (GET …/results/:resultId has them)"),
    openIncidentId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Monitor" });
export type MonitorView = z.infer<typeof MonitorView>;

const AssertionResultView = z.object({
  type: z.enum(ASSERTION_TYPE_NAMES),
  operator: z.enum(OPERATORS),
  target: z.string().optional().describe("The JSON path or header name"),
  expected: z.string(),
  actual: z
    .string()
    .nullable()
    .describe("null when the path did not resolve or the header is absent"),
  passed: z.boolean(),
  message: z.string(),
});

const StepResultView = z.object({
  name: z.string(),
  status: z.enum(STEP_STATUSES),
  method: z.string(),
  url: z.string().describe("As sent, after {{name}} substitution"),
  statusCode: z.number().int().nullable(),
  durationMs: z
    .number()
    .nullable()
    .describe("This request's time; its response_time assertions see it"),
  transportError: z
    .object({ code: z.string(), message: z.string() })
    .nullable()
    .describe("Set when the request failed; then no assertion was evaluated"),
  assertions: z.array(AssertionResultView),
  extracted: z.record(z.string(), z.string()),
  responseBody: z.string().nullable().describe("Only for a failed step, truncated"),
  responseBodyTruncated: z.boolean(),
});

/** One check: every step with its assertions, the verdict, and the total time across steps. */
export const CheckResultView = z
  .object({
    id: z.string(),
    monitorId: z.string(),
    trigger: z.enum(["scheduled", "manual"]),
    startedAt: z.string(),
    durationMs: z.number().describe("Total of all steps (the timeline figure)"),
    passed: z.boolean(),
    traceId: z.string().describe("Sent in every request's traceparent header"),
    steps: z.array(StepResultView),
  })
  .meta({ id: "MonitorCheckResult" });
export type CheckResultView = z.infer<typeof CheckResultView>;

export const MonitorIncidentView = z
  .object({
    id: z.string(),
    monitorId: z.string(),
    status: z.enum(["active", "resolved"]),
    startedAt: z.string(),
    resolvedAt: z
      .string()
      .nullable()
      .describe("When the outage ended (the recovering check); the name /v1/incidents uses"),
    durationMs: z.number().int().nullable(),
    cause: z.string().describe("The first failure of the check that opened the outage"),
    openedByResultId: z.string(),
    closedByResultId: z.string().nullable(),
    notifications: z.array(DeliveryView).describe("Alert and recovery deliveries per channel"),
  })
  .meta({ id: "MonitorIncident" });
export type MonitorIncidentView = z.infer<typeof MonitorIncidentView>;

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
  notifications: DeliveryView[],
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
