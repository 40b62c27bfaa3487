import { describe, expect, it } from "vitest";
import { MAX_ASSERTIONS } from "../contracts/monitor-catalog.js";
import { DEFAULT_ASSERTIONS, UpdateMonitorInput } from "../contracts/monitors.js";
import {
  assertions,
  httpDefinition,
  issuePaths,
  issues,
  monitor,
  ok,
  statusEquals,
  step,
} from "./monitor-input.test-helper.js";

describe("defaults", () => {
  it("fills every optional field", () => {
    const definition = httpDefinition(monitor());
    expect(definition).toEqual({
      name: "Health",
      type: "api",
      frequency: "5m",
      timeoutSeconds: 10,
      locations: ["default"],
      alertAfter: 1,
      channelIds: [],
      escalationPolicyId: null,
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
    const definition = httpDefinition(monitor({ type: "flow", steps }));
    expect(definition.steps[0]?.assertions).toEqual(DEFAULT_ASSERTIONS);
    expect(definition.steps[1]?.assertions).toEqual(DEFAULT_ASSERTIONS);
    expect(definition.steps[2]?.assertions).toEqual([statusEquals]);
    expect(definition.steps.map((s) => s.name)).toEqual(["Step 1", "Step 2", "Step 3"]);
  });

  it("the default assertions are copies, not the shared constant", () => {
    const definition = httpDefinition(monitor());
    expect(definition.steps[0]?.assertions).not.toBe(DEFAULT_ASSERTIONS);
  });

  it("keeps given step names and removes duplicate channel ids", () => {
    const definition = httpDefinition(
      monitor({ steps: [step({ name: " login " })], channelIds: ["chn_1", "chn_1", "chn_2"] }),
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
