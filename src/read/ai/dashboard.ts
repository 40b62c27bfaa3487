import { z } from "zod";
import {
  bucketMs,
  bucketStarts,
  dashboardWindow,
  isoMs,
  WindowQuery,
} from "../../lib/list-params.js";
import type { ReadDeps } from "../read-deps.js";
import { num, Sql, whereClause } from "../sql.js";
import { ANALYZERS } from "./analyzers/index.js";
import {
  AI_CONTEXTS,
  type Analyzer,
  type AnalyzerContext,
  compareRecommendations,
  Recommendation,
} from "./recommendation.js";
import { ms, ratio, usd } from "./stats.js";

export const AiDashboardQuery = z
  .object({
    context: z
      .enum(AI_CONTEXTS)
      .optional()
      .describe("Only the recommendations of this area; all four when absent"),
    ...WindowQuery.shape,
  })
  .strict();
export type AiDashboardQuery = z.infer<typeof AiDashboardQuery>;

const Tokens = z.object({
  input: z.number().int().describe("Input (prompt) tokens, cached ones included"),
  output: z.number().int(),
  cacheRead: z.number().int().describe("Input tokens served from the provider's prompt cache"),
  cacheCreation: z.number().int().describe("Input tokens written to the prompt cache"),
  total: z.number().int().describe("input + output"),
});

const Usage = z.object({
  calls: z.number().int(),
  errors: z.number().int().describe("Calls with status error"),
  errorRate: z.number().describe("errors / calls, 0 without calls"),
  tokens: Tokens,
  costUsd: z.number().describe("Estimated from the price table at ingestion"),
  latencyMs: z.object({
    avg: z.number(),
    p50: z.number(),
    p95: z.number(),
  }),
});

export const AiDashboard = z
  .object({
    from: z.string(),
    to: z.string(),
    bucketSeconds: z.number().int(),
    contexts: z.array(z.enum(AI_CONTEXTS)).describe("The areas analyzed"),
    analyzers: z
      .array(z.object({ id: z.string(), context: z.enum(AI_CONTEXTS) }))
      .describe("The analyzers that ran"),
    summary: Usage.describe("Every AI call (span with gen_ai.* attributes) in the window"),
    byModel: z
      .array(
        Usage.extend({
          provider: z.string(),
          requestModel: z.string(),
          responseModel: z.string(),
        }),
      )
      .describe("By provider, requested and answering model; highest cost first (at most 50)"),
    byProvider: z
      .array(Usage.extend({ provider: z.string() }))
      .describe("Highest cost first (at most 50)"),
    topOperations: z
      .array(Usage.extend({ operation: z.string(), aiOperation: z.string() }))
      .describe("By span name and gen_ai.operation.name; highest cost first (at most 10)"),
    series: z
      .array(
        z.object({
          time: z.string(),
          calls: z.number().int(),
          errors: z.number().int(),
          inputTokens: z.number().int(),
          outputTokens: z.number().int(),
          totalTokens: z.number().int(),
          costUsd: z.number(),
        }),
      )
      .describe("Calls, tokens and cost per bucket, every bucket present"),
    recommendations: z
      .array(Recommendation)
      .describe("Findings of the analyzers, most severe first, then by id"),
  })
  .meta({ id: "AiDashboard" });
export type AiDashboard = z.infer<typeof AiDashboard>;
type Usage = z.infer<typeof Usage>;

const USAGE_SELECT = `count() AS calls, countIf(status = 'error') AS errors,
  sum(input_tokens) AS input, sum(output_tokens) AS output, sum(cache_read_tokens) AS cache_read,
  sum(cache_creation_tokens) AS cache_creation, sum(total_tokens) AS total,
  sum(cost_usd) AS cost, avg(duration_ms) AS latency_avg,
  quantiles(0.5, 0.95)(duration_ms) AS latency`;

type Row = Record<string, unknown>;

function toUsage(row: Row | undefined): Usage {
  const calls = num(row?.calls);
  const errors = num(row?.errors);
  const [p50, p95] = ((row?.latency as unknown[] | undefined) ?? []).map(num);
  return {
    calls,
    errors,
    errorRate: ratio(errors, calls),
    tokens: {
      input: num(row?.input),
      output: num(row?.output),
      cacheRead: num(row?.cache_read),
      cacheCreation: num(row?.cache_creation),
      total: num(row?.total),
    },
    costUsd: usd(num(row?.cost)),
    // An empty group has no latency; the engine answers NaN/null there.
    latencyMs: {
      avg: calls > 0 ? ms(num(row?.latency_avg)) : 0,
      p50: calls > 0 ? ms(p50 ?? 0) : 0,
      p95: calls > 0 ? ms(p95 ?? 0) : 0,
    },
  };
}

const BY_COST = "cost DESC, calls DESC";

/**
 * The AI dashboard (default: the last 24h): usage, cost and latency of the project's AI calls
 * overall, by model, provider and operation and over time, and the recommendations of the
 * analyzers of the requested context (all of them without one).
 */
export async function aiDashboard(
  deps: ReadDeps,
  projectId: string,
  query: AiDashboardQuery,
  analyzers: readonly Analyzer[] = ANALYZERS,
): Promise<AiDashboard> {
  const window = dashboardWindow(query, deps.clock.now().getTime());
  const step = bucketMs(window);
  const contexts = query.context ? [query.context] : [...AI_CONTEXTS];
  const selected = analyzers.filter((a) => contexts.includes(a.context));
  const ctx: AnalyzerContext = { window, sql: () => new Sql(deps.telemetry, projectId) };

  const sql = ctx.sql();
  const where = whereClause(sql, sql.within("timestamp", window));
  const table = sql.table("ai_spans");
  const [totals, models, providers, operations, buckets, findings] = await Promise.all([
    sql.query<Row>(`SELECT ${USAGE_SELECT} FROM ${table} ${where}`),
    sql.query<Row>(
      `SELECT provider, request_model, response_model, ${USAGE_SELECT} FROM ${table} ${where}
       GROUP BY provider, request_model, response_model
       ORDER BY ${BY_COST}, provider, request_model, response_model LIMIT 50`,
    ),
    sql.query<Row>(
      `SELECT provider, ${USAGE_SELECT} FROM ${table} ${where}
       GROUP BY provider ORDER BY ${BY_COST}, provider LIMIT 50`,
    ),
    sql.query<Row>(
      `SELECT operation_name, ai_operation, ${USAGE_SELECT} FROM ${table} ${where}
       GROUP BY operation_name, ai_operation
       ORDER BY ${BY_COST}, operation_name, ai_operation LIMIT 10`,
    ),
    sql.query<Row>(
      `SELECT ${sql.bucket("timestamp", step)} AS bucket,
              count() AS calls, countIf(status = 'error') AS errors,
              sum(input_tokens) AS input, sum(output_tokens) AS output,
              sum(total_tokens) AS total, sum(cost_usd) AS cost
       FROM ${table} ${where} GROUP BY bucket`,
    ),
    Promise.all(selected.map((a) => a.analyze(ctx))),
  ]);

  const byBucket = new Map(buckets.map((b) => [num(b.bucket), b]));
  return {
    from: isoMs(window.fromMs),
    to: isoMs(window.toMs),
    bucketSeconds: step / 1000,
    contexts,
    analyzers: selected.map((a) => ({ id: a.id, context: a.context })),
    summary: toUsage(totals[0]),
    byModel: models.map((m) => ({
      provider: String(m.provider),
      requestModel: String(m.request_model),
      responseModel: String(m.response_model),
      ...toUsage(m),
    })),
    byProvider: providers.map((p) => ({ provider: String(p.provider), ...toUsage(p) })),
    topOperations: operations.map((o) => ({
      operation: String(o.operation_name),
      aiOperation: String(o.ai_operation),
      ...toUsage(o),
    })),
    series: bucketStarts(window, step).map((time) => {
      const b = byBucket.get(time);
      return {
        time: isoMs(time),
        calls: num(b?.calls),
        errors: num(b?.errors),
        inputTokens: num(b?.input),
        outputTokens: num(b?.output),
        totalTokens: num(b?.total),
        costUsd: usd(num(b?.cost)),
      };
    }),
    recommendations: findings.flat().sort(compareRecommendations),
  };
}
