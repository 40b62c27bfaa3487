import type { RecommendationSeverity } from "../../contracts/ai.js";
import { num, type Sql, whereClause } from "../sql.js";
import { MODEL_SQL } from "./endpoints.js";
import { type Analyzer, recommend, severityAt } from "./recommendation.js";
import { ratio } from "./stats.js";

/** Volume and rate thresholds of a per-model rate analyzer. */
export interface RateThresholds {
  /** Calls of one model in the window before it is judged at all. */
  minCalls: number;
  /** Hits needed whatever the rate, so a couple of failures never make a finding. */
  minHits: number;
  minRate: number;
  /** `[rate, severity]` steps, highest first; below them the finding is low. */
  severities: readonly (readonly [number, RecommendationSeverity])[];
}

/** How one quality analyzer counts: which calls qualify and which of them are hits. */
export interface RateAnalyzerOptions {
  id: string;
  /** Noun for a hit in metrics and titles, e.g. `errors`. */
  hits: string;
  thresholds: RateThresholds;
  /** Condition on ai_spans selecting the calls that can hit (default: all). */
  scope?: (sql: Sql) => string;
  hit: (sql: Sql) => string;
  /** A per-hit value to break hits down by (status message, finish reason). */
  breakdown?: { dimension: string; value: (sql: Sql) => string };
  title: (model: string, hits: number, calls: number, rate: number) => string;
  action: string;
}

const MAX_FINDINGS = 5;
const SAMPLES = 3;
const TOP = 3;

/**
 * A quality analyzer over AI spans: per provider and model, the share of qualifying calls that
 * hit a condition, reported when volume, hit count and rate all reach the thresholds.
 */
export function rateAnalyzer(options: RateAnalyzerOptions): Analyzer {
  const analyzer: Analyzer = {
    id: options.id,
    context: "quality",
    async analyze(ctx) {
      const sql = ctx.sql();
      const t = options.thresholds;
      const table = sql.table("ai_spans");
      const where = whereClause(sql, [
        ...sql.within("timestamp", ctx.window),
        ...(options.scope ? [options.scope(sql)] : []),
      ]);
      const hit = options.hit(sql);
      const rows = await sql.query<Record<string, unknown>>(
        `SELECT provider, ${MODEL_SQL} AS model, count() AS calls, countIf(${hit}) AS hits
         FROM ${table} ${where} GROUP BY provider, model
         HAVING calls >= ${sql.bind(t.minCalls)} AND hits >= ${sql.bind(t.minHits)}
            AND hits >= calls * ${sql.bind(t.minRate, "Float64")}
         ORDER BY hits DESC, provider, model LIMIT ${MAX_FINDINGS}`,
      );
      if (rows.length === 0) return [];
      const key = `concat(provider, '/', ${MODEL_SQL})`;
      const flagged = `${where} AND ${hit} AND has(${sql.bind(rows.map((r) => `${r.provider}/${r.model}`))}, ${key})`;
      const [samples, breakdown] = await Promise.all([
        sql.query<{ key: string; trace_id: string }>(
          `SELECT ${key} AS key, trace_id FROM ${table} ${flagged}
           ORDER BY timestamp DESC, trace_id LIMIT ${SAMPLES} BY key`,
        ),
        options.breakdown
          ? sql.query<{ key: string; value: string; n: unknown }>(
              `SELECT ${key} AS key, ${options.breakdown.value(sql)} AS value, count() AS n
               FROM ${table} ${flagged} GROUP BY key, value
               ORDER BY n DESC, value LIMIT ${TOP} BY key`,
            )
          : Promise.resolve([]),
      ]);
      return rows.map((r) => {
        const provider = String(r.provider);
        const model = String(r.model);
        const subject = `${provider}/${model}`;
        const calls = num(r.calls);
        const hits = num(r.hits);
        const rate = ratio(hits, calls);
        return recommend(analyzer, subject, {
          severity: severityAt(rate, t.severities, "low"),
          title: options.title(model, hits, calls, rate),
          action: options.action,
          evidence: {
            metrics: { calls, [options.hits]: hits, rate },
            labels: { provider, model },
            breakdown: breakdown
              .filter((b) => b.key === subject)
              .map((b) => ({
                dimension: options.breakdown?.dimension ?? "value",
                value: b.value,
                count: num(b.n),
              })),
            traceIds: samples.filter((s) => s.key === subject).map((s) => s.trace_id),
          },
        });
      });
    },
  };
  return analyzer;
}

/** A rate as a percentage with one decimal, for titles. */
export const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;
