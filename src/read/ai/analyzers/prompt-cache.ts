import { num, whereClause } from "../../sql.js";
import { MODEL_SQL } from "../endpoints.js";
import { type Analyzer, recommend } from "../recommendation.js";
import { ratio } from "../stats.js";

/** Thresholds of the prompt-cache analyzer (documented in docs/read-api.md). */
export const PROMPT_CACHE = {
  minCalls: 20,
  /** Providers cache prompt prefixes from about 1024 tokens on; shorter prompts cannot hit. */
  minAvgInputTokens: 1024,
  /** Below this share of input tokens read from the cache, caching is poor. */
  maxHitRatio: 0.1,
  /** Average prompt size from which the finding is medium rather than low. */
  mediumAvgInputTokens: 4096,
  maxFindings: 3,
  samples: 3,
} as const;

/**
 * Providers (`gen_ai.provider.name` / `gen_ai.system`) with prompt caching, and how to use it
 * there. A provider missing here is never reported: adding one is one entry.
 */
export const PROMPT_CACHE_PROVIDERS: Readonly<Record<string, string>> = {
  openai:
    "OpenAI caches automatically: put the static part (system prompt, tools, examples) first and the variable part last, byte-identical across calls.",
  "azure.ai.openai":
    "Azure OpenAI caches automatically: put the static part (system prompt, tools, examples) first and the variable part last, byte-identical across calls.",
  anthropic:
    "Anthropic caches only marked prefixes: add a cache_control breakpoint after the static system prompt, tools and documents.",
  "aws.bedrock":
    "On Bedrock, add a cachePoint after the static prefix (system prompt, tools, documents) for models that support prompt caching.",
  "gcp.gemini":
    "Gemini caches implicitly for repeated prefixes; for large shared context create an explicit cached content.",
  "gcp.vertex_ai":
    "On Vertex AI, keep the shared prefix first for implicit caching, or create an explicit context cache for large shared context.",
  deepseek:
    "DeepSeek caches repeated prefixes automatically: keep the static part first and identical.",
};

/**
 * Models of a caching provider sending large prompts (`minAvgInputTokens`+) with less than
 * `maxHitRatio` of their input tokens read from the cache. Embedding calls are left out.
 */
export const promptCache: Analyzer = {
  id: "cost.prompt-cache",
  context: "cost",
  async analyze(ctx) {
    const sql = ctx.sql();
    const where = whereClause(sql, [
      ...sql.within("timestamp", ctx.window),
      `has(${sql.bind(Object.keys(PROMPT_CACHE_PROVIDERS))}, provider)`,
      "ai_operation NOT IN ('embeddings', 'embedding')",
    ]);
    const rows = await sql.query<Record<string, unknown>>(
      `SELECT provider, ${MODEL_SQL} AS model, count() AS calls, sum(input_tokens) AS input,
              sum(cache_read_tokens) AS cache_read, sum(cache_creation_tokens) AS cache_creation,
              arraySlice(arrayMap(x -> x.2, arraySort(x -> (-x.1, x.2),
                groupArray((input_tokens, trace_id)))), 1, ${PROMPT_CACHE.samples}) AS samples
       FROM ${sql.table("ai_spans")} ${where}
       GROUP BY provider, model
       HAVING calls >= ${sql.bind(PROMPT_CACHE.minCalls)}
          AND input >= calls * ${sql.bind(PROMPT_CACHE.minAvgInputTokens)}
          AND cache_read < input * ${sql.bind(PROMPT_CACHE.maxHitRatio)}
       ORDER BY input DESC, provider, model LIMIT ${PROMPT_CACHE.maxFindings}`,
    );
    return rows.map((r) => {
      const provider = String(r.provider);
      const model = String(r.model);
      const calls = num(r.calls);
      const input = num(r.input);
      const cacheRead = num(r.cache_read);
      const avgInput = Math.round(input / calls);
      const hitRatio = ratio(cacheRead, input);
      return recommend(promptCache, `${provider}/${model}`, {
        severity: avgInput >= PROMPT_CACHE.mediumAvgInputTokens ? "medium" : "low",
        title: `${model} reads only ${Math.round(hitRatio * 1000) / 10}% of ${avgInput}-token prompts from the prompt cache`,
        action:
          `${PROMPT_CACHE_PROVIDERS[provider] ?? ""} Cached input tokens cost a fraction of uncached ones.`.trim(),
        evidence: {
          metrics: {
            calls,
            inputTokens: input,
            cacheReadTokens: cacheRead,
            cacheCreationTokens: num(r.cache_creation),
            cacheHitRatio: hitRatio,
            avgInputTokens: avgInput,
          },
          labels: { provider, model },
          traceIds: (r.samples as unknown[]).map(String),
        },
      });
    });
  },
};
