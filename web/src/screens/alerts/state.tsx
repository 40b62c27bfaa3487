import { withUnit } from "../../../../src/contracts/alert-catalog";
import type { AlertRuleView } from "../../../../src/contracts/alerts";
import { StateBadge } from "../../components/ui";

/** What the list filters on: a muted rule is "muted" whatever its series do. */
export const RULE_STATES = [
  { key: "firing", label: "Firing" },
  { key: "pending", label: "Pending" },
  { key: "ok", label: "OK" },
  { key: "error", label: "Failing" },
  { key: "muted", label: "Muted" },
] as const;

export const ruleStateKey = (rule: AlertRuleView): string => (rule.muted ? "muted" : rule.state);

/**
 * The rule's state in words: muted, or its worst series state (ok, pending, firing), or failing
 * (its evaluations fail: its series keep their last states, so it is never shown as ok).
 */
export function RuleStateBadge({ rule }: { rule: AlertRuleView }) {
  if (rule.state === "error")
    return (
      <span title={rule.failing?.reason}>
        {rule.muted && (
          <>
            <StateBadge state="muted" tone="muted" />{" "}
          </>
        )}
        <StateBadge state="failing" tone="bad" />
      </span>
    );
  if (rule.muted)
    return (
      <>
        <StateBadge state="muted" tone="muted" />
        {rule.state !== "ok" && (
          <>
            {" "}
            <StateBadge state={rule.state} />
          </>
        )}
      </>
    );
  return <StateBadge state={rule.state} tone={rule.state === "ok" ? "ok" : undefined} />;
}

export function SeverityBadge({ severity }: { severity: AlertRuleView["severity"] }) {
  const tone =
    severity === "critical" || severity === "high"
      ? "bad"
      : severity === "medium"
        ? "warn"
        : "info";
  return <StateBadge state={severity} tone={tone} />;
}

/** `value > 5%`: the threshold in the rule's unit. */
export const conditionText = (rule: Pick<AlertRuleView, "condition" | "unit">) =>
  `value ${rule.condition.op} ${withUnit(rule.condition.threshold, rule.unit)}`;
