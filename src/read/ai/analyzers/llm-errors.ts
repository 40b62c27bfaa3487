import { percent, rateAnalyzer } from "../llm-rate.js";

/** Thresholds of the LLM error analyzer (documented in docs/read-api.md). */
export const LLM_ERRORS = {
  minCalls: 20,
  minHits: 3,
  minRate: 0.05,
  severities: [
    [0.25, "high"],
    [0.1, "medium"],
  ],
} as const;

/** Models whose calls end with an error status (rate limits, timeouts, provider errors). */
export const llmErrors = rateAnalyzer({
  id: "quality.llm-errors",
  hits: "errors",
  thresholds: LLM_ERRORS,
  hit: () => "status = 'error'",
  breakdown: { dimension: "status_message", value: () => "left(status_message, 200)" },
  title: (model, hits, calls, rate) =>
    `${model} calls fail ${percent(rate)} of the time (${hits} of ${calls})`,
  action:
    "Look at the error messages below: retry rate limits and timeouts with backoff, fall back to " +
    "another model or region on provider outages, and fix invalid requests at the caller.",
});
