import { z } from "zod";

/** The severities of alert rules and incidents, one set for both, in rising order. */
export const SEVERITIES = ["low", "medium", "high", "critical"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Rank for sorting: low 0 … critical 3 (the position in SEVERITIES). */
export const SEVERITY_RANK = Object.fromEntries(SEVERITIES.map((s, i) => [s, i])) as Record<
  Severity,
  number
>;

/** A count per severity, every severity present (the dashboards' `bySeverity`). */
export const SeverityCounts = z.object(
  Object.fromEntries(SEVERITIES.map((s) => [s, z.number().int()])) as Record<Severity, z.ZodNumber>,
);
export type SeverityCounts = z.infer<typeof SeverityCounts>;
