// The read API's AI views (GET /v1/ai/dashboard: usage and the analyzers' recommendations),
// shared with the dashboard (docs/read-api.md).
import { z } from "zod";

/** The areas the dashboard's analyzers look at; `context` selects one of them. */
export const AI_CONTEXTS = ["performance", "security", "cost", "quality"] as const;
export type AiContext = (typeof AI_CONTEXTS)[number];

/** Severities from least to most urgent. */
export const RECOMMENDATION_SEVERITIES = ["info", "low", "medium", "high", "critical"] as const;
export type RecommendationSeverity = (typeof RECOMMENDATION_SEVERITIES)[number];

export const Evidence = z
  .object({
    metrics: z
      .record(z.string(), z.number())
      .describe("The measured numbers the finding rests on (counts, rates 0–1, ms, USD)"),
    labels: z
      .record(z.string(), z.string())
      .describe("What the finding is about: route, service, model, kind…"),
    breakdown: z
      .array(z.object({ dimension: z.string(), value: z.string(), count: z.number().int() }))
      .describe("Top contributors with their counts, e.g. routes, client addresses, statuses"),
    excerpts: z
      .array(z.string())
      .describe("Short texts for context (statements, masked log excerpts); secrets are masked"),
    traceIds: z.array(z.string()).describe("Sample traces showing the finding"),
    logIds: z.array(z.string()).describe("Sample log records showing the finding"),
  })
  .meta({ id: "AiEvidence" });
export type Evidence = z.infer<typeof Evidence>;

export const Recommendation = z
  .object({
    id: z
      .string()
      .describe("`<analyzer>:<subject>`, the same for the same finding on every request"),
    analyzer: z.string().describe("The analyzer that produced it"),
    context: z.enum(AI_CONTEXTS),
    severity: z.enum(RECOMMENDATION_SEVERITIES),
    title: z.string(),
    evidence: Evidence,
    action: z.string().describe("A suggested fix"),
  })
  .meta({ id: "AiRecommendation" });
export type Recommendation = z.infer<typeof Recommendation>;

const Tokens = z.object({
  input: z.number().int().describe("Input (prompt) tokens, cached ones included"),
  output: z.number().int(),
  cacheRead: z.number().int().describe("Input tokens served from the provider's prompt cache"),
  cacheCreation: z.number().int().describe("Input tokens written to the prompt cache"),
  total: z.number().int().describe("input + output"),
});

export const Usage = z.object({
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
export type Usage = z.infer<typeof Usage>;

/** A model as people name it: the answering model, with the requested one when it differs. */
export const modelName = (m: { requestModel: string; responseModel: string }): string =>
  m.responseModel || m.requestModel || "(unknown model)";
