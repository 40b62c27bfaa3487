import {
  type EndpointStats,
  endpointName,
  endpointSamples,
  endpointStats,
  pickPerEndpoint,
  statusBreakdown,
} from "../endpoints.js";
import { type Analyzer, recommend, severityAt } from "../recommendation.js";
import { compareText, ratio } from "../stats.js";

/** Thresholds of the error hot-spot analyzer (documented in docs/read-api.md). */
export const ERROR_HOT_SPOT = {
  minRequests: 20,
  minErrors: 5,
  minErrorRate: 0.05,
  /** Error rates from which a hot spot is medium / high / critical. */
  mediumRate: 0.1,
  highRate: 0.25,
  criticalRate: 0.5,
  maxFindings: 5,
} as const;

const moreErrors = (a: EndpointStats, b: EndpointStats) =>
  b.errors - a.errors || b.requests - a.requests || compareText(a.service, b.service);

/**
 * Endpoints failing (5xx or error status) at `minErrorRate` or more with enough volume. Each
 * endpoint speaks through the service reporting the most failures on it.
 */
export const errorHotSpots: Analyzer = {
  id: "performance.error-hot-spot",
  context: "performance",
  async analyze(ctx) {
    const { endpoints } = await endpointStats(ctx);
    const hot = pickPerEndpoint(endpoints, (a, b) => moreErrors(a, b) < 0)
      .filter(
        (e) =>
          e.requests >= ERROR_HOT_SPOT.minRequests &&
          e.errors >= ERROR_HOT_SPOT.minErrors &&
          e.errors / e.requests >= ERROR_HOT_SPOT.minErrorRate,
      )
      .sort((a, b) => moreErrors(a, b) || compareText(endpointName(a), endpointName(b)))
      .slice(0, ERROR_HOT_SPOT.maxFindings);
    return Promise.all(
      hot.map(async (e) => {
        const rate = ratio(e.errors, e.requests);
        return recommend(errorHotSpots, endpointName(e), {
          severity: severityAt(
            rate,
            [
              [ERROR_HOT_SPOT.criticalRate, "critical"],
              [ERROR_HOT_SPOT.highRate, "high"],
              [ERROR_HOT_SPOT.mediumRate, "medium"],
            ],
            "low",
          ),
          title: `${endpointName(e)} fails ${Math.round(rate * 1000) / 10}% of requests (${e.errors} of ${e.requests}) in ${e.service}`,
          action:
            "Open the failing traces and the error groups of this route: fix the most frequent " +
            "exception first, and add a regression test for it.",
          evidence: {
            metrics: { requests: e.requests, errors: e.errors, errorRate: rate },
            labels: { service: e.service, method: e.method, route: e.route },
            breakdown: statusBreakdown(e),
            traceIds: await endpointSamples(ctx, e, "failing"),
          },
        });
      }),
    );
  },
};
