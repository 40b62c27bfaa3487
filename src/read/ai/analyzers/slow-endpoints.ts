import { HTTP_DURATION_BOUNDS_MS } from "../../../telemetry/tables.js";
import {
  type EndpointStats,
  endpointName,
  endpointSamples,
  endpointStats,
  pickPerEndpoint,
  statusBreakdown,
} from "../endpoints.js";
import { type Analyzer, recommend, severityAt } from "../recommendation.js";
import { compareText, histogramUpperBound, ms, ratio } from "../stats.js";

/** Thresholds of the slow-endpoint analyzer (documented in docs/read-api.md). */
export const SLOW_ENDPOINT = {
  /** Requests in the window before an endpoint is judged at all. */
  minRequests: 20,
  /** Average latency from which an endpoint is slow. */
  minAvgMs: 500,
  /** Share of its service's server time from which a slow endpoint is medium / high. */
  mediumShare: 0.2,
  highShare: 0.5,
  maxFindings: 5,
} as const;

const byTotalTime = (a: EndpointStats, b: EndpointStats) =>
  b.durationSumMs - a.durationSumMs || compareText(endpointName(a), endpointName(b));

/**
 * Endpoints whose average latency reaches `minAvgMs`, with their share of the server time of the
 * service that spends the most time on them (the outermost server, usually the gateway).
 */
export const slowEndpoints: Analyzer = {
  id: "performance.slow-endpoint",
  context: "performance",
  async analyze(ctx) {
    const { endpoints, serviceTimeMs } = await endpointStats(ctx);
    const slow = pickPerEndpoint(endpoints, (a, b) => byTotalTime(a, b) < 0)
      .filter(
        (e) =>
          e.requests >= SLOW_ENDPOINT.minRequests &&
          e.durationSumMs / e.requests >= SLOW_ENDPOINT.minAvgMs,
      )
      .sort(byTotalTime)
      .slice(0, SLOW_ENDPOINT.maxFindings);
    return Promise.all(
      slow.map(async (e) => {
        const serviceTime = serviceTimeMs.get(e.service) ?? e.durationSumMs;
        const share = ratio(e.durationSumMs, serviceTime);
        const avg = e.durationSumMs / e.requests;
        return recommend(slowEndpoints, endpointName(e), {
          severity: severityAt(
            share,
            [
              [SLOW_ENDPOINT.highShare, "high"],
              [SLOW_ENDPOINT.mediumShare, "medium"],
            ],
            "low",
          ),
          title: `${endpointName(e)} averages ${Math.round(avg)} ms and takes ${Math.round(share * 100)}% of ${e.service}'s server time`,
          action:
            "Open the slowest traces: look for sequential database or downstream calls that could " +
            "run in parallel or be batched, missing indexes, and work that could be cached or " +
            "moved to a background job.",
          evidence: {
            metrics: {
              requests: e.requests,
              avgMs: ms(avg),
              p95UpperBoundMs: histogramUpperBound(
                e.buckets,
                HTTP_DURATION_BOUNDS_MS,
                e.durationMaxMs,
                0.95,
              ),
              maxMs: ms(e.durationMaxMs),
              totalTimeMs: ms(e.durationSumMs),
              serviceTimeMs: ms(serviceTime),
              shareOfServiceTime: share,
            },
            labels: { service: e.service, method: e.method, route: e.route },
            breakdown: statusBreakdown(e),
            traceIds: await endpointSamples(ctx, e, "slowest"),
          },
        });
      }),
    );
  },
};
