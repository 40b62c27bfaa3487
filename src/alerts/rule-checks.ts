import type { Ctx } from "../context.js";
import { templatePlaceholders } from "../contracts/alert-catalog.js";
import type { ParsedAlertRuleInput, PresetRef } from "../contracts/alerts.js";
import { CreateAlertRuleInput } from "../contracts/alerts.js";
import { ConflictError, InvalidInputError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { AlertRuleDefinition } from "../meta/repositories/alert-rule-definition.js";
import type { AlertRuleRecord } from "../meta/repositories/alert-rules.js";
import { findInProject, requireFreeName } from "../projects/project-records.js";
import { requireProject } from "../projects/projects.js";
import type { TqlService } from "../tql/tql-service.js";
import { toDefinition } from "./definition.js";
import { compilePreset } from "./presets.js";
import { checkAlertQueryColumns } from "./query-check.js";
import { rangeOfType, unreachableCondition, type ValueRange } from "./value-range.js";

// What a rule must pass before it is stored or previewed: its project, its channels, its name,
// the project's room for it, and the rule itself (fields, preset, query, template).

/** A rule of the project, read for `access`; 404 when it is another project's or gone. */
export async function findRule(
  { ctx, projectId, ruleId }: { ctx: Ctx; projectId: string; ruleId: string },
  access: "read" | "write",
): Promise<AlertRuleRecord> {
  await requireProject({ ctx, projectId, access });
  return findInProject(ctx.deps.meta.repos.alertRules, projectId, "Alert rule", ruleId);
}

/** Every channel must be one of this project's. */
export async function requireChannels(
  meta: MetaAccess,
  projectId: string,
  channelIds: readonly string[],
) {
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
export const requireNameFree = (meta: MetaAccess, projectId: string, name: string, self?: string) =>
  requireFreeName(meta.repos.alertRules, projectId, "a rule", name, self);

/**
 * Refuses a project's rule beyond its cap (409 naming the limit): each rule is an engine query
 * every interval, so rules are capped like the engine's other shares.
 */
export async function requireRoom(meta: MetaAccess, projectId: string, max: number, now: string) {
  const rules = await meta.repos.alertRules.count({ projectId, now });
  if (rules >= max)
    throw new ConflictError(
      `This project has ${rules} alert rules, the most it may have (alerts.maxRulesPerProject, VIGIL_ALERTS_MAX_RULES_PER_PROJECT: ${max}); delete one, or merge rules by grouping one query by a label`,
    );
}

/** A rule ready to store: definition, the query evaluated and its label columns. */
export interface CheckedRule {
  parsed: ParsedAlertRuleInput;
  definition: AlertRuleDefinition;
  query: string;
  labels: string[];
}

/**
 * Validates a rule as a whole: fields, preset params (compiled to TQL), the query (compiles,
 * returns a numeric `value`) and the template's labels (each must be a label column).
 */
export async function checkRule(
  tql: Pick<TqlService, "columns">,
  projectId: string,
  input: unknown,
): Promise<CheckedRule> {
  const parsed = parseInput(CreateAlertRuleInput, input);
  // Escalation runs on the rule's incident: without one it would never start.
  if (parsed.escalationPolicyId !== null && !parsed.openIncident)
    throw InvalidInputError.forField(
      "escalationPolicyId",
      "an escalation policy runs on the rule's incidents: set openIncident to true as well",
    );
  let preset: PresetRef | null = null;
  let query = parsed.query ?? "";
  let range: ValueRange | undefined;
  if (parsed.preset) ({ preset, query, range } = compilePreset(parsed.preset));
  const { labels, valueType } = await checkAlertQueryColumns(tql, projectId, query);
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
