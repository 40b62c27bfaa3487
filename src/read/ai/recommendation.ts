import { z } from "zod";
import type { TimeWindow } from "../../lib/list-params.js";
import type { Sql } from "../sql.js";
import { compareText } from "./stats.js";

/** The areas the dashboard's analyzers look at; `context` selects one of them. */
export const AI_CONTEXTS = ["performance", "security", "cost", "quality"] as const;
export type AiContext = (typeof AI_CONTEXTS)[number];

/** Severities from least to most urgent. */
export const SEVERITIES = ["info", "low", "medium", "high", "critical"] as const;
export type Severity = (typeof SEVERITIES)[number];

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
    severity: z.enum(SEVERITIES),
    title: z.string(),
    evidence: Evidence,
    action: z.string().describe("A suggested fix"),
  })
  .meta({ id: "AiRecommendation" });
export type Recommendation = z.infer<typeof Recommendation>;

/** What an analyzer reads: the project's telemetry in the dashboard's window. */
export interface AnalyzerContext {
  window: TimeWindow;
  /** A fresh SQL builder confined to the project. */
  sql(): Sql;
}

/** One deterministic analyzer; the registry in analyzers/index.ts lists them. */
export interface Analyzer {
  /** `<context>.<name>`, the prefix of every recommendation id it produces. */
  id: string;
  context: AiContext;
  analyze(ctx: AnalyzerContext): Promise<Recommendation[]>;
}

/** A recommendation of `analyzer` about `subject`, with absent evidence parts empty. */
export function recommend(
  analyzer: Pick<Analyzer, "id" | "context">,
  subject: string,
  fields: {
    severity: Severity;
    title: string;
    action: string;
    evidence: Partial<Evidence>;
  },
): Recommendation {
  return {
    id: `${analyzer.id}:${subject}`,
    analyzer: analyzer.id,
    context: analyzer.context,
    severity: fields.severity,
    title: fields.title,
    evidence: {
      metrics: fields.evidence.metrics ?? {},
      labels: fields.evidence.labels ?? {},
      breakdown: fields.evidence.breakdown ?? [],
      excerpts: fields.evidence.excerpts ?? [],
      traceIds: fields.evidence.traceIds ?? [],
      logIds: fields.evidence.logIds ?? [],
    },
    action: fields.action,
  };
}

/** Most severe first, then by id, so equal inputs always give the same order. */
export function compareRecommendations(a: Recommendation, b: Recommendation): number {
  const bySeverity = SEVERITIES.indexOf(b.severity) - SEVERITIES.indexOf(a.severity);
  return bySeverity !== 0 ? bySeverity : compareText(a.id, b.id);
}

/**
 * The severity of a value against descending thresholds: the first `[min, severity]` pair the
 * value reaches, else `fallback`.
 */
export function severityAt(
  value: number,
  steps: readonly (readonly [number, Severity])[],
  fallback: Severity,
): Severity {
  for (const [min, severity] of steps) if (value >= min) return severity;
  return fallback;
}
