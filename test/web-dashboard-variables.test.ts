import { describe, expect, it } from "vitest";
import type { DashboardVariable } from "../src/contracts/dashboards.js";
import {
  refreshChoice,
  refreshDelay,
  refreshMs,
} from "../web/src/screens/dashboards/refresh-interval.js";
import {
  ALL_VALUE,
  boundValue,
  hrefWithVariables,
  optionsFromResult,
  optionsOf,
  readVariableParams,
  selectionLabel,
  selectionOf,
  toggleValue,
  typedForPlaceholder,
  variablesUsedBy,
  withVariableParams,
} from "../web/src/screens/dashboards/variable-values.js";

const custom = (over: Partial<DashboardVariable> = {}): DashboardVariable =>
  ({
    type: "custom",
    name: "env",
    multi: false,
    includeAll: false,
    values: ["prod", "staging"],
    ...over,
  }) as DashboardVariable;
const text: DashboardVariable = { type: "text", name: "q", multi: false, includeAll: false };

describe("a dashboard's variables in the URL", () => {
  it("reads var-<name>, repeated for several values, and nothing else", () => {
    const params = new URLSearchParams("range=1h&var-env=prod&var-svc=a&var-svc=b%26c&var-=x");
    expect(readVariableParams(params)).toEqual({ env: ["prod"], svc: ["a", "b&c"] });
  });

  it("writes the given variables, leaving other parameters and variables as they were", () => {
    const next = withVariableParams("?range=1h&var-env=prod&var-svc=a", {
      svc: ["x", "y z"],
      env: [],
    });
    expect(next).toBe("range=1h&var-svc=x&var-svc=y+z");
    expect(readVariableParams(new URLSearchParams(next))).toEqual({ svc: ["x", "y z"] });
  });

  it("replaces every variable of an href, keeping its other parameters", () => {
    expect(hrefWithVariables("/d/1?var-old=1&range=6h", { env: [ALL_VALUE] })).toBe(
      "/d/1?range=6h&var-env=%24__all",
    );
    expect(hrefWithVariables("/d/1", {})).toBe("/d/1");
  });
});

describe("what a variable chooses and binds", () => {
  it("takes the URL's values, else the default, else the first option", () => {
    expect(selectionOf(custom(), ["staging"], ["prod", "staging"])).toEqual(["staging"]);
    expect(selectionOf(custom({ default: "staging" }), undefined, ["prod"])).toEqual(["staging"]);
    expect(selectionOf(custom(), undefined, ["prod", "staging"])).toEqual(["prod"]);
    expect(selectionOf(custom(), undefined, [])).toEqual([]);
  });

  it("keeps an explicit empty choice (`var-x=`) and a text variable's empty value", () => {
    expect(selectionOf(custom({ multi: true }), [""], ["prod"])).toEqual([]);
    expect(boundValue(custom({ multi: true }), [], ["prod"])).toEqual([]);
    expect(selectionOf(text, [""], [])).toEqual([""]);
    expect(selectionOf({ ...text, default: "x" }, undefined, [])).toEqual(["x"]);
  });

  it("keeps one value for a single select and all for a multi select", () => {
    expect(selectionOf(custom(), ["a", "b"], [])).toEqual(["a"]);
    expect(selectionOf(custom({ multi: true }), ["a", "b"], [])).toEqual(["a", "b"]);
  });

  it("offers All only where the variable allows it", () => {
    expect(selectionOf(custom({ includeAll: true }), [ALL_VALUE], [])).toEqual([ALL_VALUE]);
    expect(selectionOf(custom({ default: ALL_VALUE, includeAll: true }), undefined, [])).toEqual([
      ALL_VALUE,
    ]);
    expect(selectionOf(custom(), [ALL_VALUE], ["prod"])).toEqual([]);
  });

  it("binds text as typed, a single value as text, several or All as a list", () => {
    expect(boundValue(text, selectionOf(text, undefined, []), [])).toBe("");
    expect(boundValue(text, ["a'); DROP"], [])).toBe("a'); DROP");
    expect(boundValue(custom(), ["prod"], ["prod", "staging"])).toBe("prod");
    expect(boundValue(custom({ multi: true }), ["prod"], ["prod", "staging"])).toEqual(["prod"]);
    expect(boundValue(custom({ includeAll: true }), [ALL_VALUE], ["prod", "staging"])).toEqual([
      "prod",
      "staging",
    ]);
  });

  it("offers a query's first column once each, a custom list's values, nothing for text", () => {
    const rows = [
      ["a", 1],
      ["b", 2],
      ["a", 3],
      [null, 4],
      [7, 5],
    ];
    expect(optionsFromResult({ rows })).toEqual(["a", "b", "7"]);
    expect(optionsFromResult(undefined)).toEqual([]);
    expect(optionsOf(custom(), undefined)).toEqual(["prod", "staging"]);
    expect(optionsOf(text, ["x"])).toEqual([]);
  });

  it("toggles values of a multi select, All excluding the others", () => {
    expect(toggleValue([], "a")).toEqual(["a"]);
    expect(toggleValue(["a", "b"], "a")).toEqual(["b"]);
    expect(toggleValue(["a"], ALL_VALUE)).toEqual([ALL_VALUE]);
    expect(toggleValue([ALL_VALUE], "a")).toEqual(["a"]);
    expect(toggleValue([ALL_VALUE], ALL_VALUE)).toEqual([]);
    expect(selectionLabel([ALL_VALUE])).toBe("All");
    expect(selectionLabel(["a", "b"])).toBe("a, b");
    expect(selectionLabel([])).toBe("None");
  });
});

describe("the values a query binds", () => {
  it("sends only the variables its placeholders name, typed as they are declared", () => {
    const bound = { limit: "10", env: "prod", ids: ["1", "2"], on: "true", other: "x" };
    expect(
      variablesUsedBy(
        "SELECT {env:String}, {limit:UInt32}, {ids:Array(UInt64)}, {on:Bool} -- {other:String}",
        bound,
      ),
    ).toEqual({ env: "prod", limit: 10, ids: [1, 2], on: true });
    expect(variablesUsedBy("SELECT '{env:String}'", bound)).toEqual({});
  });

  it("leaves what does not fit its type for the server to name", () => {
    expect(typedForPlaceholder("UInt32", "ten")).toBe("ten");
    expect(typedForPlaceholder("UInt32", "")).toBe("");
    expect(typedForPlaceholder("String", ["a", "b"])).toEqual(["a", "b"]);
    expect(typedForPlaceholder("Array(String)", "a")).toEqual(["a"]);
    expect(typedForPlaceholder("Nullable(Float64)", "1.5")).toBe(1.5);
    expect(typedForPlaceholder("String", "42")).toBe("42");
  });
});

describe("auto refresh", () => {
  it("takes the URL's choice when it is one, else the dashboard's", () => {
    expect(refreshChoice("30s", "off")).toBe("30s");
    expect(refreshChoice("7s", "1m")).toBe("1m");
    expect(refreshChoice(null, "5m")).toBe("5m");
  });

  it("knows each interval's length and when the next refresh is due", () => {
    expect(refreshMs("off")).toBeNull();
    expect(refreshMs("10s")).toBe(10_000);
    expect(refreshMs("15m")).toBe(900_000);
    expect(refreshMs("1h")).toBe(3_600_000);
    expect(refreshDelay("30s", 1_000, 11_000)).toBe(20_000);
    // Shown again after the interval passed: due at once.
    expect(refreshDelay("30s", 1_000, 99_000)).toBe(0);
    expect(refreshDelay("off", 0, 0)).toBeNull();
  });
});
