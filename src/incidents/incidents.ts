import { z } from "zod";
import { type Ctx, type DomainDeps, nowIso } from "../context.js";
import {
  INCIDENT_SEVERITIES,
  INCIDENT_SOURCES,
  INCIDENT_STATUSES,
} from "../contracts/incident-catalog.js";
import {
  CreateIncidentInput,
  type IncidentActor,
  IncidentCommentInput,
  type IncidentDetailView,
  IncidentNoteInput,
  IncidentUpdateInput,
  type IncidentView,
  UpdateIncidentInput,
} from "../contracts/incidents.js";
import { type Page, pageInfo } from "../contracts/pagination.js";
import type { DomainEvent } from "../events/event-bus.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../lib/domain-errors.js";
import { listQuery, resolveWindow } from "../lib/list-params.js";
import { parseInput } from "../lib/validation.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { IncidentRecord } from "../meta/repositories/incidents.js";
import { requireProject } from "../projects/projects.js";
import { linkIncidentComponents, requireLinkAccess } from "../status-pages/incident-links.js";
import type { StatusPageSignalDeps } from "../status-pages/signals.js";
import type { WebhookService } from "../webhooks/webhook-service.js";
import {
  appendIncidentEvents,
  type EscalationRestart,
  incidentCreatedEvent,
  incidentResolvedEvent,
  markResolved,
  type NewIncidentEvent,
  resetResponse,
  stopEscalationIn,
} from "./incident-lifecycle.js";
import { toIncidentDetailView, toIncidentView } from "./incident-views.js";
import { incidentSeverityChangedEvent } from "./incident-webhook-events.js";
import { refuseSourceReopen } from "./source-incidents.js";
import { sourceNames } from "./source-names.js";

// Incidents' commands and queries: /api/projects/:projectId/incidents… and the /v1 reads
// (docs/design.md §4 "Incidents: one model, three sources"). What monitors and alert rules do
// to their own incidents is source-incidents.ts; the /v1 dashboard incidents-dashboard.ts.

/** What the commands need besides the domain context (`ctx.deps.incidents`). */
export interface IncidentApiDeps {
  /** Webhooks enqueued in the change's transaction, the deliverer woken after the commit. */
  webhooks: Pick<WebhookService, "enqueueIn" | "kick">;
  /** A reopen restarts the incident's escalation (the escalation domain's, wired at the root). */
  restartEscalation: EscalationRestart;
}

/** The context of the commands: the base and the incidents' section. */
export type IncidentCtx = Ctx<DomainDeps & StatusPageSignalDeps & { incidents: IncidentApiDeps }>;

export const IncidentIdParam = z.string().min(1).max(64);

const INCIDENT_SORTS = ["started_at", "severity", "duration"] as const;

/** The list parameters of both the management API and /v1/incidents. */
export const ListIncidentsQuery = listQuery(INCIDENT_SORTS, {
  status: z.enum(INCIDENT_STATUSES).optional().describe("Only active or only resolved incidents"),
  severity: z.enum(INCIDENT_SEVERITIES).optional().describe("Only incidents of this severity"),
  source: z.enum(INCIDENT_SOURCES).optional().describe("Only incidents opened by this source"),
});
export type ListIncidentsQuery = z.infer<typeof ListIncidentsQuery>;

export interface IncidentRef {
  ctx: IncidentCtx;
  projectId: string;
  incidentId: string;
}

/** The signed-in user, or the operator (CLI); API keys never write. */
export function actorOf(ctx: Ctx): IncidentActor {
  return ctx.actor.kind === "user"
    ? { kind: "user", id: ctx.actor.userId }
    : { kind: "system", id: null };
}

async function findIncident(
  meta: MetaAccess,
  projectId: string,
  incidentId: string,
): Promise<IncidentRecord> {
  const incident = await meta.repos.incidents.findById(incidentId);
  if (!incident || incident.projectId !== projectId)
    throw new NotFoundError("Incident", incidentId);
  return incident;
}

async function detailOf(meta: MetaAccess, incident: IncidentRecord): Promise<IncidentDetailView> {
  return toIncidentDetailView(
    incident,
    await meta.repos.incidents.listEvents([incident.id]),
    await meta.repos.statusPageIncidentLinks.linkedComponents(incident.id),
    await sourceNames(meta, [incident]),
  );
}

/** A user or the operator, as the incident.assigned / severity_changed events name them. */
export const handActor = (actor: IncidentActor): { kind: "user" | "system"; id: string | null } =>
  actor.kind === "user" ? { kind: "user", id: actor.id } : { kind: "system", id: null };

/**
 * Runs a change of one incident in a transaction: its webhooks are enqueued in it and the
 * deliverer woken after the commit. Returns the incident with its timeline as it is then.
 */
export async function changeIncident(
  ref: IncidentRef,
  change: (
    tx: MetaAccess,
    incident: IncidentRecord,
  ) => Promise<{
    incident: IncidentRecord;
    events: DomainEvent[];
    /** Components it was linked to before the change: those it left may move too. */
    linkedBefore?: readonly string[];
  }>,
): Promise<IncidentDetailView> {
  const { ctx, projectId, incidentId } = ref;
  const { webhooks } = ctx.deps.incidents;
  await requireProject({ ctx, projectId, access: "write" });
  const { detail, events } = await ctx.deps.meta.transaction(async (tx) => {
    const result = await change(tx, await findIncident(tx, projectId, incidentId));
    if (result.events.length > 0) await webhooks.enqueueIn(tx, result.events);
    // Status pages show the incident on its components: its state, severity and public updates.
    await ctx.deps.statusPages.incidentChanged(tx, result.incident, result.linkedBefore);
    return { detail: await detailOf(tx, result.incident), events: result.events };
  });
  if (events.length > 0) webhooks.kick();
  return detail;
}

/** Opens an incident by hand (members and above), with an optional first public update. */
export async function createIncident({
  ctx,
  projectId,
  input,
}: {
  ctx: IncidentCtx;
  projectId: string;
  input: unknown;
}): Promise<IncidentDetailView> {
  const { webhooks } = ctx.deps.incidents;
  await requireProject({ ctx, projectId, access: "write" });
  const { title, severity, message, componentIds } = parseInput(CreateIncidentInput, input);
  if (componentIds !== undefined) await requireLinkAccess({ ctx, projectId });
  const now = nowIso(ctx.deps);
  const actor = actorOf(ctx);
  const incident: IncidentRecord = {
    id: ctx.deps.newId("inc"),
    projectId,
    title,
    status: "active",
    severity,
    source: "manual",
    sourceId: null,
    sourceKey: null,
    startedAt: now,
    resolvedAt: null,
    durationMs: null,
    cause: null,
    createdBy: actor.kind === "user" ? actor.id : null,
    createdAt: now,
    updatedAt: now,
    acknowledgedAt: null,
    acknowledgedBy: null,
    assigneeId: null,
  };
  const timeline: NewIncidentEvent[] = [
    { type: "opened", at: now, actor, message: title, data: { severity } },
    ...(message
      ? [{ type: "update", at: now, actor, message, phase: "investigating", public: true } as const]
      : []),
  ];
  const detail = await ctx.deps.meta.transaction(async (tx) => {
    await tx.repos.incidents.insert(incident);
    await appendIncidentEvents(tx, ctx.deps, incident.id, timeline);
    if (componentIds && componentIds.length > 0) {
      await linkIncidentComponents({ tx, projectId, incidentId: incident.id, componentIds });
      await ctx.deps.statusPages.incidentChanged(tx, incident);
    }
    await webhooks.enqueueIn(tx, [incidentCreatedEvent(incident)]);
    return detailOf(tx, incident);
  });
  webhooks.kick();
  return detail;
}

export async function listIncidents({
  ctx,
  projectId,
  query,
}: {
  ctx: Ctx;
  projectId: string;
  query: ListIncidentsQuery;
}): Promise<Page<IncidentView>> {
  await requireProject({ ctx, projectId, access: "read" });
  const window = resolveWindow(query, ctx.deps.clock.now().getTime());
  const filter = {
    projectId,
    status: query.status,
    severity: query.severity,
    source: query.source,
    from: window && new Date(window.fromMs).toISOString(),
    to: window && new Date(window.toMs).toISOString(),
  };
  const { incidents } = ctx.deps.meta.repos;
  const [rows, total] = await Promise.all([
    incidents.list(
      filter,
      { sortBy: query.sort_by, direction: query.sort_order },
      { limit: query.limit, offset: (query.page - 1) * query.limit },
    ),
    incidents.count(filter),
  ]);
  const names = await sourceNames(ctx.deps.meta, rows);
  return { data: rows.map((r) => toIncidentView(r, names)), pagination: pageInfo(query, total) };
}

/** One incident with its whole timeline, oldest entry first. */
export async function getIncident({
  ctx,
  projectId,
  incidentId,
}: {
  ctx: Ctx;
  projectId: string;
  incidentId: string;
}): Promise<IncidentDetailView> {
  await requireProject({ ctx, projectId, access: "read" });
  const { meta } = ctx.deps;
  return detailOf(meta, await findIncident(meta, projectId, incidentId));
}

/** Renames or re-grades an incident; each change is a timeline entry. */
export async function updateIncident(
  ref: IncidentRef & { input: unknown },
): Promise<IncidentDetailView> {
  const { title, severity, componentIds } = parseInput(UpdateIncidentInput, ref.input);
  if (title === undefined && severity === undefined && componentIds === undefined)
    throw InvalidInputError.forField("title", "give title, severity and/or componentIds");
  if (componentIds !== undefined)
    await requireLinkAccess({ ctx: ref.ctx, projectId: ref.projectId });
  return changeIncident(ref, async (tx, incident) => {
    const at = nowIso(ref.ctx.deps);
    const actor = actorOf(ref.ctx);
    const entries: NewIncidentEvent[] = [];
    if (title !== undefined && title !== incident.title)
      entries.push({
        type: "title_changed",
        at,
        actor,
        message: title,
        data: { from: incident.title, to: title },
      });
    if (severity !== undefined && severity !== incident.severity)
      entries.push({
        type: "severity_changed",
        at,
        actor,
        message: `${incident.severity} → ${severity}`,
        data: { from: incident.severity, to: severity },
      });
    const linkedBefore =
      componentIds === undefined
        ? []
        : await linkIncidentComponents({
            tx,
            projectId: ref.projectId,
            incidentId: incident.id,
            componentIds,
          });
    if (entries.length === 0) return { incident, events: [], linkedBefore };
    const change = { title: title ?? incident.title, severity: severity ?? incident.severity };
    await tx.repos.incidents.update(incident.id, { ...change, updatedAt: at });
    await appendIncidentEvents(tx, ref.ctx.deps, incident.id, entries);
    const changed = { ...incident, ...change, updatedAt: at };
    const events =
      change.severity === incident.severity
        ? []
        : [
            incidentSeverityChangedEvent(changed, {
              at,
              from: incident.severity,
              actor: handActor(actor),
            }),
          ];
    return { incident: changed, events, linkedBefore };
  });
}

/** Resolves an active incident (any source: the entry records who); 409 when already resolved. */
async function resolveIn(
  tx: MetaAccess,
  ctx: Ctx,
  incident: IncidentRecord,
  note: NewIncidentEvent | undefined,
): Promise<{ incident: IncidentRecord; events: DomainEvent[] }> {
  const at = nowIso(ctx.deps);
  const resolved = await markResolved(tx, ctx.deps, incident, at);
  if (!resolved) throw new ConflictError(`Incident '${incident.id}' is already resolved`);
  await appendIncidentEvents(tx, ctx.deps, incident.id, [
    ...(note ? [note] : []),
    { type: "resolved", at, actor: actorOf(ctx) },
  ]);
  await stopEscalationIn(tx, ctx.deps, incident.id, "resolved", at);
  return { incident: resolved, events: [incidentResolvedEvent(resolved)] };
}

/**
 * Posts a public update with its phase on an active incident; the phase `resolved` resolves it.
 * A resolved incident takes no update (409): reopen it first.
 */
export async function postIncidentUpdate(
  ref: IncidentRef & { input: unknown },
): Promise<IncidentDetailView> {
  const { message, phase } = parseInput(IncidentUpdateInput, ref.input);
  return changeIncident(ref, async (tx, incident) => {
    const at = nowIso(ref.ctx.deps);
    const update: NewIncidentEvent = {
      type: "update",
      at,
      actor: actorOf(ref.ctx),
      message,
      phase,
      public: true,
    };
    // A public update on a resolved incident would contradict its public state.
    if (incident.status === "resolved")
      throw new ConflictError(
        `Incident '${incident.id}' is resolved; reopen it first to post an update`,
      );
    if (phase === "resolved") return resolveIn(tx, ref.ctx, incident, update);
    await appendIncidentEvents(tx, ref.ctx.deps, incident.id, [update]);
    await tx.repos.incidents.update(incident.id, { updatedAt: at });
    return { incident: { ...incident, updatedAt: at }, events: [] };
  });
}

export async function resolveIncident(
  ref: IncidentRef & { input: unknown },
): Promise<IncidentDetailView> {
  const { message } = parseInput(IncidentNoteInput, ref.input ?? {});
  return changeIncident(ref, async (tx, incident) => {
    const note: NewIncidentEvent | undefined = message
      ? { type: "comment", at: nowIso(ref.ctx.deps), actor: actorOf(ref.ctx), message }
      : undefined;
    return resolveIn(tx, ref.ctx, incident, note);
  });
}

/**
 * Makes a resolved incident active again: a manual one always, a monitor's or alert rule's only
 * while its source still fails and it is the source's latest incident (else 409 saying why).
 * Its acknowledgement is cleared and its escalation restarted (resetResponse).
 */
export async function reopenIncident(
  ref: IncidentRef & { input: unknown },
): Promise<IncidentDetailView> {
  const { message } = parseInput(IncidentNoteInput, ref.input ?? {});
  return changeIncident(ref, async (tx, incident) => {
    if (incident.status !== "resolved")
      throw new ConflictError(`Incident '${incident.id}' is not resolved`);
    const refusal = await refuseSourceReopen(tx, incident);
    if (refusal) throw new ConflictError(refusal);
    const at = nowIso(ref.ctx.deps);
    const change = { status: "active" as const, resolvedAt: null, durationMs: null, updatedAt: at };
    if (!(await tx.repos.incidents.update(incident.id, change, "resolved")))
      throw new ConflictError(`Incident '${incident.id}' is not resolved`);
    const { restartEscalation } = ref.ctx.deps.incidents;
    const reopen = { at, actor: actorOf(ref.ctx), message };
    const entry = await resetResponse(tx, incident, reopen, restartEscalation);
    await appendIncidentEvents(tx, ref.ctx.deps, incident.id, [entry]);
    // No webhook of its own: resolving it again sends a new incident.resolved.
    return {
      incident: { ...incident, ...change, acknowledgedAt: null, acknowledgedBy: null },
      events: [],
    };
  });
}

/** Adds a private comment to the timeline (not shown on status pages). */
export async function commentOnIncident(
  ref: IncidentRef & { input: unknown },
): Promise<IncidentDetailView> {
  const { message } = parseInput(IncidentCommentInput, ref.input);
  return changeIncident(ref, async (tx, incident) => {
    await appendIncidentEvents(tx, ref.ctx.deps, incident.id, [
      { type: "comment", at: nowIso(ref.ctx.deps), actor: actorOf(ref.ctx), message },
    ]);
    return { incident, events: [] };
  });
}
