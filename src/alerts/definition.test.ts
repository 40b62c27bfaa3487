import { describe, expect, it } from "vitest";
import { renderMessage, templatePlaceholders } from "../contracts/alert-catalog.js";
import { CreateAlertRuleInput } from "../contracts/alerts.js";
import { InvalidInputError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import { breaches, seriesKey, seriesKeyHash, toDefinition } from "./definition.js";

const fieldsOf = (input: unknown): string[] => {
  try {
    parseInput(CreateAlertRuleInput, input);
    return [];
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    return error.issues.map((i) => i.field);
  }
};

describe("alert rule definition", () => {
  const base = { name: "Errors", query: "SELECT 1 AS value", condition: { op: ">", threshold: 1 } };

  it("applies defaults", () => {
    const parsed = parseInput(CreateAlertRuleInput, base);
    expect(toDefinition(parsed)).toEqual({
      preset: null,
      condition: { op: ">", threshold: 1 },
      interval: "1m",
      forSeconds: 0,
      noData: "ok",
      renotifyMinutes: 0,
      openIncident: false,
      messageTemplate: "value {{value}} (threshold {{threshold}})",
      escalationPolicyId: null,
    });
    expect(parsed).toMatchObject({ severity: "medium", description: "", channelIds: [] });
  });

  it("names each bad field", () => {
    expect(fieldsOf({ ...base, condition: { op: "~", threshold: 1 } })).toEqual(["condition.op"]);
    expect(fieldsOf({ ...base, interval: "2m" })).toEqual(["interval"]);
    expect(fieldsOf({ ...base, forSeconds: 86_401 })).toEqual(["forSeconds"]);
    expect(fieldsOf({ ...base, renotifyMinutes: -1 })).toEqual(["renotifyMinutes"]);
    expect(fieldsOf({ ...base, noData: "nodata" })).toEqual(["noData"]);
    expect(fieldsOf({ ...base, severity: "urgent" })).toEqual(["severity"]);
    expect(fieldsOf({ ...base, messageTemplate: "{{values}}" })).toEqual(["messageTemplate"]);
    expect(fieldsOf({ name: "x", condition: base.condition })).toEqual(["query"]);
    expect(fieldsOf({ ...base, preset: { kind: "error_rate", params: {} } })).toEqual(["query"]);
  });

  it("renders templates; an unknown label stays literal", () => {
    expect(
      renderMessage("{{value}} > {{ threshold }} on {{labels.service}} {{labels.zone}}", {
        value: 0.123456789,
        threshold: 0.1,
        labels: { service: "api" },
      }),
    ).toBe("0.123457 > 0.1 on api {{labels.zone}}");
    expect(renderMessage("{{value}}", { value: null, threshold: 1, labels: {} })).toBe("no data");
    expect(templatePlaceholders("{{labels.a}} {{x}} {{value}}")).toEqual({
      labels: ["a"],
      unknown: ["x"],
    });
  });

  it("compares with every operator and keys series by sorted labels", () => {
    const check = (op: ">" | ">=" | "<" | "<=" | "=" | "!=", v: number) =>
      breaches({ op, threshold: 1 }, v);
    expect([check(">", 2), check(">", 1), check(">=", 1), check("<", 0), check("<=", 2)]).toEqual([
      true,
      false,
      true,
      true,
      false,
    ]);
    expect([check("=", 1), check("!=", 1)]).toEqual([true, false]);
    expect(seriesKey({ z: "1", a: "2" })).toBe('{"a":"2","z":"1"}');
    expect(seriesKey({})).toBe("{}");
    expect(seriesKeyHash("{}")).toBe("44136fa355b3678a");
  });
});
