import { bucketMs, bucketStarts, isoMs } from "../../../lib/list-params.js";
import { num, whereClause } from "../../sql.js";
import { clientAddressSql } from "../endpoints.js";
import { type Analyzer, type AnalyzerContext, recommend, severityAt } from "../recommendation.js";
import { type SpikeEpisode, spikeEpisodes } from "../stats.js";

/** Thresholds of the 401/403 spike analyzer (documented in docs/read-api.md). */
export const AUTH_SPIKE = {
  /** A bucket is a spike with at least this many 401/403 answers… */
  minCount: 20,
  /** …and at least this many times the median bucket of the window. */
  factor: 5,
  /** Answers over an episode from which it is medium / high. */
  mediumTotal: 100,
  highTotal: 1000,
  maxFindings: 3,
  top: 5,
  samples: 3,
} as const;

/**
 * Spikes of 401/403 answers: the window is cut into the dashboard's buckets (zero-filled), and
 * buckets with `minCount`+ answers and `factor`× the median bucket form episodes, the largest
 * reported with their top routes and client addresses.
 */
export const authSpikes: Analyzer = {
  id: "security.auth-spike",
  context: "security",
  async analyze(ctx) {
    const step = bucketMs(ctx.window);
    const sql = ctx.sql();
    const stepParam = sql.bind(step);
    const rows = await sql.query<{ bucket: unknown; n: unknown }>(
      `SELECT intDiv(toUnixTimestamp(timestamp) * 1000, ${stepParam}) * ${stepParam} AS bucket,
              sum(request_count) AS n
       FROM ${sql.table("http_requests")}
       ${whereClause(sql, [...sql.within("timestamp", ctx.window), "status_code IN (401, 403)"])}
       GROUP BY bucket`,
    );
    const counts = new Map(rows.map((r) => [num(r.bucket), num(r.n)]));
    const series = bucketStarts(ctx.window, step).map((timeMs) => ({
      timeMs,
      count: counts.get(timeMs) ?? 0,
    }));
    const { median, threshold, episodes } = spikeEpisodes(series, step, AUTH_SPIKE);
    const largest = [...episodes]
      .sort((a, b) => b.total - a.total || a.startMs - b.startMs)
      .slice(0, AUTH_SPIKE.maxFindings);
    return Promise.all(
      largest.map(async (episode) => {
        const { routes, statuses, sources, traceIds } = await episodeDetails(ctx, episode);
        const start = isoMs(episode.startMs);
        return recommend(authSpikes, start, {
          severity: severityAt(
            episode.total,
            [
              [AUTH_SPIKE.highTotal, "high"],
              [AUTH_SPIKE.mediumTotal, "medium"],
            ],
            "low",
          ),
          title: `Spike of ${episode.total} 401/403 answers from ${start} (peak ${episode.peak} in ${step / 60_000} min, median ${median})`,
          action:
            "Check whether one client or address is guessing credentials or tokens: rate-limit or " +
            "block it, lock targeted accounts, and make sure a deploy did not break authentication.",
          evidence: {
            metrics: {
              total: episode.total,
              peak: episode.peak,
              buckets: episode.buckets,
              bucketSeconds: step / 1000,
              medianPerBucket: median,
              threshold,
            },
            labels: {
              from: start,
              to: isoMs(episode.endMs),
              peakAt: isoMs(episode.peakMs),
            },
            breakdown: [...statuses, ...routes, ...sources],
            traceIds,
          },
        });
      }),
    );
  },
};

/** The episode's statuses and top routes (http_requests), top client addresses and sample traces (server spans). */
async function episodeDetails(ctx: AnalyzerContext, episode: SpikeEpisode) {
  const sql = ctx.sql();
  const range = { fromMs: episode.startMs, toMs: episode.endMs };
  const requests = whereClause(sql, [
    ...sql.within("timestamp", range),
    "status_code IN (401, 403)",
  ]);
  const spans = whereClause(sql, [
    ...sql.within("timestamp", range),
    "span_kind = 'server'",
    "http_status_code IN (401, 403)",
  ]);
  const top = AUTH_SPIKE.top;
  const [byRoute, byStatus, bySource, samples] = await Promise.all([
    sql.query<{ value: string; n: unknown }>(
      `SELECT concat(method, ' ', route) AS value, sum(request_count) AS n
       FROM ${sql.table("http_requests")} ${requests}
       GROUP BY value ORDER BY n DESC, value LIMIT ${top}`,
    ),
    sql.query<{ value: unknown; n: unknown }>(
      `SELECT status_code AS value, sum(request_count) AS n
       FROM ${sql.table("http_requests")} ${requests} GROUP BY value ORDER BY value`,
    ),
    sql.query<{ value: string; n: unknown }>(
      `SELECT ${clientAddressSql(sql)} AS value, uniqExact(trace_id) AS n
       FROM ${sql.table("traces")} ${spans} AND value != ''
       GROUP BY value ORDER BY n DESC, value LIMIT ${top}`,
    ),
    sql.query<{ trace_id: string }>(
      `SELECT trace_id FROM ${sql.table("traces")} ${spans}
       GROUP BY trace_id ORDER BY min(timestamp), trace_id LIMIT ${AUTH_SPIKE.samples}`,
    ),
  ]);
  const entry = (dimension: string) => (r: { value: unknown; n: unknown }) => ({
    dimension,
    value: String(r.value),
    count: num(r.n),
  });
  return {
    statuses: byStatus.map(entry("status_code")),
    routes: byRoute.map(entry("route")),
    sources: bySource.map(entry("client_address")),
    traceIds: samples.map((r) => r.trace_id),
  };
}
