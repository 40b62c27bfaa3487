import { percent, rateAnalyzer } from "../llm-rate.js";

/** Thresholds of the content-filter analyzer (documented in docs/read-api.md). */
export const CONTENT_FILTER = {
  minCalls: 20,
  minHits: 3,
  minRate: 0.02,
  severities: [
    [0.2, "high"],
    [0.05, "medium"],
  ],
} as const;

/** Finish reasons meaning a provider's safety system stopped the answer. */
export const FILTER_REASONS = [
  "content_filter",
  "safety",
  "recitation",
  "blocklist",
  "prohibited_content",
  "spii",
  "refusal",
] as const;

/** Models whose answers are stopped by the provider's content filter. */
export const contentFilter = rateAnalyzer({
  id: "quality.content-filter",
  hits: "filtered",
  thresholds: CONTENT_FILTER,
  hit: (sql) => `arrayExists(r -> has(${sql.bind([...FILTER_REASONS])}, lower(r)), finish_reasons)`,
  breakdown: {
    dimension: "finish_reason",
    value: (sql) =>
      `arrayJoin(arrayFilter(r -> has(${sql.bind([...FILTER_REASONS])}, lower(r)), finish_reasons))`,
  },
  title: (model, hits, calls, rate) =>
    `The content filter stops ${percent(rate)} of ${model} answers (${hits} of ${calls})`,
  action:
    "Read the sampled traces: rephrase system prompts that invite filtered content, screen user " +
    "input before sending it, and handle a filtered answer with a clear message to the user.",
});
