// The shape of GET /v1/ai/dashboard (src/read/ai/dashboard.ts and recommendation.ts).

export const AI_CONTEXTS = ["performance", "security", "cost", "quality"] as const;

export interface Usage {
  calls: number;
  errors: number;
  errorRate: number;
  tokens: {
    input: number;
    output: number;
    cacheRead: number;
    cacheCreation: number;
    total: number;
  };
  costUsd: number;
  latencyMs: { avg: number; p50: number; p95: number };
}

export interface ModelUsage extends Usage {
  provider: string;
  requestModel: string;
  responseModel: string;
}

export interface Recommendation {
  id: string;
  analyzer: string;
  context: (typeof AI_CONTEXTS)[number];
  severity: "info" | "low" | "medium" | "high" | "critical";
  title: string;
  evidence: {
    metrics: Record<string, number>;
    labels: Record<string, string>;
    breakdown: { dimension: string; value: string; count: number }[];
    excerpts: string[];
    traceIds: string[];
    logIds: string[];
  };
  action: string;
}

export interface AiDashboard {
  from: string;
  to: string;
  bucketSeconds: number;
  contexts: string[];
  analyzers: { id: string; context: string }[];
  summary: Usage;
  byModel: ModelUsage[];
  byProvider: (Usage & { provider: string })[];
  topOperations: (Usage & { operation: string; aiOperation: string })[];
  series: {
    time: string;
    calls: number;
    errors: number;
    inputTokens: number;
    outputTokens: number;
    totalTokens: number;
    costUsd: number;
  }[];
  recommendations: Recommendation[];
}

/** A model as people name it: the answering model, with the requested one when it differs. */
export const modelName = (m: Pick<ModelUsage, "requestModel" | "responseModel">) =>
  m.responseModel || m.requestModel || "(unknown model)";
