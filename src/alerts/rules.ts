import { z } from "zod";
import { type Ctx, nowIso } from "../context.js";
import { type Page, pageInfo } from "../contracts/pagination.js";
import { resolveSourceIncident } from "../incidents/incidents.js";
import { ConflictError, InvalidInputError } from "../lib/domain-errors.js";
import { PageQuery } from "../lib/list-params.js";
import { parseInput } from "../lib/validation.js";
import type { MetaAccess } from "../meta/meta-store.js";
import { type AlertRuleRecord, newAlertRuleRecord } from "../meta/repositories/alert-rules.js";
import { findInProject, requireFreeName } from "../projects/project-records.js";
import { requireProject } from "../projects/projects.js";
import type { TqlService } from "../tql/service.js";
import type { WebhookService } from "../webhooks/service.js";
import {
  ALERT_EVENT_KINDS,
  type AlertRuleDefinition,
  CreateAlertRuleInput,
  intervalMs,
  type ParsedAlertRuleInput,
  type PresetRef,
  renderMessage,
  templatePlaceholders,
  toDefinition,
  type UpdateAlertRuleInput,
} from "./definition.js";
import { compilePreset } from "./presets.js";
import { checkAlertQuery, checkAlertQueryColumns, seriesFromResult } from "./query-check.js";
import { planSeries } from "./series-plan.js";
import { rangeOfType, unreachableCondition, type ValueRange } from "./value-range.js";
import {
  type AlertEventView,
  type AlertPreviewView,
  type AlertRuleView,
  toEventView,
  toPreviewSeries,
  toRuleView,
} from "./views.js";

/** The scheduler's side of rule changes (the evaluator's periodic scheduler fits it). */
export interface RuleScheduler {
  schedule(
    entry: { id: string; periodMs: number; tenant?: string; group?: string },
    options?: { soon?: boolean },
  ): void;
  unschedule(id: string): void;
}

/** What the rule verbs need besides the domain context. */
export interface AlertRuleDeps {
  tql: Pick<TqlService, "columns" | "query">;
  /** Absent when this process does not evaluate rules. */
  scheduler?: RuleScheduler | undefined;
  /** A deleted rule's open incident is resolved: its webhooks are enqueued in the delete. */
  webhooks: Pick<WebhookService, "enqueueIn" | "kick">;
  /** Rules one project may have (alerts.maxRulesPerProject); a create beyond gets 409. */
  maxRulesPerProject: number;
}

export const AlertRuleIdParam = z.string().min(1).max(64);

export const MuteInput = z
  .object({
    until: z.iso
      .datetime({ offset: true })
      .optional()
      .describe("Muted until this time (ISO 8601); absent = indefinitely"),
  })
  .strict()
  .meta({ id: "MuteAlertRuleInput" });
export type MuteInput = z.input<typeof MuteInput>;

export const ListEventsQuery = PageQuery.extend({
  kind: z.enum(ALERT_EVENT_KINDS).optional().describe("Only events of this kind"),
}).strict();
export type ListEventsQuery = z.infer<typeof ListEventsQuery>;

interface RuleRef {
  ctx: Ctx;
  projectId: string;
  ruleId: string;
}

async function findRule(
  { ctx, projectId, ruleId }: RuleRef,
  access: "read" | "write",
): Promise<AlertRuleRecord> {
  await requireProject(ctx, projectId, access);
  return findInProject(ctx.deps.meta.repos.alertRules, projectId, "Alert rule", ruleId);
}

const viewOf = async (ctx: Ctx, rule: AlertRuleRecord): Promise<AlertRuleView> =>
  toRuleView(rule, await ctx.deps.meta.repos.alertSeries.list(rule.id), ctx.deps.clock.now());

/** Every channel must be one of this project's. */
async function requireChannels(meta: MetaAccess, projectId: string, channelIds: readonly string[]) {
  if (channelIds.length === 0) return;
  const known = new Set(
    (await meta.repos.notificationChannels.listByProject(projectId)).map((c) => c.id),
  );
  for (const [i, channelId] of channelIds.entries())
    if (!known.has(channelId))
      throw InvalidInputError.forField(
        `channelIds.${i}`,
        `no notification channel '${channelId}' in this project; create it under /channels first`,
      );
}

/** Names are unique per project: a 409 naming `name` rather than the store's generic one. */
const requireNameFree = (meta: MetaAccess, projectId: string, name: string, self?: string) =>
  requireFreeName(meta.repos.alertRules, projectId, "a rule", name, self);

/**
 * Refuses a project's rule beyond its cap (409 naming the limit): each rule is an engine query
 * every interval, so rules are capped like the engine's other shares.
 */
async function requireRoom(meta: MetaAccess, projectId: string, max: number, now: string) {
  const rules = await meta.repos.alertRules.count({ projectId, now });
  if (rules >= max)
    throw new ConflictError(
      `This project has ${rules} alert rules, the most it may have (alerts.maxRulesPerProject, VIGIL_ALERTS_MAX_RULES_PER_PROJECT: ${max}); delete one, or merge rules by grouping one query by a label`,
    );
}

/** Whose turn a rule's evaluations take (see createAlertScheduler): its project's, in its organization. */
const turnOf = (project: { id: string; orgId: string }) => ({
  tenant: project.id,
  group: project.orgId,
});

/** A rule ready to store: definition, the query evaluated and its label columns. */
interface CheckedRule {
  parsed: ParsedAlertRuleInput;
  definition: AlertRuleDefinition;
  query: string;
  labels: string[];
}

/**
 * Validates a rule as a whole: fields, preset params (compiled to TQL), the query (compiles,
 * returns a numeric `value`) and the template's labels (each must be a label column).
 */
async function checkRule(
  deps: AlertRuleDeps,
  projectId: string,
  input: unknown,
): Promise<CheckedRule> {
  const parsed = parseInput(CreateAlertRuleInput, input);
  let preset: PresetRef | null = null;
  let query = parsed.query ?? "";
  let range: ValueRange | undefined;
  if (parsed.preset) ({ preset, query, range } = compilePreset(parsed.preset));
  const { labels, valueType } = await checkAlertQueryColumns(deps.tql, projectId, query);
  // A threshold no value can reach is a rule that can never fire: refused, not saved silently.
  const unreachable = unreachableCondition(parsed.condition, range ?? rangeOfType(valueType));
  if (unreachable !== null) throw InvalidInputError.forField("condition.threshold", unreachable);
  const missing = templatePlaceholders(parsed.messageTemplate).labels.filter(
    (l) => !labels.includes(l),
  );
  if (missing.length > 0)
    throw InvalidInputError.forField(
      "messageTemplate",
      `{{labels.${missing[0]}}} is not a label column of the query (${labels.length > 0 ? labels.join(", ") : "it has none"})`,
    );
  return {
    parsed: { ...parsed, channelIds: [...new Set(parsed.channelIds)] },
    definition: { ...toDefinition(parsed), preset },
    query,
    labels,
  };
}

export async function createRule(
  deps: AlertRuleDeps,
  { ctx, projectId, input }: { ctx: Ctx; projectId: string; input: unknown },
): Promise<AlertRuleView> {
  const project = await requireProject(ctx, projectId, "write");
  const { parsed, definition, query } = await checkRule(deps, projectId, input);
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
  await requireProject(ctx, projectId, "read");
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
export async function updateRule(
  deps: AlertRuleDeps,
  ref: RuleRef & { input: UpdateAlertRuleInput },
): Promise<AlertRuleView> {
  const { ctx } = ref;
  const existing = await findRule(ref, "write");
  const merged = { ...asInput(existing), ...ref.input };
  if (ref.input.query !== undefined && ref.input.preset === undefined) delete merged.preset;
  if (ref.input.preset !== undefined && ref.input.query === undefined) delete merged.query;
  const { parsed, definition, query } = await checkRule(deps, existing.projectId, merged);
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
export async function deleteRule(deps: AlertRuleDeps, ref: RuleRef): Promise<void> {
  const { ctx } = ref;
  const rule = await findRule(ref, "write");
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
  ctx: Ctx,
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
export async function muteRule(ref: RuleRef & { input: MuteInput }): Promise<AlertRuleView> {
  const { ctx } = ref;
  const input = parseInput(MuteInput, ref.input);
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

export async function unmuteRule(ref: RuleRef): Promise<AlertRuleView> {
  const { ctx } = ref;
  const rule = await findRule(ref, "write");
  const updatedAt = nowIso(ctx.deps);
  await setRuleMute(ctx, rule.id, { muted: false, mutedUntil: null, updatedAt });
  return viewOf(ctx, { ...rule, muted: false, mutedUntil: null, updatedAt });
}

/** Runs the query now and plans each series against the stored states; records nothing. */
async function preview(
  deps: AlertRuleDeps,
  ctx: Ctx,
  rule: { projectId: string; query: string; definition: AlertRuleDefinition; id?: string },
  labels: string[],
): Promise<AlertPreviewView> {
  const now = ctx.deps.clock.now();
  const result = await deps.tql.query(rule.projectId, rule.query);
  const known = rule.id ? await ctx.deps.meta.repos.alertSeries.list(rule.id) : [];
  const samples = seriesFromResult(result);
  const planned = planSeries(rule.definition, samples, known, now);
  const { condition, messageTemplate } = rule.definition;
  return {
    evaluatedAt: now.toISOString(),
    durationMs: result.durationMs,
    query: rule.query,
    labels,
    noData: samples.length === 0,
    series: planned.map((p) =>
      toPreviewSeries(
        p,
        renderMessage(messageTemplate, {
          value: p.value,
          threshold: condition.threshold,
          labels: p.labels,
        }),
      ),
    ),
  };
}

export async function previewRule(deps: AlertRuleDeps, ref: RuleRef): Promise<AlertPreviewView> {
  const rule = await findRule(ref, "write");
  const labels = await checkAlertQuery(deps.tql, rule.projectId, rule.query);
  return preview(deps, ref.ctx, rule, labels);
}

/** Validates a draft rule like a create and previews it (no stored series: all start ok). */
export async function previewDraft(
  deps: AlertRuleDeps,
  { ctx, projectId, input }: { ctx: Ctx; projectId: string; input: unknown },
): Promise<AlertPreviewView> {
  await requireProject(ctx, projectId, "write");
  const { parsed, definition, query, labels } = await checkRule(deps, projectId, input);
  await requireChannels(ctx.deps.meta, projectId, parsed.channelIds);
  return preview(deps, ctx, { projectId, query, definition }, labels);
}

export async function listRuleEvents(
  ref: RuleRef & { query: ListEventsQuery },
): Promise<Page<AlertEventView>> {
  const rule = await findRule(ref, "read");
  const { query } = ref;
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
