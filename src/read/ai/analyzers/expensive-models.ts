import { num, whereClause } from "../../sql.js";
import { MODEL_SQL } from "../endpoints.js";
import { type Analyzer, recommend } from "../recommendation.js";
import { ratio, usd } from "../stats.js";

/** Thresholds of the expensive-model analyzer (documented in docs/read-api.md). */
export const EXPENSIVE_MODEL = {
  minCalls: 20,
  /** Share of the window's AI spend from which a model is expensive… */
  minShare: 0.3,
  /** …when one call also costs at least this much (USD). */
  minCostPerCallUsd: 0.005,
  /** Share from which the finding is medium rather than low. */
  mediumShare: 0.6,
  maxFindings: 3,
  samples: 3,
} as const;

interface ModelRow {
  provider: string;
  model: string;
  calls: number;
  cost: number;
  input: number;
  output: number;
}

/**
 * Models taking at least `minShare` of the AI spend at `minCostPerCallUsd` or more per call.
 * The advice to try a cheaper tier stays generic: the analyzer cannot judge answer quality.
 */
export const expensiveModels: Analyzer = {
  id: "cost.expensive-model",
  context: "cost",
  async analyze(ctx) {
    const sql = ctx.sql();
    const where = whereClause(sql, sql.within("timestamp", ctx.window));
    const table = sql.table("ai_spans");
    const rows = (
      await sql.query<Record<string, unknown>>(
        `SELECT provider, ${MODEL_SQL} AS model, count() AS calls, sum(cost_usd) AS cost,
                sum(input_tokens) AS input, sum(output_tokens) AS output
         FROM ${table} ${where} GROUP BY provider, model
         ORDER BY cost DESC, provider, model LIMIT 1000`,
      )
    ).map(
      (r): ModelRow => ({
        provider: String(r.provider),
        model: String(r.model),
        calls: num(r.calls),
        cost: num(r.cost),
        input: num(r.input),
        output: num(r.output),
      }),
    );
    const spend = rows.reduce((sum, r) => sum + r.cost, 0);
    if (spend <= 0) return [];
    const expensive = rows
      .filter(
        (r) =>
          r.calls >= EXPENSIVE_MODEL.minCalls &&
          r.cost / spend >= EXPENSIVE_MODEL.minShare &&
          r.cost / r.calls >= EXPENSIVE_MODEL.minCostPerCallUsd,
      )
      .slice(0, EXPENSIVE_MODEL.maxFindings);
    if (expensive.length === 0) return [];
    const key = (r: Pick<ModelRow, "provider" | "model">) => `${r.provider}/${r.model}`;
    const samples = await sql.query<{ key: string; trace_id: string }>(
      `SELECT concat(provider, '/', ${MODEL_SQL}) AS key, trace_id FROM ${table}
       ${where} AND has(${sql.bind(expensive.map(key))}, key)
       ORDER BY cost_usd DESC, trace_id LIMIT ${EXPENSIVE_MODEL.samples} BY key`,
    );
    // The cheapest per-call model with real volume, as a yardstick for the generic advice.
    const cheapest = rows
      .filter((r) => r.calls >= EXPENSIVE_MODEL.minCalls && r.cost > 0)
      .map((r) => r.cost / r.calls)
      .sort((a, b) => a - b)[0];
    return expensive.map((r) => {
      const share = ratio(r.cost, spend);
      const perCall = r.cost / r.calls;
      return recommend(expensiveModels, key(r), {
        severity: share >= EXPENSIVE_MODEL.mediumShare ? "medium" : "low",
        title: `${r.model} takes ${Math.round(share * 100)}% of AI spend at $${perCall.toFixed(4)} per call`,
        action:
          "Send simple, high-volume requests (classification, extraction, short answers) to a " +
          "smaller, cheaper tier of the same provider and keep this model for the hard cases; " +
          "cap output tokens. Compare answers on a sample before switching.",
        evidence: {
          metrics: {
            calls: r.calls,
            costUsd: usd(r.cost),
            shareOfSpend: share,
            costPerCallUsd: usd(perCall),
            totalSpendUsd: usd(spend),
            avgInputTokens: Math.round(r.input / r.calls),
            avgOutputTokens: Math.round(r.output / r.calls),
            ...(cheapest !== undefined && cheapest < perCall
              ? { cheapestCostPerCallUsd: usd(cheapest) }
              : {}),
          },
          labels: { provider: r.provider, model: r.model },
          traceIds: samples.filter((s) => s.key === key(r)).map((s) => s.trace_id),
        },
      });
    });
  },
};
