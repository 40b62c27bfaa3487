import { percent, rateAnalyzer } from "../llm-rate.js";

/** Thresholds of the truncated-response analyzer (documented in docs/read-api.md). */
export const TRUNCATED_RESPONSES = {
  minCalls: 20,
  minHits: 3,
  minRate: 0.05,
  severities: [[0.25, "medium"]],
} as const;

/** Finish reasons meaning the answer hit the output token limit (OpenAI, Anthropic, Gemini). */
export const LENGTH_REASONS = ["length", "max_tokens", "max_output_tokens"] as const;

/** Models whose answers are cut off by the output token limit. */
export const truncatedResponses = rateAnalyzer({
  id: "quality.truncated-responses",
  hits: "truncated",
  thresholds: TRUNCATED_RESPONSES,
  hit: (sql) => `arrayExists(r -> has(${sql.bind([...LENGTH_REASONS])}, lower(r)), finish_reasons)`,
  title: (model, hits, calls, rate) =>
    `${percent(rate)} of ${model} answers are cut off at the token limit (${hits} of ${calls})`,
  action:
    "Raise max_tokens for this call, ask for shorter answers in the prompt, or stream and " +
    "continue long answers; a truncated answer is often unusable (broken JSON, half a sentence).",
});
