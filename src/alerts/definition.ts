import { createHash } from "node:crypto";
import { ALERT_INTERVALS, type AlertInterval } from "../contracts/alert-catalog.js";
import type { AlertCondition, ParsedAlertRuleInput } from "../contracts/alerts.js";
import type { AlertRuleDefinition } from "../meta/repositories/alert-rule-definition.js";

// A rule's definition on the domain side: its period, its condition, and how a validated input
// becomes the stored definition. The input schemas are contracts/alerts.ts.

export const intervalMs = (interval: AlertInterval): number => ALERT_INTERVALS[interval] * 1000;

/** True when `value` breaches the condition. */
export function breaches(condition: AlertCondition, value: number): boolean {
  const t = condition.threshold;
  switch (condition.op) {
    case ">":
      return value > t;
    case ">=":
      return value >= t;
    case "<":
      return value < t;
    case "<=":
      return value <= t;
    case "=":
      return value === t;
    case "!=":
      return value !== t;
  }
}

export function toDefinition(parsed: ParsedAlertRuleInput): AlertRuleDefinition {
  return {
    preset: parsed.preset ?? null,
    condition: parsed.condition,
    interval: parsed.interval,
    forSeconds: parsed.forSeconds,
    noData: parsed.noData,
    renotifyMinutes: parsed.renotifyMinutes,
    openIncident: parsed.openIncident,
    messageTemplate: parsed.messageTemplate,
    escalationPolicyId: parsed.escalationPolicyId,
  };
}

/** Series key: the labels sorted by name, JSON-encoded (`{}` for a rule without labels). */
export function seriesKey(labels: Readonly<Record<string, string>>): string {
  const sorted: Record<string, string> = Object.create(null);
  for (const name of Object.keys(labels).sort()) sorted[name] = labels[name] ?? "";
  return JSON.stringify(sorted);
}

/** A series key's short stable hash (first 16 hex of its SHA-256), for event ids. */
export const seriesKeyHash = (key: string): string =>
  createHash("sha256").update(key).digest("hex").slice(0, 16);
