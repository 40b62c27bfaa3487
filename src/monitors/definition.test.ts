import { describe, expect, it } from "vitest";
import { MAX_ASSERTIONS, OPERATORS } from "../contracts/monitor-catalog.js";
import {
  Assertion,
  CreateMonitorInput,
  DEFAULT_ASSERTIONS,
  UpdateMonitorInput,
} from "../contracts/monitors.js";
import { toDefinition } from "./definition.js";

type Input = Record<string, unknown>;
const step = (over: Input = {}): Input => ({ url: "https://api.example.com/health", ...over });
const monitor = (over: Input = {}): Input => ({
  name: "Health",
  type: "api",
  steps: [step()],
  ...over,
});
const statusEquals = { type: "status_code", operator: "equals", value: "200" };
const assertions = (n: number) => Array.from({ length: n }, () => statusEquals);

const parse = (input: unknown) => CreateMonitorInput.safeParse(input);
const ok = (input: unknown) => {
  const result = parse(input);
  if (!result.success) throw new Error(JSON.stringify(result.error.issues));
  return result.data;
};
/** The issues as "path: message" lines. */
const issues = (input: unknown): string[] => {
  const result = parse(input);
  if (result.success) throw new Error("expected the input to be refused");
  return result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};
const issuePaths = (input: unknown) => issues(input).map((line) => line.split(": ")[0]);

describe("defaults", () => {
  it("fills every optional field", () => {
    const definition = toDefinition(ok(monitor()));
    expect(definition).toEqual({
      name: "Health",
      type: "api",
      frequency: "5m",
      timeoutSeconds: 10,
      locations: ["default"],
      alertAfter: 1,
      channelIds: [],
      steps: [
        {
          name: "Step 1",
          method: "GET",
          url: "https://api.example.com/health",
          headers: [],
          extract: [],
          followRedirects: true,
          assertions: [
            { type: "status_code", operator: "equals", value: "200" },
            { type: "response_time", operator: "less_than", value: "3000" },
          ],
        },
      ],
    });
  });

  it("gives the two default assertions to a step without or with empty assertions", () => {
    const steps = [step(), step({ assertions: [] }), step({ assertions: [statusEquals] })];
    const definition = toDefinition(ok(monitor({ type: "flow", steps })));
    expect(definition.steps[0]?.assertions).toEqual(DEFAULT_ASSERTIONS);
    expect(definition.steps[1]?.assertions).toEqual(DEFAULT_ASSERTIONS);
    expect(definition.steps[2]?.assertions).toEqual([statusEquals]);
    expect(definition.steps.map((s) => s.name)).toEqual(["Step 1", "Step 2", "Step 3"]);
  });

  it("the default assertions are copies, not the shared constant", () => {
    const definition = toDefinition(ok(monitor()));
    expect(definition.steps[0]?.assertions).not.toBe(DEFAULT_ASSERTIONS);
  });

  it("keeps given step names and removes duplicate channel ids", () => {
    const definition = toDefinition(
      ok(monitor({ steps: [step({ name: " login " })], channelIds: ["chn_1", "chn_1", "chn_2"] })),
    );
    expect(definition.steps[0]?.name).toBe("login");
    expect(definition.channelIds).toEqual(["chn_1", "chn_2"]);
  });
});

describe("type and steps", () => {
  it("api takes exactly one step", () => {
    expect(issues(monitor({ steps: [step(), step()] }))).toEqual([
      "steps: an api monitor has exactly one step (use type 'flow' for several)",
    ]);
    // Both the length check and the api rule report an empty list.
    expect(new Set(issuePaths(monitor({ steps: [] })))).toEqual(new Set(["steps"]));
  });

  it("flow takes 1 to 20 steps", () => {
    expect(ok(monitor({ type: "flow", steps: [step()] })).steps).toHaveLength(1);
    expect(
      ok(monitor({ type: "flow", steps: Array.from({ length: 20 }, () => step()) })).steps,
    ).toHaveLength(20);
    expect(issuePaths(monitor({ type: "flow", steps: [] }))).toEqual(["steps"]);
    expect(
      issuePaths(monitor({ type: "flow", steps: Array.from({ length: 21 }, () => step()) })),
    ).toEqual(["steps"]);
  });

  it.each(["browser", "e2e"])("%s is coming soon", (type) => {
    const lines = issues(monitor({ type }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^type: .*coming soon/);
  });

  it("says coming soon even when other fields are invalid too", () => {
    const lines = issues({ name: "x", type: "browser", steps: [] });
    expect(lines.some((line) => /^type: .*coming soon/.test(line))).toBe(true);
  });

  it("refuses an unknown type and a missing name", () => {
    expect(issuePaths(monitor({ type: "grpc" }))).toEqual(["type"]);
    expect(issuePaths(monitor({ name: "  " }))).toEqual(["name"]);
    const { name: _name, ...nameless } = monitor();
    expect(issuePaths(nameless)).toEqual(["name"]);
  });
});

describe("schedule fields", () => {
  it.each(["1m", "5m", "15m", "1h"])("frequency %s", (frequency) => {
    expect(ok(monitor({ frequency })).frequency).toBe(frequency);
  });

  it.each(["2m", "1min", "60s", "", 60])("refuses frequency %j", (frequency) => {
    expect(issuePaths(monitor({ frequency }))).toEqual(["frequency"]);
  });

  it("timeout is a whole number of seconds from 1 to 60", () => {
    expect(ok(monitor({ timeoutSeconds: 1 })).timeoutSeconds).toBe(1);
    expect(ok(monitor({ timeoutSeconds: 60 })).timeoutSeconds).toBe(60);
    for (const timeoutSeconds of [0, 61, 1.5, -1, "10"])
      expect(issuePaths(monitor({ timeoutSeconds }))).toEqual(["timeoutSeconds"]);
  });

  it("the only location is default", () => {
    expect(ok(monitor({ locations: ["default"] })).locations).toEqual(["default"]);
    expect(issues(monitor({ locations: ["eu-west"] }))).toEqual([
      "locations.0: the only location is 'default'",
    ]);
    expect(issuePaths(monitor({ locations: [] }))).toEqual(["locations"]);
    expect(issuePaths(monitor({ locations: ["default", "default"] }))).toEqual(["locations"]);
  });

  it("alertAfter is a positive integer", () => {
    expect(ok(monitor({ alertAfter: 2 })).alertAfter).toBe(2);
    for (const alertAfter of [0, 1.5, 101])
      expect(issuePaths(monitor({ alertAfter }))).toEqual(["alertAfter"]);
  });
});

describe("assertion count", () => {
  it(`allows ${MAX_ASSERTIONS} assertions, counting defaults`, () => {
    const steps = [step({ assertions: assertions(48) }), step()];
    expect(ok(monitor({ type: "flow", steps })).steps).toHaveLength(2);
  });

  it(`refuses more than ${MAX_ASSERTIONS}, counting defaults, on steps`, () => {
    const withDefaults = [step({ assertions: assertions(49) }), step()];
    expect(issues(monitor({ type: "flow", steps: withDefaults }))).toEqual([
      "steps: a monitor has at most 50 assertions (this one has 51)",
    ]);
    const withEmpty = [step({ assertions: assertions(49) }), step({ assertions: [] })];
    expect(issuePaths(monitor({ type: "flow", steps: withEmpty }))).toEqual(["steps"]);
    const split = [step({ assertions: assertions(25) }), step({ assertions: assertions(26) })];
    expect(issuePaths(monitor({ type: "flow", steps: split }))).toEqual(["steps"]);
  });

  it("refuses more than 50 in one step on that step's assertions", () => {
    expect(issuePaths(monitor({ steps: [step({ assertions: assertions(51) })] }))).toEqual([
      "steps.0.assertions",
    ]);
  });
});

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

describe("UpdateMonitorInput", () => {
  it("keeps only the fields given: no defaults that would reset the stored monitor", () => {
    expect(UpdateMonitorInput.parse({ name: "Renamed" })).toEqual({ name: "Renamed" });
    expect(UpdateMonitorInput.parse({ frequency: "1h" })).toEqual({ frequency: "1h" });
  });

  it("validates the fields given and refuses an empty patch or unknown keys", () => {
    expect(UpdateMonitorInput.safeParse({}).success).toBe(false);
    expect(UpdateMonitorInput.safeParse({ frequency: "2m" }).success).toBe(false);
    expect(UpdateMonitorInput.safeParse({ timeoutSeconds: 61 }).success).toBe(false);
    expect(UpdateMonitorInput.safeParse({ extra: 1 }).success).toBe(false);
    expect(UpdateMonitorInput.safeParse({ type: "browser" }).error?.issues[0]?.message).toContain(
      "coming soon",
    );
  });

  it("applies step defaults inside a replaced steps list", () => {
    const patch = UpdateMonitorInput.parse({ steps: [step()] });
    expect(patch.steps?.[0]).toMatchObject({ method: "GET", headers: [], extract: [] });
  });
});
