import { num, whereClause } from "../../sql.js";
import { type Analyzer, recommend } from "../recommendation.js";
import { ratio, stableKey, usd } from "../stats.js";

/** Thresholds of the expensive-prompt analyzer (documented in docs/read-api.md). */
export const EXPENSIVE_OPERATION = {
  minCalls: 20,
  /** Share of the window's AI spend from which a prompt or operation is expensive… */
  minShare: 0.25,
  /** …or an average prompt this large (input tokens per call), whatever its share. */
  minAvgInputTokens: 8000,
  mediumShare: 0.5,
  maxFindings: 3,
  samples: 3,
} as const;

/** Attributes naming the prompt (template) a call used, most specific first. */
export const PROMPT_ATTRIBUTES = [
  "gen_ai.prompt.name",
  "gen_ai.prompt.id",
  "gen_ai.prompt.template.name",
  "langfuse.prompt.name",
  "traceloop.entity.name",
  "prompt.name",
] as const;

/**
 * Prompts (by a prompt-identifying attribute) or, without one, operations (span names) that
 * take at least `minShare` of the AI spend or send `minAvgInputTokens` per call on average.
 */
export const expensiveOperations: Analyzer = {
  id: "cost.expensive-operation",
  context: "cost",
  async analyze(ctx) {
    const sql = ctx.sql();
    const where = whereClause(sql, sql.within("timestamp", ctx.window));
    const table = sql.table("ai_spans");
    const attribute = `arrayFirst(k -> attributes[k] != '', ${sql.bind([...PROMPT_ATTRIBUTES])})`;
    const keySql = `if(prompt_attribute != '', attributes[prompt_attribute], operation_name)`;
    const rows = await sql.query<Record<string, unknown>>(
      `SELECT ${attribute} AS prompt_attribute, ${keySql} AS key, count() AS calls,
              sum(cost_usd) AS cost, sum(input_tokens) AS input, sum(output_tokens) AS output,
              sum(sum(cost_usd)) OVER () AS spend,
              arraySlice(arrayMap(x -> x.2, arraySort(x -> (-x.1, x.2),
                groupArray((cost_usd, trace_id)))), 1, ${EXPENSIVE_OPERATION.samples}) AS samples
       FROM ${table} ${where}
       GROUP BY prompt_attribute, key
       ORDER BY cost DESC, key, prompt_attribute LIMIT 1000`,
    );
    const found = rows
      .map((r) => ({
        attribute: String(r.prompt_attribute),
        key: String(r.key),
        calls: num(r.calls),
        cost: num(r.cost),
        input: num(r.input),
        output: num(r.output),
        spend: num(r.spend),
        samples: (r.samples as unknown[]).map(String),
      }))
      .filter(
        (r) =>
          r.calls >= EXPENSIVE_OPERATION.minCalls &&
          ((r.spend > 0 && r.cost / r.spend >= EXPENSIVE_OPERATION.minShare) ||
            r.input / r.calls >= EXPENSIVE_OPERATION.minAvgInputTokens),
      )
      .slice(0, EXPENSIVE_OPERATION.maxFindings);
    return found.map((r) => {
      const share = ratio(r.cost, r.spend);
      const avgInput = Math.round(r.input / r.calls);
      const what = r.attribute ? "Prompt" : "Operation";
      return recommend(
        expensiveOperations,
        `${r.attribute ? "prompt" : "operation"}:${stableKey(r.key)}`,
        {
          severity: share >= EXPENSIVE_OPERATION.mediumShare ? "medium" : "low",
          title: `${what} ${r.key} takes ${Math.round(share * 100)}% of AI spend with ${avgInput} input tokens per call`,
          action:
            "Trim the prompt: drop unused instructions and examples, send only the context the " +
            "answer needs (retrieve fewer or shorter chunks, summarize history), cap output " +
            "tokens, and cache the static prefix where the provider supports it.",
          evidence: {
            metrics: {
              calls: r.calls,
              costUsd: usd(r.cost),
              shareOfSpend: share,
              costPerCallUsd: usd(r.cost / r.calls),
              avgInputTokens: avgInput,
              avgOutputTokens: Math.round(r.output / r.calls),
            },
            labels: r.attribute ? { prompt: r.key, attribute: r.attribute } : { operation: r.key },
            traceIds: r.samples,
          },
        },
      );
    });
  },
};
