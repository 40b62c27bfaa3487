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
import { requireEscalationPolicy } from "../escalation/escalation-policies.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../lib/domain-errors.js";
import type { LeasableEntry } from "../lib/leased-scheduler.js";
import { PageQuery, resolveWindow, WindowQuery } from "../lib/list-params.js";
import type { SecretBox } from "../lib/secret-box.js";
import { parseInput } from "../lib/validation.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { MonitorRecord } from "../meta/repositories/monitors.js";
import { toDeliveryView } from "../notifications/channel-views.js";
import { requireProject } from "../projects/projects.js";
import type { StatusPageEngine } from "../status-pages/signals.js";
import {
  isScheduled,
  type MonitorDefinition,
  storedDefinition,
  toDefinition,
} from "./definition.js";
import type { MonitorEngine } from "./engine.js";
import { requirePatchFits, requirePublicTargets } from "./kind-rules.js";
import { kindOf } from "./kinds/registry.js";
import { toCheckResultView, toIncidentView, viewOf, viewsOf } from "./monitor-views.js";
import type { MonitorScheduler } from "./scheduler.js";

/** What the monitor verbs need besides the domain context. */
export interface MonitorDeps {
  engine: MonitorEngine;
  /** Absent when this process does not schedule checks (VIGIL_MONITORS_ENABLED=false). */
  scheduler?: MonitorScheduler | undefined;
  /** VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: off, a step aimed at a private host is refused. */
  allowPrivateTargets: boolean;
  /** Seals what must be shown again (a heartbeat's ping token). */
  secretBox?: SecretBox | undefined;
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

/** The scheduler's entry of a monitor its kind schedules (undefined: a heartbeat). */
function scheduleEntry(id: string, stored: unknown): { id: string; periodMs: number } | undefined {
  const definition = storedDefinition(stored);
  if (!isScheduled(definition) || !kindOf(definition).scheduled) return undefined;
  return { id, periodMs: FREQUENCIES[definition.frequency] * 1000 };
}

/** Every active monitor of a scheduled kind with its period: what the scheduler loads at start. */
export async function listScheduleEntries(meta: MetaAccess): Promise<LeasableEntry[]> {
  return (await meta.repos.monitors.listActive()).flatMap((m) => {
    const entry = scheduleEntry(m.id, m.definition);
    // Never checked: its first check comes at once, wherever it was created.
    return entry ? [{ ...entry, fresh: m.lastCheckedAt === null }] : [];
  });
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
  requirePublicTargets(deps.allowPrivateTargets, definition);
  const kind = kindOf(definition);
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
    await requireEscalationPolicy(tx, projectId, definition.escalationPolicyId);
    await tx.repos.monitors.insert(record);
    await kind.created?.(tx, ctx, record);
  });
  const entry = scheduleEntry(record.id, definition);
  if (entry) deps.scheduler?.schedule(entry, { soon: true });
  return viewOf(ctx, record);
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
  const stored = storedDefinition(existing.definition);
  requirePatchFits(stored, ref.input);
  // A switch between api and flow keeps the steps; no other kind's fields are carried over.
  const merged = { ...stored, channelIds: existing.channelIds, ...ref.input };
  const definition = toDefinition(parseInput(CreateMonitorInput, merged));
  requirePublicTargets(deps.allowPrivateTargets, definition);
  const updatedAt = nowIso(ctx.deps);
  const updated: MonitorRecord = {
    ...existing,
    name: definition.name,
    definition: withoutChannels(definition),
    channelIds: definition.channelIds,
    updatedAt,
  };
  await ctx.deps.meta.transaction(async (tx) => {
    await requireChannels(tx, existing.projectId, definition.channelIds);
    await requireEscalationPolicy(tx, existing.projectId, definition.escalationPolicyId);
    await tx.repos.monitors.updateDefinition(existing.id, {
      name: definition.name,
      definition: withoutChannels(definition),
      channelIds: definition.channelIds,
      updatedAt,
    });
    await kindOf(definition).updated?.(tx, ctx, existing, updated);
  });
  const entry = scheduleEntry(existing.id, definition);
  if (existing.status === "active" && entry) deps.scheduler?.schedule(entry);
  return viewOf(ctx, updated);
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
  monitor: MonitorRecord,
  status: "active" | "paused",
  updatedAt: string,
): Promise<void> {
  const kind = kindOf(storedDefinition(monitor.definition));
  return ctx.deps.meta.transaction((tx) =>
    ctx.deps.statusPages.changeSources(tx, [{ kind: "monitor", id: monitor.id }], async () => {
      // Resuming clears the streak, so an outage slept through does not re-alert at once.
      await tx.repos.monitors.setStatus(monitor.id, status, updatedAt, {
        clearStreak: status === "active",
      });
      const hook = status === "active" ? kind.resumed : kind.paused;
      await hook?.(tx, ctx, monitor, updatedAt);
    }),
  );
}

/** Stops scheduled checks; the state (and an open incident) is kept as it is. */
export async function pauseMonitor(ref: MonitorRef<MonitorCtx>): Promise<MonitorView> {
  const deps = ref.ctx.deps.monitors;
  const monitor = await findMonitor(ref, "write");
  const updatedAt = nowIso(ref.ctx.deps);
  await setMonitorStatus(ref.ctx, monitor, "paused", updatedAt);
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
  await setMonitorStatus(ref.ctx, monitor, "active", updatedAt);
  const entry = scheduleEntry(monitor.id, monitor.definition);
  if (entry) deps.scheduler?.schedule(entry, { soon: true });
  return viewOf(ref.ctx, { ...monitor, status: "active", failureStreak: 0, updatedAt });
}

/** Runs one check now, recorded like a scheduled one (it counts toward the streak), and returns it. */
export async function runMonitor(ref: MonitorRef<MonitorCtx>): Promise<CheckResultView> {
  const deps = ref.ctx.deps.monitors;
  const monitor = await findMonitor(ref, "write");
  const definition = storedDefinition(monitor.definition);
  if (!kindOf(definition).run)
    throw new ConflictError(
      `a ${definition.type} monitor has no check to run on request; it is checked when it is pinged`,
    );
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
