import { z } from "zod";
import { type Ctx, type DomainDeps, nowIso } from "../context.js";
import { FREQUENCIES } from "../contracts/monitor-catalog.js";
import {
  type CheckResultView,
  CreateMonitorInput,
  type MonitorIncidentView,
  type MonitorView,
  type UpdateMonitorInput,
} from "../contracts/monitors.js";
import { type Page, pageInfo } from "../contracts/pagination.js";
import { type FieldIssue, InvalidInputError, NotFoundError } from "../lib/domain-errors.js";
import { privateTargetMessage, privateUrlHost } from "../lib/http/address-policy.js";
import type { LeasableEntry } from "../lib/leased-scheduler.js";
import { PageQuery, resolveWindow, WindowQuery } from "../lib/list-params.js";
import { parseInput } from "../lib/validation.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { MonitorRecord } from "../meta/repositories/monitors.js";
import { toDeliveryView } from "../notifications/channel-views.js";
import { requireProject } from "../projects/projects.js";
import type { StatusPageEngine } from "../status-pages/signals.js";
import { type MonitorDefinition, toDefinition } from "./definition.js";
import type { MonitorEngine } from "./engine.js";
import { toCheckResultView, toIncidentView, toMonitorView } from "./monitor-views.js";
import type { MonitorScheduler } from "./scheduler.js";

/** What the monitor verbs need besides the domain context. */
export interface MonitorDeps {
  engine: MonitorEngine;
  /** Absent when this process does not schedule checks (VIGIL_MONITORS_ENABLED=false). */
  scheduler?: MonitorScheduler | undefined;
  /** VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: off, a step aimed at a private host is refused. */
  allowPrivateTargets: boolean;
}

export const MonitorIdParam = z.string().min(1).max(64);

export const ListResultsQuery = PageQuery.extend(WindowQuery.shape)
  .extend({
    passed: z
      .enum(["true", "false"])
      .transform((v) => v === "true")
      .optional()
      .describe("Only passed (true) or only failed (false) checks"),
  })
  .strict();
export type ListResultsQuery = z.infer<typeof ListResultsQuery>;

/**
 * What the monitor commands need: the domain deps, the monitors' section and the status pages'
 * engine (a pause or a delete changes what pages show).
 */
export type MonitorCtx = Ctx<DomainDeps & { monitors: MonitorDeps; statusPages: StatusPageEngine }>;

/** One monitor of a project; reads need only the domain deps, commands a MonitorCtx. */
interface MonitorRef<C extends Ctx = Ctx> {
  ctx: C;
  projectId: string;
  monitorId: string;
}

const periodMs = (definition: MonitorDefinition) => FREQUENCIES[definition.frequency] * 1000;

/** Every active monitor with its period: what the scheduler loads at start. */
export async function listScheduleEntries(meta: MetaAccess): Promise<LeasableEntry[]> {
  return (await meta.repos.monitors.listActive()).map((m) => ({
    id: m.id,
    periodMs: periodMs(m.definition as MonitorDefinition),
    // Never checked: its first check comes at once, wherever it was created.
    fresh: m.lastCheckedAt === null,
  }));
}

async function findMonitor(
  { ctx, projectId, monitorId }: MonitorRef,
  access: "read" | "write",
): Promise<MonitorRecord> {
  await requireProject({ ctx, projectId, access });
  const monitor = await ctx.deps.meta.repos.monitors.findById(monitorId);
  if (!monitor || monitor.projectId !== projectId) throw new NotFoundError("Monitor", monitorId);
  return monitor;
}

/** Every channel must be one of this project's (spec: only channels already configured). */
async function requireChannels(meta: MetaAccess, projectId: string, channelIds: readonly string[]) {
  if (channelIds.length === 0) return;
  const known = new Set(
    (await meta.repos.notificationChannels.listByProject(projectId)).map((c) => c.id),
  );
  for (const [i, channelId] of channelIds.entries()) {
    if (!known.has(channelId))
      throw InvalidInputError.forField(
        `channelIds.${i}`,
        `no notification channel '${channelId}' in this project; create it under /channels first`,
      );
  }
}

/**
 * With the SSRF guard on, refuses steps whose URL is certainly private (an IP literal or a local
 * name). Other names, and hosts filled from earlier steps, are checked at each connection.
 */
function requirePublicTargets(deps: MonitorDeps, definition: MonitorDefinition): void {
  if (deps.allowPrivateTargets) return;
  const issues: FieldIssue[] = [];
  for (const [i, step] of definition.steps.entries()) {
    const host = privateUrlHost(step.url);
    if (host)
      issues.push({
        field: `steps.${i}.url`,
        message: privateTargetMessage(host, "VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS"),
      });
  }
  if (issues.length > 0) throw InvalidInputError.forIssues(issues);
}

/** Monitors as the API shows them, each with its last check (read in one query). */
async function viewsOf(ctx: Ctx, records: readonly MonitorRecord[]): Promise<MonitorView[]> {
  const ids = records.flatMap((r) => (r.lastResultId ? [r.lastResultId] : []));
  const last = new Map(
    (await ctx.deps.meta.repos.monitorResults.summariesByIds(ids)).map((r) => [r.id, r]),
  );
  return records.map((r) =>
    toMonitorView(r, r.lastResultId ? last.get(r.lastResultId) : undefined),
  );
}

const viewOf = async (ctx: Ctx, record: MonitorRecord): Promise<MonitorView> => {
  const { monitorResults } = ctx.deps.meta.repos;
  const [last] = record.lastResultId
    ? await monitorResults.summariesByIds([record.lastResultId])
    : [];
  return toMonitorView(record, last);
};

const withoutChannels = ({ channelIds: _, ...definition }: MonitorDefinition) => definition;

export async function createMonitor({
  ctx,
  projectId,
  input,
}: {
  ctx: MonitorCtx;
  projectId: string;
  input: CreateMonitorInput;
}): Promise<MonitorView> {
  const deps = ctx.deps.monitors;
  await requireProject({ ctx, projectId, access: "write" });
  const definition = toDefinition(parseInput(CreateMonitorInput, input));
  requirePublicTargets(deps, definition);
  const now = nowIso(ctx.deps);
  const record: MonitorRecord = {
    id: ctx.deps.newId("mon"),
    projectId,
    name: definition.name,
    status: "active",
    definition: withoutChannels(definition),
    channelIds: definition.channelIds,
    health: "pending",
    failureStreak: 0,
    lastCheckedAt: null,
    lastResultId: null,
    openIncidentId: null,
    createdBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.deps.meta.transaction(async (tx) => {
    await requireChannels(tx, projectId, definition.channelIds);
    await tx.repos.monitors.insert(record);
  });
  deps.scheduler?.schedule({ id: record.id, periodMs: periodMs(definition) }, { soon: true });
  return toMonitorView(record, undefined);
}

export async function listMonitors({
  ctx,
  projectId,
}: {
  ctx: Ctx;
  projectId: string;
}): Promise<MonitorView[]> {
  await requireProject({ ctx, projectId, access: "read" });
  return viewsOf(ctx, await ctx.deps.meta.repos.monitors.listByProject(projectId));
}

export async function getMonitor(ref: MonitorRef): Promise<MonitorView> {
  return viewOf(ref.ctx, await findMonitor(ref, "read"));
}

/** Changes any fields; the merged monitor is validated as a whole, and its state is kept. */
export async function updateMonitor(
  ref: MonitorRef<MonitorCtx> & { input: UpdateMonitorInput },
): Promise<MonitorView> {
  const { ctx } = ref;
  const deps = ctx.deps.monitors;
  const existing = await findMonitor(ref, "write");
  const merged = {
    ...(existing.definition as MonitorDefinition),
    channelIds: existing.channelIds,
    ...ref.input,
  };
  const definition = toDefinition(parseInput(CreateMonitorInput, merged));
  requirePublicTargets(deps, definition);
  const updatedAt = nowIso(ctx.deps);
  await ctx.deps.meta.transaction(async (tx) => {
    await requireChannels(tx, existing.projectId, definition.channelIds);
    await tx.repos.monitors.updateDefinition(existing.id, {
      name: definition.name,
      definition: withoutChannels(definition),
      channelIds: definition.channelIds,
      updatedAt,
    });
  });
  if (existing.status === "active")
    deps.scheduler?.schedule({ id: existing.id, periodMs: periodMs(definition) });
  return viewOf(ctx, {
    ...existing,
    name: definition.name,
    definition: withoutChannels(definition),
    channelIds: definition.channelIds,
    updatedAt,
  });
}

export async function deleteMonitor(ref: MonitorRef<MonitorCtx>): Promise<void> {
  const deps = ref.ctx.deps.monitors;
  const monitor = await findMonitor(ref, "write");
  deps.scheduler?.unschedule(monitor.id);
  // Its outages go with it, as they did when they were monitor incidents.
  const { statusPages } = ref.ctx.deps;
  await ref.ctx.deps.meta.transaction((tx) =>
    statusPages.changeSources(tx, [{ kind: "monitor", id: monitor.id }], async () => {
      await tx.repos.incidents.deleteBySource("monitor", monitor.id);
      await tx.repos.monitors.delete(monitor.id);
    }),
  );
}

/** A pause or resume: a paused monitor stops counting on status pages (docs/design.md §4). */
function setMonitorStatus(
  ctx: MonitorCtx,
  monitorId: string,
  status: "active" | "paused",
  updatedAt: string,
): Promise<void> {
  return ctx.deps.meta.transaction((tx) =>
    ctx.deps.statusPages.changeSources(tx, [{ kind: "monitor", id: monitorId }], () =>
      // Resuming clears the streak, so an outage slept through does not re-alert at once.
      tx.repos.monitors.setStatus(monitorId, status, updatedAt, {
        clearStreak: status === "active",
      }),
    ),
  );
}

/** Stops scheduled checks; the state (and an open incident) is kept as it is. */
export async function pauseMonitor(ref: MonitorRef<MonitorCtx>): Promise<MonitorView> {
  const deps = ref.ctx.deps.monitors;
  const monitor = await findMonitor(ref, "write");
  const updatedAt = nowIso(ref.ctx.deps);
  await setMonitorStatus(ref.ctx, monitor.id, "paused", updatedAt);
  deps.scheduler?.unschedule(monitor.id);
  return viewOf(ref.ctx, { ...monitor, status: "paused", updatedAt });
}

/** Restarts checks with the failure streak cleared, so an outage slept through does not re-alert at once. */
export async function resumeMonitor(ref: MonitorRef<MonitorCtx>): Promise<MonitorView> {
  const deps = ref.ctx.deps.monitors;
  const monitor = await findMonitor(ref, "write");
  // Resuming an active monitor changes nothing (its streak is not wiped).
  if (monitor.status === "active") return viewOf(ref.ctx, monitor);
  const updatedAt = nowIso(ref.ctx.deps);
  await setMonitorStatus(ref.ctx, monitor.id, "active", updatedAt);
  const definition = monitor.definition as MonitorDefinition;
  deps.scheduler?.schedule({ id: monitor.id, periodMs: periodMs(definition) }, { soon: true });
  return viewOf(ref.ctx, { ...monitor, status: "active", failureStreak: 0, updatedAt });
}

/** Runs one check now, recorded like a scheduled one (it counts toward the streak), and returns it. */
export async function runMonitor(ref: MonitorRef<MonitorCtx>): Promise<CheckResultView> {
  const deps = ref.ctx.deps.monitors;
  const monitor = await findMonitor(ref, "write");
  const recorded = await deps.engine.check(monitor.id, "manual");
  if (!recorded) throw new NotFoundError("Monitor", monitor.id);
  return toCheckResultView(recorded.record);
}

export async function listResults(
  ref: MonitorRef & { query: ListResultsQuery },
): Promise<Page<CheckResultView>> {
  const monitor = await findMonitor(ref, "read");
  const { query } = ref;
  const window = resolveWindow(query, ref.ctx.deps.clock.now().getTime());
  const filter = {
    monitorId: monitor.id,
    passed: query.passed,
    from: window && new Date(window.fromMs).toISOString(),
    to: window && new Date(window.toMs).toISOString(),
  };
  const { monitorResults } = ref.ctx.deps.meta.repos;
  const [rows, total] = await Promise.all([
    monitorResults.list(filter, { limit: query.limit, offset: (query.page - 1) * query.limit }),
    monitorResults.count(filter),
  ]);
  return { data: rows.map(toCheckResultView), pagination: pageInfo(query, total) };
}

export async function getResult(ref: MonitorRef & { resultId: string }): Promise<CheckResultView> {
  const monitor = await findMonitor(ref, "read");
  const row = await ref.ctx.deps.meta.repos.monitorResults.findById(monitor.id, ref.resultId);
  if (!row) throw new NotFoundError("Check result", ref.resultId);
  return toCheckResultView(row);
}

export async function listIncidents(
  ref: MonitorRef & { query: PageQuery },
): Promise<Page<MonitorIncidentView>> {
  const monitor = await findMonitor(ref, "read");
  const { query } = ref;
  const { incidents, notificationDeliveries } = ref.ctx.deps.meta.repos;
  const filter = { projectId: monitor.projectId, source: "monitor" as const, sourceId: monitor.id };
  const [rows, total] = await Promise.all([
    incidents.list(
      filter,
      { sortBy: "started_at", direction: "desc" },
      { limit: query.limit, offset: (query.page - 1) * query.limit },
    ),
    incidents.count(filter),
  ]);
  const ids = rows.map((i) => i.id);
  const [deliveries, timeline] = await Promise.all([
    notificationDeliveries.listByIncidents(ids),
    incidents.listEvents(ids, ["monitor_down", "monitor_recovered"]),
  ]);
  const data = rows.map((incident) =>
    toIncidentView(
      incident,
      timeline.filter((e) => e.incidentId === incident.id),
      deliveries.filter((d) => d.incidentId === incident.id).map(toDeliveryView),
    ),
  );
  return { data, pagination: pageInfo(query, total) };
}
