import { describe, expect, it } from "vitest";
import { ASSERTION_TYPES, type Operator } from "../src/contracts/monitor-catalog.js";
import type { AssertionInput } from "../src/contracts/monitors.js";
import { label, TEXT, useAssertionTarget } from "./helpers/assertion-target.js";

const { assertOne } = useAssertionTarget();

interface Row {
  path: string;
  assertion: AssertionInput;
  passes: boolean;
  /** The value read, when the row pins it. */
  actual?: string | null;
}

const row = (
  path: string,
  assertion: AssertionInput,
  passes: boolean,
  actual?: string | null,
): Row => ({
  path,
  assertion,
  passes,
  ...(actual === undefined ? {} : { actual }),
});
const status = (operator: Operator, value: string, passes: boolean) =>
  row("/json", { type: "status_code", operator, value } as AssertionInput, passes, "200");
const time = (path: string, operator: Operator, value: string, passes: boolean) =>
  row(path, { type: "response_time", operator, value } as AssertionInput, passes);
const body = (
  type: "body_contains" | "body_not_contains",
  operator: Operator,
  value: string,
  passes: boolean,
) => row("/text", { type, operator, value } as AssertionInput, passes, TEXT);
const json = (
  path: string,
  operator: Operator,
  value: string,
  passes: boolean,
  actual?: string | null,
) => row("/json", { type: "json_path", path, operator, value } as AssertionInput, passes, actual);
const header = (
  name: string,
  operator: Operator,
  value: string,
  passes: boolean,
  actual?: string | null,
) => row("/json", { type: "header", name, operator, value } as AssertionInput, passes, actual);

/** Every assertion type × each of its operators, once passing and once failing. */
const TABLE: Row[] = [
  status("equals", "200", true),
  status("equals", "201", false),
  status("not_equals", "404", true),
  status("not_equals", "200", false),
  status("less_than", "300", true),
  status("less_than", "200", false),
  status("greater_than", "199", true),
  status("greater_than", "200", false),
  status("matches", "^2\\d\\d$", true),
  status("matches", "^4", false),

  time("/json", "less_than", "5000", true),
  time("/json?delay=200", "less_than", "150", false),
  time("/json?delay=200", "greater_than", "150", true),
  time("/json", "greater_than", "60000", false),

  body("body_contains", "contains", "World", true),
  body("body_contains", "contains", "world", false), // case-sensitive
  body("body_contains", "not_contains", "error", true),
  body("body_contains", "not_contains", "Hello", false),
  body("body_contains", "equals", TEXT, true),
  body("body_contains", "equals", "Hello", false),
  body("body_contains", "not_equals", "Hello", true),
  body("body_contains", "not_equals", TEXT, false),
  body("body_contains", "matches", "^Hello.*ok$", true),
  body("body_contains", "matches", "^World", false),

  body("body_not_contains", "contains", "error", true), // absent: passes
  body("body_not_contains", "contains", "World", false), // present: fails
  body("body_not_contains", "equals", "Hello", true),
  body("body_not_contains", "equals", TEXT, false),
  body("body_not_contains", "matches", "^bye", true),
  body("body_not_contains", "matches", "World!", false),

  json("$.name", "equals", "Widget", true, "Widget"),
  json("$.name", "equals", "widget", false, "Widget"), // case-sensitive
  json("$.name", "not_equals", "Gadget", true),
  json("$.name", "not_equals", "Widget", false),
  json("$.name", "contains", "idg", true),
  json("$.name", "contains", "IDG", false),
  json("$.name", "not_contains", "xyz", true),
  json("$.name", "not_contains", "Wid", false),
  json("$.id", "less_than", "100", true, "42"),
  json("$.id", "less_than", "42", false),
  json("$.id", "greater_than", "41", true),
  json("$.id", "greater_than", "42", false),
  json("$.items[0].id", "matches", "^fi", true, "first"),
  json("items[1].id", "matches", "^fi", false, "second"),

  header("content-type", "equals", "application/json; charset=utf-8", true),
  header("content-type", "equals", "application/json", false),
  header("x-custom", "not_equals", "other", true),
  header("x-custom", "not_equals", "Value-CaseSensitive", false),
  header("x-custom", "contains", "Case", true),
  header("x-custom", "contains", "case", false), // rule 4: values are case-sensitive
  header("x-custom", "not_contains", "case", true),
  header("x-custom", "not_contains", "Case", false),
  header("x-count", "less_than", "10", true, "5"),
  header("x-count", "less_than", "5", false),
  header("x-count", "greater_than", "4.5", true),
  header("x-count", "greater_than", "5", false),
  header("x-custom", "matches", "^Value-", true),
  header("x-custom", "matches", "^value-", false),
];

describe("every assertion type × operator", () => {
  it("the table covers each allowed operator of each type with a passing and a failing row", () => {
    for (const [type, spec] of Object.entries(ASSERTION_TYPES))
      for (const operator of spec.operators)
        for (const passes of [true, false])
          expect(
            TABLE.some(
              (r) =>
                r.assertion.type === type &&
                r.assertion.operator === operator &&
                r.passes === passes,
            ),
            `${type} ${operator} ${passes ? "passing" : "failing"}`,
          ).toBe(true);
  });

  const rows = TABLE.map(
    (r) => [`${label(r.assertion)} ${r.passes ? "passes" : "fails"}`, r] as const,
  );
  it.each(rows)("%s", async (_, r) => {
    const result = await assertOne(r.path, r.assertion);
    expect(result.passed, result.message).toBe(r.passes);
    if (r.actual !== undefined) expect(result.actual).toBe(r.actual);
    expect(result.expected).toBe(String(r.assertion.value));
    expect(result.message).not.toBe("");
  });
});
