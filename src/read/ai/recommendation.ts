import {
  type AiContext,
  type Evidence,
  RECOMMENDATION_SEVERITIES,
  type Recommendation,
  type RecommendationSeverity,
} from "../../contracts/ai.js";
import type { TimeWindow } from "../../lib/list-params.js";
import type { Sql } from "../sql.js";
import { compareText } from "./stats.js";

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
    severity: RecommendationSeverity;
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
  const bySeverity =
    RECOMMENDATION_SEVERITIES.indexOf(b.severity) - RECOMMENDATION_SEVERITIES.indexOf(a.severity);
  return bySeverity !== 0 ? bySeverity : compareText(a.id, b.id);
}

/**
 * The severity of a value against descending thresholds: the first `[min, severity]` pair the
 * value reaches, else `fallback`.
 */
export function severityAt(
  value: number,
  steps: readonly (readonly [number, RecommendationSeverity])[],
  fallback: RecommendationSeverity,
): RecommendationSeverity {
  for (const [min, severity] of steps) if (value >= min) return severity;
  return fallback;
}
