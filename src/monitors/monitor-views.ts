import type { Ctx } from "../context.js";
import type { NotificationDeliveryView } from "../contracts/channels.js";
import type { CheckResultView, MonitorIncidentView, MonitorView } from "../contracts/monitors.js";
import { NotFoundError } from "../lib/domain-errors.js";
import type { IncidentEventRecord, IncidentRecord } from "../meta/repositories/incidents.js";
import type {
  MonitorResultRecord,
  MonitorResultSummary,
} from "../meta/repositories/monitor-results.js";
import type { MonitorRecord } from "../meta/repositories/monitors.js";
import type { StepResult } from "./check-result.js";
import { type MonitorDefinition, storedDefinition } from "./definition.js";
import { kindOf, type MonitorKind, targetOf } from "./kinds/registry.js";

// The API's views of a monitor, a check and an outage (contracts/monitors.ts), from the records.

/** The fields of a definition's own kind, named as in the input. */
function kindFields(definition: MonitorDefinition): Partial<MonitorView> {
  switch (definition.type) {
    case "api":
    case "flow":
      return {};
    case "tcp": {
      const { host, port, send, expect } = definition;
      return {
        host,
        port,
        ...(send === undefined ? {} : { send }),
        ...(expect === undefined ? {} : { expect }),
      };
    }
    case "dns": {
      const { domain, recordType, resolver, assertions } = definition;
      return { domain, recordType, assertions, ...(resolver === undefined ? {} : { resolver }) };
    }
    case "tls": {
      const { host, port, servername, minDaysLeft, ca } = definition;
      return {
        host,
        port,
        minDaysLeft,
        ...(servername === undefined ? {} : { servername }),
        ...(ca === undefined ? {} : { ca }),
      };
    }
    case "heartbeat":
      return { period: definition.period, grace: definition.grace, lastPingAt: null };
  }
}

/** A monitor as the API shows it; `extra` holds what its kind adds (a heartbeat's ping URL). */
export function toMonitorView(
  record: MonitorRecord,
  lastResult: MonitorResultSummary | undefined,
  extra: Partial<MonitorView> = {},
): MonitorView {
  const definition = storedDefinition(record.definition);
  return {
    id: record.id,
    projectId: record.projectId,
    name: record.name,
    type: definition.type,
    target: targetOf(definition),
    frequency: definition.type === "heartbeat" ? null : definition.frequency,
    timeoutSeconds: definition.timeoutSeconds,
    locations: definition.locations,
    alertAfter: definition.alertAfter,
    channelIds: record.channelIds,
    escalationPolicyId: definition.escalationPolicyId ?? null,
    steps: definition.type === "api" || definition.type === "flow" ? definition.steps : [],
    ...kindFields(definition),
    ...extra,
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

/** The fields each kind adds to its monitors' views (a heartbeat's ping URL), by monitor id. */
async function kindViewFields(
  ctx: Ctx,
  records: readonly MonitorRecord[],
): Promise<Map<string, Partial<MonitorView>>> {
  const byKind = new Map<MonitorKind, MonitorRecord[]>();
  for (const record of records) {
    const kind = kindOf(storedDefinition(record.definition));
    if (kind.viewFields) byKind.set(kind, [...(byKind.get(kind) ?? []), record]);
  }
  const fields = new Map<string, Partial<MonitorView>>();
  for (const [kind, list] of byKind)
    for (const [id, extra] of (await kind.viewFields?.(ctx, list)) ?? []) fields.set(id, extra);
  return fields;
}

/** Monitors as the API shows them, each with its last check (read in one query). */
export async function viewsOf(ctx: Ctx, records: readonly MonitorRecord[]): Promise<MonitorView[]> {
  const ids = records.flatMap((r) => (r.lastResultId ? [r.lastResultId] : []));
  const [summaries, extras] = await Promise.all([
    ctx.deps.meta.repos.monitorResults.summariesByIds(ids),
    kindViewFields(ctx, records),
  ]);
  const last = new Map(summaries.map((r) => [r.id, r]));
  return records.map((r) =>
    toMonitorView(r, r.lastResultId ? last.get(r.lastResultId) : undefined, extras.get(r.id)),
  );
}

export const viewOf = async (ctx: Ctx, record: MonitorRecord): Promise<MonitorView> => {
  const [view] = await viewsOf(ctx, [record]);
  if (!view) throw new NotFoundError("Monitor", record.id);
  return view;
};
