import { z } from "zod";
import { AI_CONTEXTS, type AiDashboard, type Usage } from "../../contracts/ai.js";
import {
  bucketMs,
  bucketStarts,
  dashboardWindow,
  isoMs,
  WindowQuery,
} from "../../lib/list-params.js";
import type { ReadCtx } from "../read-deps.js";
import { requestReads } from "../request-reads.js";
import { num, Sql, whereClause } from "../sql.js";
import { ANALYZERS } from "./analyzers/index.js";
import { type Analyzer, type AnalyzerContext, compareRecommendations } from "./recommendation.js";
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
export async function aiDashboard({
  ctx,
  projectId,
  analyzers = ANALYZERS,
  ...query
}: {
  ctx: ReadCtx;
  projectId: string;
  analyzers?: readonly Analyzer[];
} & AiDashboardQuery): Promise<AiDashboard> {
  const deps = ctx.deps.read;
  const window = dashboardWindow(query, deps.clock.now().getTime());
  const step = bucketMs(window);
  const contexts = query.context ? [query.context] : [...AI_CONTEXTS];
  const selected = analyzers.filter((a) => contexts.includes(a.context));
  // Twenty statements or so: handed to the engine a few at a time (see requestReads).
  const telemetry = requestReads(deps.telemetry);
  const reading: AnalyzerContext = { window, sql: () => new Sql(telemetry, projectId) };

  const sql = reading.sql();
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
    Promise.all(selected.map((a) => a.analyze(reading))),
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
