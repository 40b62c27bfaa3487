import type { Threshold } from "../../../../../src/contracts/dashboards.js";

export type ThresholdColor = Threshold["color"];

/**
 * The colour of a value against a panel's thresholds, read as steps (Grafana's way): the
 * highest threshold at or below the value wins; below every one, or with none, the value has no
 * threshold colour (null) and takes the panel's default.
 */
export function thresholdColor(
  value: number | null | undefined,
  thresholds: readonly Threshold[],
): ThresholdColor | null {
  if (value === null || value === undefined || Number.isNaN(value)) return null;
  let chosen: Threshold | null = null;
  for (const threshold of thresholds)
    if (value >= threshold.value && (chosen === null || threshold.value >= chosen.value))
      chosen = threshold;
  return chosen?.color ?? null;
}

/** A threshold colour as CSS: the theme's variable (dashboards-panels.css sets light and dark). */
export const thresholdVar = (color: ThresholdColor): string => `var(--panel-${color})`;
