import { z } from "zod";
import { type Ctx, type DomainDeps, nowIso } from "../context.js";
import { ALERT_EVENT_KINDS } from "../contracts/alert-catalog.js";
import {
  type AlertEventView,
  type AlertRuleView,
  MuteAlertRuleInput,
  type UpdateAlertRuleInput,
} from "../contracts/alerts.js";
import { type Page, pageInfo } from "../contracts/pagination.js";
import { requireEscalationPolicy } from "../escalation/escalation-policies.js";
import { resolveSourceIncident } from "../incidents/source-incidents.js";
import { InvalidInputError } from "../lib/domain-errors.js";
import { PageQuery } from "../lib/list-params.js";
import { parseInput } from "../lib/validation.js";
import { type AlertRuleRecord, newAlertRuleRecord } from "../meta/repositories/alert-rules.js";
import { requireProject } from "../projects/projects.js";
import type { StatusPageSignalDeps } from "../status-pages/signals.js";
import type { TqlService } from "../tql/tql-service.js";
import type { WebhookService } from "../webhooks/webhook-service.js";
import { toEventView, toRuleView } from "./alert-views.js";
import { intervalMs } from "./definition.js";
import {
  checkRule,
  findRule,
  requireChannels,
  requireNameFree,
  requireRoom,
} from "./rule-checks.js";

// Alert rules' commands and queries (/api/projects/:projectId/alert-rules…, docs/design.md §4).
// Previews are rule-preview.ts; what a rule must pass to be stored is rule-checks.ts.

/** The scheduler's side of rule changes (the evaluator's periodic scheduler fits it). */
export interface RuleScheduler {
  schedule(
    entry: { id: string; periodMs: number; tenant?: string; group?: string },
    options?: { soon?: boolean },
  ): void;
  unschedule(id: string): void;
}

/** What the rule verbs need besides the domain context (`ctx.deps.alertRules`). */
export interface AlertRuleDeps {
  tql: Pick<TqlService, "columns" | "query">;
  /** Absent when this process does not evaluate rules. */
  scheduler?: RuleScheduler | undefined;
  /** A deleted rule's open incident is resolved: its webhooks are enqueued in the delete. */
  webhooks: Pick<WebhookService, "enqueueIn" | "kick">;
  /** Rules one project may have (alerts.maxRulesPerProject); a create beyond gets 409. */
  maxRulesPerProject: number;
}

/** The context of the verbs that validate, schedule or enqueue: the base and the rules' section. */
export type AlertRuleCtx = Ctx<DomainDeps & StatusPageSignalDeps & { alertRules: AlertRuleDeps }>;

export const AlertRuleIdParam = z.string().min(1).max(64);

export const ListEventsQuery = PageQuery.extend({
  kind: z.enum(ALERT_EVENT_KINDS).optional().describe("Only events of this kind"),
}).strict();
export type ListEventsQuery = z.infer<typeof ListEventsQuery>;

interface RuleRef {
  ctx: Ctx;
  projectId: string;
  ruleId: string;
}

const viewOf = async (ctx: Ctx, rule: AlertRuleRecord): Promise<AlertRuleView> =>
  toRuleView(rule, await ctx.deps.meta.repos.alertSeries.list(rule.id), ctx.deps.clock.now());

/** Whose turn a rule's evaluations take (see createAlertScheduler): its project's, in its organization. */
const turnOf = (project: { id: string; orgId: string }) => ({
  tenant: project.id,
  group: project.orgId,
});

export async function createRule({
  ctx,
  projectId,
  input,
}: {
  ctx: AlertRuleCtx;
  projectId: string;
  input: unknown;
}): Promise<AlertRuleView> {
  const deps = ctx.deps.alertRules;
  const project = await requireProject({ ctx, projectId, access: "write" });
  const { parsed, definition, query } = await checkRule(deps.tql, projectId, input);
  const record = newAlertRuleRecord({
    id: ctx.deps.newId("alr"),
    projectId,
    name: parsed.name,
    description: parsed.description,
    severity: parsed.severity,
    definition,
    query,
    channelIds: parsed.channelIds,
    createdBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
    at: nowIso(ctx.deps),
  });
  await ctx.deps.meta.transaction(async (tx) => {
    await requireRoom(tx, projectId, deps.maxRulesPerProject, record.createdAt);
    await requireChannels(tx, projectId, record.channelIds);
    await requireEscalationPolicy(tx, projectId, definition.escalationPolicyId);
    await requireNameFree(tx, projectId, record.name);
    await tx.repos.alertRules.insert(record);
  });
  deps.scheduler?.schedule(
    { id: record.id, periodMs: intervalMs(definition.interval), ...turnOf(project) },
    { soon: true },
  );
  return toRuleView(record, [], ctx.deps.clock.now());
}

/** A page of the project's rules, oldest first (paginated in SQL). */
export async function listRules({
  ctx,
  projectId,
  query,
}: {
  ctx: Ctx;
  projectId: string;
  query: PageQuery;
}): Promise<Page<AlertRuleView>> {
  await requireProject({ ctx, projectId, access: "read" });
  const { repos } = ctx.deps.meta;
  const now = ctx.deps.clock.now();
  const filter = { projectId, now: now.toISOString() };
  const [rules, total] = await Promise.all([
    repos.alertRules.list(filter, {
      limit: query.limit,
      offset: (query.page - 1) * query.limit,
      sort: "created_at",
      order: "asc",
    }),
    repos.alertRules.count(filter),
  ]);
  const series = await repos.alertSeries.listForRules(rules.map((r) => r.id));
  return {
    data: rules.map((rule) => toRuleView(rule, series.get(rule.id) ?? [], now)),
    pagination: pageInfo(query, total),
  };
}

export async function getRule(ref: RuleRef): Promise<AlertRuleView> {
  return viewOf(ref.ctx, await findRule(ref, "read"));
}

/** The stored rule in the create input's shape, to merge a patch into. */
const asInput = (rule: AlertRuleRecord): Record<string, unknown> => {
  const { preset, ...rest } = rule.definition;
  return {
    name: rule.name,
    description: rule.description,
    severity: rule.severity,
    ...(preset ? { preset } : { query: rule.query }),
    ...rest,
    channelIds: rule.channelIds,
  };
};

/**
 * Changes any fields; the merged rule is validated again (its query too) and its state kept.
 * Giving `query` replaces a preset, giving `preset` replaces a query.
 */
export async function updateRule({
  ctx,
  projectId,
  ruleId,
  input,
}: RuleRef & { ctx: AlertRuleCtx; input: UpdateAlertRuleInput }): Promise<AlertRuleView> {
  const deps = ctx.deps.alertRules;
  const existing = await findRule({ ctx, projectId, ruleId }, "write");
  const merged = { ...asInput(existing), ...input };
  if (input.query !== undefined && input.preset === undefined) delete merged.preset;
  if (input.preset !== undefined && input.query === undefined) delete merged.query;
  const { parsed, definition, query } = await checkRule(deps.tql, existing.projectId, merged);
  const updatedAt = nowIso(ctx.deps);
  const change = {
    name: parsed.name,
    description: parsed.description,
    severity: parsed.severity,
    definition,
    query,
    channelIds: parsed.channelIds,
    updatedAt,
  };
  await ctx.deps.meta.transaction(async (tx) => {
    await requireChannels(tx, existing.projectId, change.channelIds);
    await requireEscalationPolicy(tx, existing.projectId, definition.escalationPolicyId);
    await requireNameFree(tx, existing.projectId, change.name, existing.id);
    await tx.repos.alertRules.updateDefinition(existing.id, change);
  });
  // At once: an edit is how a failing rule gets fixed, and its author waits for the verdict.
  const project = await ctx.deps.meta.repos.projects.findById(existing.projectId);
  if (project)
    deps.scheduler?.schedule(
      { id: existing.id, periodMs: intervalMs(definition.interval), ...turnOf(project) },
      { soon: true },
    );
  return viewOf(ctx, { ...existing, ...change });
}

/**
 * Deletes the rule with its series and events. Its open incident is resolved (kept as history)
 * with a timeline entry by the deleting user, so no incident stays active without a source.
 */
export async function deleteRule({
  ctx,
  projectId,
  ruleId,
}: RuleRef & { ctx: AlertRuleCtx }): Promise<void> {
  const deps = ctx.deps.alertRules;
  const rule = await findRule({ ctx, projectId, ruleId }, "write");
  deps.scheduler?.unschedule(rule.id);
  const source = [{ kind: "alert_rule" as const, id: rule.id }];
  const events = await ctx.deps.meta.transaction((tx) =>
    ctx.deps.statusPages.changeSources(tx, source, async () => {
      const resolved = await resolveSourceIncident(tx, ctx.deps, {
        source: "alert",
        sourceId: rule.id,
        at: nowIso(ctx.deps),
        actor:
          ctx.actor.kind === "user"
            ? { kind: "user", id: ctx.actor.userId }
            : { kind: "system", id: null },
        event: {
          type: "alert_resolved",
          message: `Alert rule '${rule.name}' was deleted`,
          data: { ruleId: rule.id, reason: "rule_deleted" },
        },
      });
      await tx.repos.alertRules.delete(rule.id);
      if (resolved) await deps.webhooks.enqueueIn(tx, resolved.events);
      return resolved?.events ?? [];
    }),
  );
  if (events.length > 0) deps.webhooks.kick();
}

/** A mute or unmute: a muted rule's firing does not count on status pages. */
function setRuleMute(
  ctx: Ctx<DomainDeps & StatusPageSignalDeps>,
  ruleId: string,
  mute: { muted: boolean; mutedUntil: string | null; updatedAt: string },
): Promise<void> {
  return ctx.deps.meta.transaction((tx) =>
    ctx.deps.statusPages.changeSources(tx, [{ kind: "alert_rule", id: ruleId }], () =>
      tx.repos.alertRules.setMute(ruleId, mute),
    ),
  );
}

/** Mutes until a time ahead, or indefinitely: still evaluated and recorded, not notified. */
export async function muteRule({
  input: raw,
  ...ref
}: RuleRef & { ctx: AlertRuleCtx; input: MuteAlertRuleInput }): Promise<AlertRuleView> {
  const { ctx } = ref;
  const input = parseInput(MuteAlertRuleInput, raw);
  const rule = await findRule(ref, "write");
  const now = ctx.deps.clock.now();
  let mutedUntil: string | null = null;
  if (input.until !== undefined) {
    const until = Date.parse(input.until);
    if (until <= now.getTime())
      throw InvalidInputError.forField(
        "until",
        "must be in the future (omit it to mute indefinitely)",
      );
    mutedUntil = new Date(until).toISOString();
  }
  const updatedAt = now.toISOString();
  await setRuleMute(ctx, rule.id, { muted: true, mutedUntil, updatedAt });
  return viewOf(ctx, { ...rule, muted: true, mutedUntil, updatedAt });
}

export async function unmuteRule(ref: RuleRef & { ctx: AlertRuleCtx }): Promise<AlertRuleView> {
  const { ctx } = ref;
  const rule = await findRule(ref, "write");
  const updatedAt = nowIso(ctx.deps);
  await setRuleMute(ctx, rule.id, { muted: false, mutedUntil: null, updatedAt });
  return viewOf(ctx, { ...rule, muted: false, mutedUntil: null, updatedAt });
}

/** A page of the rule's events, newest first, optionally of one kind. */
export async function listRuleEvents({
  query,
  ...ref
}: RuleRef & { query: ListEventsQuery }): Promise<Page<AlertEventView>> {
  const rule = await findRule(ref, "read");
  const { alertEvents } = ref.ctx.deps.meta.repos;
  const kinds = query.kind ? [query.kind] : undefined;
  const [rows, total] = await Promise.all([
    alertEvents.list(
      { ruleId: rule.id },
      { limit: query.limit, offset: (query.page - 1) * query.limit, kinds },
    ),
    alertEvents.count({ ruleId: rule.id }, { kinds }),
  ]);
  return { data: rows.map(toEventView), pagination: pageInfo(query, total) };
}
