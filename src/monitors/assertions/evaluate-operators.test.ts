import { describe, expect, it } from "vitest";
import type { Operator } from "../../contracts/monitor-catalog.js";
import type { Assertion } from "../../contracts/monitors.js";
import { toNumber } from "./operators.js";
import { json, run } from "./sample-response.test-helper.js";

// The operators (spec: Assertion): strings compare case-sensitively, less/greater than numerically.

describe("operators on strings", () => {
  it("equals / not_equals: exact and case-sensitive", () => {
    expect(json("$.name", "equals", "Alice").passed).toBe(true);
    expect(json("$.name", "equals", "alice").passed).toBe(false);
    expect(json("$.name", "equals", "Alice ").passed).toBe(false);
    expect(json("$.name", "equals", "Ali").passed).toBe(false);
    expect(json("$.name", "not_equals", "alice").passed).toBe(true);
    expect(json("$.name", "not_equals", "Alice").passed).toBe(false);
    expect(json("$.empty", "equals", "").passed).toBe(true);
    expect(json("$.empty", "not_equals", "").passed).toBe(false);
  });

  it("contains / not_contains: substring, case-sensitive", () => {
    expect(json("$.name", "contains", "lic").passed).toBe(true);
    expect(json("$.name", "contains", "LIC").passed).toBe(false);
    expect(json("$.name", "contains", "").passed).toBe(true);
    expect(json("$.name", "not_contains", "LIC").passed).toBe(true);
    expect(json("$.name", "not_contains", "lic").passed).toBe(false);
  });

  it("matches: unanchored, case-sensitive JavaScript regex", () => {
    expect(json("$.name", "matches", "lic").passed).toBe(true);
    expect(json("$.name", "matches", "^lic$").passed).toBe(false);
    expect(json("$.name", "matches", "^A\\w+e$").passed).toBe(true);
    expect(json("$.name", "matches", "^alice$").passed).toBe(false);
    expect(json("$.name", "matches", "(?i)alice").passed).toBe(false);
    expect(json("$.name", "matches", "").passed).toBe(true);
  });

  it("matches: a malformed pattern fails the assertion with a message, without throwing", () => {
    const result = json("$.name", "matches", "([a-z");
    expect(result.passed).toBe(false);
    expect(result.message).toMatch(/^invalid regular expression: /);
    expect(json("$.name", "matches", "*").passed).toBe(false);
  });
});

describe("operators on numbers", () => {
  it("less_than / greater_than compare numerically, not as text", () => {
    expect(json("$.count", "less_than", "10").passed).toBe(true); // "7" > "10" as text
    expect(json("$.count", "greater_than", "10").passed).toBe(false);
    expect(json("$.count", "less_than", "7").passed).toBe(false);
    expect(json("$.count", "greater_than", "7").passed).toBe(false);
    expect(json("$.count", "greater_than", "6.99").passed).toBe(true);
    expect(json("$.count", "greater_than", "-1e2").passed).toBe(true);
    expect(json("$.count", "less_than", " 8 ").passed).toBe(true);
  });

  it("equals compares numbers as text", () => {
    expect(json("$.price", "equals", "1.50").passed).toBe(true);
    expect(json("$.price", "equals", "1.5").passed).toBe(false);
    expect(json("$.count", "equals", "7.0").passed).toBe(false);
  });

  it("status code", () => {
    const status = (operator: Operator, value: string, code = 200) =>
      run({ type: "status_code", operator, value } as Assertion, { status: code }).passed;
    expect(status("equals", "200")).toBe(true);
    expect(status("equals", "201")).toBe(false);
    expect(status("not_equals", "500")).toBe(true);
    expect(status("less_than", "400")).toBe(true);
    expect(status("greater_than", "399", 404)).toBe(true);
    expect(status("matches", "^2\\d\\d$", 204)).toBe(true);
    expect(status("matches", "^2", 500)).toBe(false);
    expect(run({ type: "status_code", operator: "equals", value: "200" }).actual).toBe("200");
  });

  it("response time", () => {
    const time = (operator: "less_than" | "greater_than", value: string, ms: number) =>
      run({ type: "response_time", operator, value }, { durationMs: ms });
    expect(time("less_than", "3000", 120).passed).toBe(true);
    expect(time("less_than", "3000", 3000).passed).toBe(false);
    expect(time("greater_than", "100", 120).passed).toBe(true);
    expect(time("less_than", "3000", 120)).toMatchObject({
      actual: "120",
      message: "120 is less than 3000",
    });
  });

  it.each(["", "   ", "abc", "Infinity", "-Infinity", "NaN", "1,5"])(
    "fails when either side is not a number: %j",
    (text) => {
      for (const operator of ["less_than", "greater_than"] as const) {
        const expected = run({ type: "response_time", operator, value: text });
        expect(expected.passed).toBe(false);
        expect(expected.message).toContain("the expected value");
        expect(expected.message).toContain("is not a number");
        const read = run(
          { type: "header", name: "x-n", operator, value: "5" },
          {
            headers: { "x-n": text },
          },
        );
        expect(read.passed).toBe(false);
        expect(read.message).toBe(`${JSON.stringify(text)} is not a number`);
      }
    },
  );

  it("toNumber follows JavaScript number coercion, except empty text and infinities", () => {
    expect(toNumber("12")).toBe(12);
    expect(toNumber(" 12 ")).toBe(12);
    expect(toNumber("1e3")).toBe(1000);
    expect(toNumber("-0.5")).toBe(-0.5);
    expect(toNumber("0x10")).toBe(16);
    expect(toNumber("")).toBeUndefined();
    expect(toNumber("Infinity")).toBeUndefined();
    expect(toNumber("12abc")).toBeUndefined();
  });
});
