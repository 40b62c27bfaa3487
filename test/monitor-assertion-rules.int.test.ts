import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { OPERATORS, type Operator } from "../src/contracts/monitor-catalog.js";
import type { AssertionInput } from "../src/contracts/monitors.js";
import { label, titled, useAssertionTarget } from "./helpers/assertion-target.js";

const { check, assertOne } = useAssertionTarget();

// The spec's Assertion rules, each checked against real responses.

describe("rule 1: a transport failure evaluates no assertion", () => {
  const assertions: AssertionInput[] = [
    { type: "status_code", operator: "equals", value: "200" },
    { type: "body_not_contains", operator: "contains", value: "anything" },
  ];

  it.each([
    [
      "refused",
      async (): Promise<string> => {
        const closed = createServer();
        await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
        const port = (closed.address() as AddressInfo).port;
        await new Promise((resolve) => closed.close(resolve));
        return `http://127.0.0.1:${port}/`;
      },
      5,
    ],
    ["timeout", async (): Promise<string> => "/json?delay=3000", 1],
    ["dns", async (): Promise<string> => "http://nonexistent.invalid/", 5],
  ] as const)("%s", async (code, url, timeoutSeconds) => {
    const result = await check([{ url: await url(), assertions }], timeoutSeconds);
    const step = result.steps[0];
    expect(result.passed).toBe(false);
    expect(step?.status).toBe("failed");
    expect(step?.transportError?.code).toBe(code);
    expect(step?.transportError?.message).not.toBe("");
    expect(step?.assertions).toEqual([]);
    expect(step?.statusCode).toBeNull();
    if (code === "timeout") expect(step?.transportError?.message).toBe("timed out after 1 s");
  });
});

describe("rule 2: an unresolved path or absent header reads as empty", () => {
  const values: Record<Operator, string> = {
    equals: "",
    not_equals: "x",
    contains: "",
    not_contains: "x",
    less_than: "10",
    greater_than: "-10",
    matches: ".*",
  };
  const cases = OPERATORS.flatMap(
    (operator) =>
      [
        ["/json", { type: "json_path", path: "$.missing", operator, value: values[operator] }],
        ["/json", { type: "json_path", path: "$.items[5].id", operator, value: values[operator] }],
        ["/text", { type: "json_path", path: "$.name", operator, value: values[operator] }], // not JSON
        ["/json", { type: "header", name: "x-missing", operator, value: values[operator] }],
      ] as [string, AssertionInput][],
  );

  it.each(cases.map(([path, assertion]) => [label(assertion), path, assertion] as const))(
    "%s on %s",
    async (_, path, assertion) => {
      const result = await assertOne(path, assertion);
      expect(result.actual).toBeNull();
      expect(result.passed).toBe(
        assertion.operator === "not_equals" || assertion.operator === "not_contains",
      );
    },
  );
});

describe("rule 3: an empty path or header name fails with an explicit message", () => {
  it.each(
    titled([
      [
        { type: "json_path", path: "", operator: "not_equals", value: "x" },
        "The JSON path is empty",
      ],
      [
        { type: "json_path", path: "   ", operator: "not_contains", value: "x" },
        "The JSON path is empty",
      ],
      [
        { type: "header", name: "", operator: "not_equals", value: "x" },
        "The header name is empty",
      ],
    ] as [AssertionInput, string][]),
  )("%s", async (_, assertion, message) => {
    const result = await assertOne("/json", assertion);
    expect(result.passed).toBe(false);
    expect(result.message).toContain(message);
  });
});

describe("rule 4: header names are case-insensitive, values case-sensitive", () => {
  it.each(
    titled([
      [
        { type: "header", name: "X-CUSTOM", operator: "equals", value: "Value-CaseSensitive" },
        true,
      ],
      [{ type: "header", name: "Content-Type", operator: "contains", value: "json" }, true],
      [
        { type: "header", name: "x-custom", operator: "equals", value: "value-casesensitive" },
        false,
      ],
    ] as [AssertionInput, boolean][]),
  )("%s", async (_, assertion, passes) => {
    expect((await assertOne("/json", assertion)).passed).toBe(passes);
  });
});

describe("rule 5: JSON numbers are read as text and compare numerically", () => {
  it.each(
    titled([
      [{ type: "json_path", path: "$.price", operator: "less_than", value: "2" }, true, "1.50"],
      [
        { type: "json_path", path: "$.price", operator: "greater_than", value: "1.4" },
        true,
        "1.50",
      ],
      [{ type: "json_path", path: "$.price", operator: "equals", value: "1.50" }, true, "1.50"],
      [{ type: "json_path", path: "$.price", operator: "equals", value: "1.5" }, false, "1.50"],
      [
        { type: "json_path", path: "$.big", operator: "equals", value: "12345678901234567890" },
        true,
        "12345678901234567890",
      ],
      [
        { type: "json_path", path: "$.big", operator: "greater_than", value: "1e19" },
        true,
        "12345678901234567890",
      ],
      [{ type: "json_path", path: "$.id", operator: "equals", value: 42 }, true, "42"],
    ] as [AssertionInput, boolean, string][]),
  )("%s", async (_, assertion, passes, actual) => {
    const result = await assertOne("/json", assertion);
    expect(result.actual).toBe(actual);
    expect(result.passed).toBe(passes);
  });
});

describe("rule 6: response time is per request", () => {
  it("each step's assertion sees only its own request; the check shows the total", async () => {
    const result = await check([
      {
        url: "/json?delay=300",
        assertions: [{ type: "response_time", operator: "greater_than", value: "250" }],
      },
      {
        url: "/json",
        assertions: [{ type: "response_time", operator: "less_than", value: "250" }],
      },
    ]);
    expect(result.steps.map((s) => s.status)).toEqual(["passed", "passed"]);
    const [slow, fast] = result.steps.map((s) => s.durationMs ?? -1);
    expect(slow).toBeGreaterThanOrEqual(250);
    expect(fast).toBeLessThan(250);
    expect(result.durationMs).toBe((slow ?? 0) + (fast ?? 0));
    expect(result.steps[0]?.assertions[0]?.actual).toBe(String(slow));
    expect(result.steps[1]?.assertions[0]?.actual).toBe(String(fast));
  });
});

describe("rule 7: an object or array compares as its JSON text", () => {
  it.each(
    titled([
      [
        { type: "json_path", path: "$.nested", operator: "equals", value: '{"a":1,"b":[1,2]}' },
        true,
      ],
      [{ type: "json_path", path: "$.tags", operator: "equals", value: '["a","b"]' }, true],
      [
        { type: "json_path", path: "$.items", operator: "contains", value: '{"id":"second"}' },
        true,
      ],
      [
        { type: "json_path", path: "$.nested", operator: "equals", value: "[object Object]" },
        false,
      ],
    ] as [AssertionInput, boolean][]),
  )("%s", async (_, assertion, passes) => {
    expect((await assertOne("/json", assertion)).passed).toBe(passes);
  });

  it("null and booleans compare as their JSON text, an empty string as empty", async () => {
    const result = await check([
      {
        url: "/json",
        assertions: [
          { type: "json_path", path: "$.nothing", operator: "equals", value: "null" },
          { type: "json_path", path: "$.flag", operator: "equals", value: "true" },
          { type: "json_path", path: "$.empty", operator: "equals", value: "" },
        ],
      },
    ]);
    expect(result.steps[0]?.assertions.map((a) => [a.actual, a.passed])).toEqual([
      ["null", true],
      ["true", true],
      ["", true],
    ]);
  });
});

describe("failures stay local to their assertion", () => {
  it("a malformed regex fails only that assertion; the others in the step still evaluate", async () => {
    const result = await check([
      {
        url: "/json",
        assertions: [
          { type: "status_code", operator: "equals", value: "200" },
          { type: "json_path", path: "$.name", operator: "matches", value: "([" },
          { type: "header", name: "x-custom", operator: "matches", value: "^Value" },
        ],
      },
    ]);
    const [first, broken, last] = result.steps[0]?.assertions ?? [];
    expect(result.passed).toBe(false);
    expect(first?.passed).toBe(true);
    expect(broken?.passed).toBe(false);
    expect(broken?.message).toContain("invalid regular expression");
    expect(last?.passed).toBe(true);
  });

  it("a malformed regex fails body_not_contains too (it is not inverted into a pass)", async () => {
    const result = await assertOne("/text", {
      type: "body_not_contains",
      operator: "matches",
      value: "(",
    });
    expect(result.passed).toBe(false);
  });

  it.each(
    titled([
      [
        { type: "json_path", path: "$.name", operator: "less_than", value: "5" },
        '"Widget" is not a number',
      ],
      [
        { type: "json_path", path: "$.id", operator: "greater_than", value: "abc" },
        "is not a number",
      ],
      [{ type: "status_code", operator: "less_than", value: "abc" }, "is not a number"],
      [
        { type: "json_path", path: "$.empty", operator: "less_than", value: "1" },
        "is not a number",
      ],
    ] as [AssertionInput, string][]),
  )("less_than/greater_than with a non-number fails: %s", async (_, assertion, message) => {
    const result = await assertOne("/json", assertion);
    expect(result.passed).toBe(false);
    expect(result.message).toContain(message);
  });
});
