import { percent, rateAnalyzer } from "../llm-rate.js";

/** Thresholds of the empty-output analyzer (documented in docs/read-api.md). */
export const EMPTY_OUTPUTS = {
  minCalls: 20,
  minHits: 3,
  minRate: 0.05,
  severities: [[0.25, "medium"]],
} as const;

/** Operations that produce no output tokens by design. */
export const NO_OUTPUT_OPERATIONS = [
  "embeddings",
  "embedding",
  "execute_tool",
  "create_agent",
] as const;

/**
 * Successful generation calls that report input tokens but no output tokens. Calls without any
 * usage (instrumentation that reports none) and failed calls are not counted.
 */
export const emptyOutputs = rateAnalyzer({
  id: "quality.empty-outputs",
  hits: "empty",
  thresholds: EMPTY_OUTPUTS,
  scope: (sql) =>
    `input_tokens > 0 AND status != 'error' AND NOT has(${sql.bind([...NO_OUTPUT_OPERATIONS])}, ai_operation)`,
  hit: () => "output_tokens = 0",
  breakdown: {
    dimension: "finish_reason",
    value: () => "arrayJoin(if(empty(finish_reasons), [''], finish_reasons))",
  },
  title: (model, hits, calls, rate) =>
    `${percent(rate)} of ${model} answers are empty (${hits} of ${calls} calls produced no tokens)`,
  action:
    "Check the sampled traces for stop sequences that fire immediately, tool-call-only answers " +
    "your code ignores, or prompts that leave nothing to say; retry or fall back on an empty answer.",
});
