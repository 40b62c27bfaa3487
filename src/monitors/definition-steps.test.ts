import { describe, expect, it } from "vitest";
import { OPERATORS } from "../contracts/monitor-catalog.js";
import { Assertion } from "../contracts/monitors.js";
import {
  type Input,
  issuePaths,
  issues,
  monitor,
  ok,
  parse,
  statusEquals,
  step,
} from "./monitor-input.test-helper.js";

// A step's request, assertions and extractions as the input schema checks them.

describe("request", () => {
  it.each(["POST", "PUT", "PATCH"])("%s takes a body", (method) => {
    expect(ok(monitor({ steps: [step({ method, body: '{"a":1}' })] })).steps[0]?.body).toBe(
      '{"a":1}',
    );
  });

  it.each(["GET", "HEAD", "DELETE", "OPTIONS"])("%s refuses a body on steps.0.body", (method) => {
    expect(issues(monitor({ steps: [step({ method, body: "x" })] }))).toEqual([
      `steps.0.body: a request body is only sent with POST, PUT or PATCH, not ${method}`,
    ]);
    // An empty body is what forms send for "none": accepted, and not sent.
    expect(ok(monitor({ steps: [step({ method, body: "" })] })).steps[0]?.method).toBe(method);
  });

  it("refuses an unknown method and a non-HTTP URL", () => {
    expect(issuePaths(monitor({ steps: [step({ method: "get" })] }))).toEqual(["steps.0.method"]);
    expect(issuePaths(monitor({ steps: [step({ url: "ftp://x" })] }))).toEqual(["steps.0.url"]);
    expect(issuePaths(monitor({ steps: [step({ url: "https://a b" })] }))).toEqual(["steps.0.url"]);
  });

  it.each(["host", "Host", "content-length", "Content-Length", "transfer-encoding", "connection"])(
    "refuses the computed header %s",
    (name) => {
      expect(issues(monitor({ steps: [step({ headers: [{ name, value: "x" }] })] }))).toEqual([
        `steps.0.headers.0.name: ${name} is set by the HTTP client`,
      ]);
    },
  );

  it.each(["a\r\nX-Injected: 1", "a\nb", "a\rb", "a\0b"])(
    "refuses the header value %j",
    (value) => {
      expect(issues(monitor({ steps: [step({ headers: [{ name: "x-a", value }] })] }))).toEqual([
        "steps.0.headers.0.value: must not contain line breaks",
      ]);
    },
  );

  it("accepts ordinary headers and refuses invalid names", () => {
    const headers = [{ name: "Authorization", value: "Bearer {{token}}" }];
    expect(ok(monitor({ steps: [step({ headers })] })).steps[0]?.headers).toEqual(headers);
    expect(
      issuePaths(monitor({ steps: [step({ headers: [{ name: "bad name", value: "" }] })] })),
    ).toEqual(["steps.0.headers.0.name"]);
  });
});

describe("assertions", () => {
  it("converts number values to text", () => {
    const parsed = Assertion.parse({ type: "status_code", operator: "equals", value: 200 });
    expect(parsed).toEqual({ type: "status_code", operator: "equals", value: "200" });
    expect(
      Assertion.parse({ type: "response_time", operator: "less_than", value: 1.5 }).value,
    ).toBe("1.5");
    expect(
      Assertion.safeParse({ type: "status_code", operator: "equals", value: true }).success,
    ).toBe(false);
    expect(Assertion.safeParse({ type: "status_code", operator: "equals" }).success).toBe(false);
  });

  const allowed = {
    status_code: ["equals", "not_equals", "less_than", "greater_than", "matches"],
    response_time: ["less_than", "greater_than"],
    body_contains: ["contains", "not_contains", "equals", "not_equals", "matches"],
    body_not_contains: ["contains", "equals", "matches"],
    json_path: OPERATORS,
    header: OPERATORS,
  } as const;
  for (const [type, operators] of Object.entries(allowed))
    for (const operator of OPERATORS) {
      const accepted = (operators as readonly string[]).includes(operator);
      it(`${type} ${accepted ? "takes" : "refuses"} ${operator}`, () => {
        const assertion = { type, operator, value: "1", path: "$.a", name: "x-a" };
        if (type !== "json_path") delete (assertion as Partial<typeof assertion>).path;
        if (type !== "header") delete (assertion as Partial<typeof assertion>).name;
        const input = monitor({ steps: [step({ assertions: [assertion] })] });
        if (accepted) expect(ok(input).steps[0]?.assertions?.[0]?.operator).toBe(operator);
        else
          expect(issues(input)).toEqual([
            `steps.0.assertions.0.operator: ${type} assertions take ${operators.join(", ")}`,
          ]);
      });
    }

  it("refuses an unknown assertion type", () => {
    const assertion = { type: "body_size", operator: "less_than", value: "1" };
    expect(issuePaths(monitor({ steps: [step({ assertions: [assertion] })] }))).toEqual([
      "steps.0.assertions.0.type",
    ]);
  });

  it("refuses a path with a wildcard at save", () => {
    const assertion = { type: "json_path", path: "$.items[*].id", operator: "equals", value: "1" };
    expect(issues(monitor({ steps: [step({ assertions: [assertion] })] }))).toEqual([
      "steps.0.assertions.0.path: wildcards ([*]) are not supported in '$.items[*].id'",
    ]);
  });

  it("accepts an empty or missing path or header name at save (rule 3 fails it when run)", () => {
    const empty = [
      { type: "json_path", path: "", operator: "equals", value: "1" },
      { type: "json_path", path: "   ", operator: "equals", value: "1" },
      { type: "json_path", operator: "equals", value: "1" },
      { type: "header", name: "", operator: "equals", value: "1" },
      { type: "header", operator: "equals", value: "1" },
    ];
    const parsed = ok(monitor({ steps: [step({ assertions: empty })] }));
    expect(
      parsed.steps[0]?.assertions?.map((a) =>
        "path" in a ? a.path : "name" in a ? a.name : undefined,
      ),
    ).toEqual(["", "   ", "", "", ""]);
  });

  it("refuses a path or name on the wrong type", () => {
    const assertion = { type: "status_code", operator: "equals", value: "200", path: "$.a" };
    expect(issuePaths(monitor({ steps: [step({ assertions: [assertion] })] }))).toEqual([
      "steps.0.assertions.0",
    ]);
  });
});

describe("extract", () => {
  const extracting = (...extract: Input[]) =>
    monitor({ type: "flow", steps: [step({ extract }), step()] });

  it("accepts names and supported paths", () => {
    const extract = [
      { name: "token", path: "$.token" },
      { name: "user.id", path: "data.users[0].id" },
    ];
    expect(ok(extracting(...extract)).steps[0]?.extract).toEqual(extract);
  });

  it("validates the path", () => {
    expect(issues(extracting({ name: "ids", path: "$..id" }))).toEqual([
      "steps.0.extract.0.path: recursive descent (..) is not supported in '$..id'",
    ]);
    expect(new Set(issuePaths(extracting({ name: "ids", path: "" })))).toEqual(
      new Set(["steps.0.extract.0.path"]),
    );
    expect(issues(extracting({ name: "ids", path: "  " }))).toEqual([
      "steps.0.extract.0.path: the JSON path is empty",
    ]);
  });

  it("validates the name", () => {
    for (const name of ["", "1st", "a b", "{{x}}"])
      expect(issuePaths(extracting({ name, path: "$.a" }))).toEqual(["steps.0.extract.0.name"]);
  });

  it("refuses a name extracted twice, within a step or across steps", () => {
    expect(issues(extracting({ name: "t", path: "$.a" }, { name: "t", path: "$.b" }))).toEqual([
      "steps.0.extract.1.name: 't' is extracted twice",
    ]);
    const steps = [
      step({ extract: [{ name: "t", path: "$.a" }] }),
      step({ extract: [{ name: "t", path: "$.b" }] }),
    ];
    expect(issues(monitor({ type: "flow", steps }))).toEqual([
      "steps.1.extract.0.name: 't' is extracted twice",
    ]);
  });
});

describe("strict objects", () => {
  it.each<[string, Input, string]>([
    ["monitor", monitor({ extra: 1 }), ""],
    ["step", monitor({ steps: [step({ timeout: 5 })] }), "steps.0"],
    [
      "header",
      monitor({ steps: [step({ headers: [{ name: "a", value: "b", x: 1 }] })] }),
      "steps.0.headers.0",
    ],
    [
      "assertion",
      monitor({ steps: [step({ assertions: [{ ...statusEquals, caseInsensitive: true }] })] }),
      "steps.0.assertions.0",
    ],
    [
      "json_path assertion",
      monitor({
        steps: [
          step({
            assertions: [{ type: "json_path", path: "$.a", operator: "equals", value: "1", x: 1 }],
          }),
        ],
      }),
      "steps.0.assertions.0",
    ],
    [
      "extract",
      monitor({ steps: [step({ extract: [{ name: "a", path: "$.a", x: 1 }] })] }),
      "steps.0.extract.0",
    ],
  ])("refuses unknown keys on a %s", (_what, input, path) => {
    const result = parse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.code, issue.path.join(".")])).toEqual([
      ["unrecognized_keys", path],
    ]);
  });
});
