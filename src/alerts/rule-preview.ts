import type { Ctx, DomainDeps } from "../context.js";
import { renderMessage } from "../contracts/alert-catalog.js";
import type { AlertPreviewView } from "../contracts/alerts.js";
import type { AlertRuleDefinition } from "../meta/repositories/alert-rule-definition.js";
import { requireProject } from "../projects/projects.js";
import type { AlertRuleDeps } from "./alert-rules.js";
import { toPreviewSeries } from "./alert-views.js";
import { checkAlertQuery, seriesFromResult } from "./query-check.js";
import { checkRule, findRule, requireChannels } from "./rule-checks.js";
import { planSeries } from "./series-plan.js";

// Previews: a rule's query run now and each series planned against the stored states, with
// nothing recorded (POST …/alert-rules/preview and …/alert-rules/:ruleId/preview).

type PreviewCtx = Ctx<DomainDeps & { alertRules: Pick<AlertRuleDeps, "tql"> }>;

/** Runs the query now and plans each series against the stored states; records nothing. */
async function preview(
  ctx: PreviewCtx,
  rule: { projectId: string; query: string; definition: AlertRuleDefinition; id?: string },
  labels: string[],
): Promise<AlertPreviewView> {
  const now = ctx.deps.clock.now();
  const result = await ctx.deps.alertRules.tql.query(rule.projectId, rule.query);
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

/** Evaluates a saved rule now, as it stands (its series keep their stored states). */
export async function previewRule({
  ctx,
  projectId,
  ruleId,
}: {
  ctx: PreviewCtx;
  projectId: string;
  ruleId: string;
}): Promise<AlertPreviewView> {
  const rule = await findRule({ ctx, projectId, ruleId }, "write");
  const labels = await checkAlertQuery(ctx.deps.alertRules.tql, rule.projectId, rule.query);
  return preview(ctx, rule, labels);
}

/** Validates a draft rule like a create and previews it (no stored series: all start ok). */
export async function previewDraft({
  ctx,
  projectId,
  input,
}: {
  ctx: PreviewCtx;
  projectId: string;
  input: unknown;
}): Promise<AlertPreviewView> {
  await requireProject({ ctx, projectId, access: "write" });
  const { parsed, definition, query, labels } = await checkRule(
    ctx.deps.alertRules.tql,
    projectId,
    input,
  );
  await requireChannels(ctx.deps.meta, projectId, parsed.channelIds);
  return preview(ctx, { projectId, query, definition }, labels);
}
