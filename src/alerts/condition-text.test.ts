import { describe, expect, it } from "vitest";
import type { AlertRuleDefinition } from "../meta/repositories/alert-rule-definition.js";
import { conditionText } from "./evaluation-writes.js";

const definition = (preset: AlertRuleDefinition["preset"], threshold: number) => ({
  definition: {
    preset,
    condition: { op: ">" as const, threshold },
    interval: "1m" as const,
    forSeconds: 0,
    noData: "ok" as const,
    renotifyMinutes: 0,
    openIncident: false,
    messageTemplate: "",
    escalationPolicyId: null,
  },
});

describe("a notification's condition", () => {
  it("says the threshold in the rule's unit, as the dashboard does", () => {
    expect(conditionText(definition({ kind: "error_rate", params: {} }, 5))).toBe("value > 5%");
    expect(conditionText(definition({ kind: "latency_percentile", params: {} }, 800))).toBe(
      "value > 800 ms",
    );
    expect(conditionText(definition({ kind: "log_count", params: {} }, 10))).toBe("value > 10");
    expect(conditionText(definition(null, 0.5))).toBe("value > 0.5");
  });
});
