import { z } from "zod";
import {
  ALERT_INTERVAL_NAMES,
  type AlertInterval,
  DEFAULT_MESSAGE_TEMPLATE,
  NO_DATA_MODES,
  type NoDataMode,
} from "../../contracts/alert-catalog.js";
import { AlertCondition, PresetRef } from "../../contracts/alerts.js";

/**
 * A validated rule definition as stored (`alert_rules.definition`). The query itself is the
 * rule's `query` column: the user's, or the preset compiled (then `preset` is set).
 */
export interface AlertRuleDefinition {
  preset: PresetRef | null;
  condition: AlertCondition;
  interval: AlertInterval;
  forSeconds: number;
  noData: NoDataMode;
  renotifyMinutes: number;
  openIncident: boolean;
  messageTemplate: string;
  /** The escalation policy run on the rule's incidents (docs/escalation.md); null = none. */
  escalationPolicyId: string | null;
}

/** Reads a stored definition back (it was validated on the way in; defaults fill old gaps). */
const StoredDefinition = z.object({
  preset: PresetRef.nullable().default(null),
  condition: AlertCondition,
  interval: z.enum(ALERT_INTERVAL_NAMES).default("1m"),
  forSeconds: z.number().int().min(0).default(0),
  noData: z.enum(NO_DATA_MODES).default("ok"),
  renotifyMinutes: z.number().int().min(0).default(0),
  openIncident: z.boolean().default(false),
  messageTemplate: z.string().default(DEFAULT_MESSAGE_TEMPLATE),
  escalationPolicyId: z.string().nullable().default(null),
});

/** A stored definition's JSON text read back. */
export const parseAlertRuleDefinition = (text: string): AlertRuleDefinition =>
  StoredDefinition.parse(JSON.parse(text));
