import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ASSERTION_TYPES, OPERATORS, type Operator } from "../src/contracts/monitor-catalog.js";
import { type AssertionInput, CreateMonitorInput } from "../src/contracts/monitors.js";
import { createOutboundAgent } from "../src/lib/http/outbound-agent.js";
import type { CheckResult } from "../src/monitors/check-result.js";
import { toDefinition } from "../src/monitors/definition.js";
import { runCheck } from "../src/monitors/runner.js";

/** Written by hand so number texts (1.50, a 20-digit id) reach the client exactly as here. */
const JSON_TEXT =
  '{"id":42,"name":"Widget","price":1.50,"big":12345678901234567890,"tags":["a","b"],' +
  '"nested":{"a":1,"b":[1,2]},"items":[{"id":"first"},{"id":"second"}],"empty":"",' +
  '"nothing":null,"flag":true}';
const TEXT = "Hello, World! status ok";

let server: Server;
let base: string;
let agent: Agent;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const reply = () => {
      switch (url.pathname) {
        case "/json":
          res.writeHead(200, {
            "Content-Type": "application/json; charset=utf-8",
            "X-Custom": "Value-CaseSensitive",
            "X-Count": "5",
          });
          res.end(JSON_TEXT);
          return;
        case "/text":
          res.writeHead(200, { "content-type": "text/plain" }).end(TEXT);
          return;
        case "/status":
          res.writeHead(Number(url.searchParams.get("code"))).end();
          return;
        default:
          res.writeHead(404).end("not found");
      }
    };
    setTimeout(reply, Number(url.searchParams.get("delay") ?? 0));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agent = createOutboundAgent({ allowPrivateNetworks: true });
});

afterAll(async () => {
  await agent.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const clock = { now: () => new Date("2025-01-02T03:04:05.678Z") };

interface StepInput {
  url: string;
  assertions: AssertionInput[];
}

/** Runs a monitor through the same schema the API uses, so every row is a definition a user could save. */
function check(steps: StepInput[], timeoutSeconds = 5): Promise<CheckResult> {
  const definition = toDefinition(
    CreateMonitorInput.parse({
      name: "assertions",
      type: steps.length === 1 ? "api" : "flow",
      timeoutSeconds,
      steps: steps.map((step) => ({
        ...step,
        url: step.url.startsWith("/") ? base + step.url : step.url,
      })),
    }),
  );
  return runCheck(definition, {
    dispatcher: agent,
    clock,
    maxResponseBytes: 1 << 20,
    storedBodyBytes: 1024,
  });
}

async function assertOne(path: string, assertion: AssertionInput) {
  const result = await check([{ url: path, assertions: [assertion] }]);
  const step = result.steps[0];
  expect(step?.transportError).toBeNull();
  const evaluated = step?.assertions[0];
  if (!evaluated) throw new Error("no assertion result");
  expect(result.passed).toBe(evaluated.passed);
  return evaluated;
}

interface Row {
  path: string;
  assertion: AssertionInput;
  passes: boolean;
  /** The value read, when the row pins it. */
  actual?: string | null;
}

/** A readable test title (vitest would read "$.name" inside %j as a parameter reference). */
const label = (a: AssertionInput) =>
  [a.type, "path" in a ? a.path : "name" in a ? a.name : "", a.operator, JSON.stringify(a.value)]
    .filter((part) => part !== "")
    .join(" ");
const titled = <T extends [AssertionInput, ...unknown[]]>(rows: T[]) =>
  rows.map((r) => [label(r[0]), ...r] as [string, ...T]);

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
