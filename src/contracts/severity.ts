/** The severities of alert rules and incidents, one set for both, in rising order. */
export const SEVERITIES = ["low", "medium", "high", "critical"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Rank for sorting: low 0 … critical 3 (the position in SEVERITIES). */
export const SEVERITY_RANK = Object.fromEntries(SEVERITIES.map((s, i) => [s, i])) as Record<
  Severity,
  number
>;
