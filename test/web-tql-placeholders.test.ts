import { describe, expect, it } from "vitest";
import { missingVariables, panelTypeFor } from "../web/src/screens/tql/panel-from-query.js";
import {
  bucketSecondsFor,
  findPlaceholders,
  inputKind,
  parameterValue,
  readParamValues,
  runParameters,
  userPlaceholders,
  usesTimeWindow,
} from "../web/src/screens/tql/placeholders.js";

const WINDOW = {
  from: "2026-11-28T21:00:00.000Z",
  to: "2026-11-28T22:00:00.000Z",
  bucketSeconds: 12,
};

describe("a query's placeholders", () => {
  it("are found once each, in order, with their types", () => {
    const text =
      "SELECT * FROM traces WHERE service_name IN {services:Array(String)} AND duration_ms > { min : Float64 } AND service_name != {services:Array(String)}";
    expect(findPlaceholders(text)).toEqual([
      { name: "services", type: "Array(String)" },
      { name: "min", type: "Float64" },
    ]);
  });

  it("are not looked for in strings, quoted names or comments", () => {
    const text = [
      "SELECT '{a:String}', `{b:String}`, \"{c:String}\" -- {d:String}",
      "/* {e:String} */ FROM logs WHERE x = 'it\\'s {f:String}' AND y = {g:UInt8}",
    ].join("\n");
    expect(findPlaceholders(text).map((p) => p.name)).toEqual(["g"]);
  });

  it("leave the window to the screen: macros and {from}, {to}, {bucket_seconds}", () => {
    const text =
      "SELECT $__timeInterval(timestamp) AS t, count() FROM traces WHERE $__timeFilter(timestamp) AND service_name = {service:String} GROUP BY t";
    expect(usesTimeWindow(text)).toBe(true);
    expect(usesTimeWindow("SELECT 1 WHERE x > {from:DateTime64(3)}")).toBe(true);
    expect(usesTimeWindow("SELECT '$__timeFilter(x)'")).toBe(false);
    expect(userPlaceholders(`${text} AND t < {to:DateTime64(3)}`).map((p) => p.name)).toEqual([
      "service",
    ]);
  });
});

describe("typed values", () => {
  it("take the input their type wants", () => {
    expect(inputKind("Array(UInt16)")).toBe("list");
    expect(inputKind("Int64")).toBe("number");
    expect(inputKind("Bool")).toBe("bool");
    expect(inputKind("DateTime64(3)")).toBe("text");
  });

  it("are sent in their type; text that is not a number stays text for the server to name", () => {
    expect(parameterValue("UInt32", ["42"])).toBe(42);
    expect(parameterValue("UInt32", ["4x"])).toBe("4x");
    expect(parameterValue("String", ["42"])).toBe("42");
    expect(parameterValue("Bool", ["true"])).toBe(true);
    expect(parameterValue("Array(String)", ["a, b", "c"])).toEqual(["a", "b", "c"]);
    expect(parameterValue("Array(Float64)", ["1.5,2"])).toEqual([1.5, 2]);
    expect(parameterValue("String", [""])).toBeUndefined();
    expect(parameterValue("Array(String)", [])).toEqual([]);
  });

  it("come from the URL's var- parameters (a dashboard's), repeated for a list, All left out", () => {
    const params = new URLSearchParams(
      "q=x&var-service=api&var-ids=1&var-ids=2&var-=x&var-env=%24__all",
    );
    expect(readParamValues(params)).toEqual({ service: ["api"], ids: ["1", "2"] });
  });

  it("make a run's parameters, with the window only when the query reads it", () => {
    const text =
      "SELECT * FROM logs WHERE $__timeFilter(timestamp) AND service_name = {service:String} AND level = {level:String}";
    expect(runParameters(text, { service: ["api"], other: ["x"] }, WINDOW)).toEqual({
      service: "api",
      from: WINDOW.from,
      to: WINDOW.to,
      bucket_seconds: 12,
    });
    expect(runParameters("SELECT {n:UInt8}", { n: ["3"] }, WINDOW)).toEqual({ n: 3 });
    expect(bucketSecondsFor(3_600_000)).toBe(12);
    expect(bucketSecondsFor(1000)).toBe(1);
  });
});

describe("a query added to a dashboard", () => {
  it("is a time series when its result has a time column, else a table", () => {
    expect(
      panelTypeFor({
        columns: [
          { name: "t", type: "DateTime64(3)" },
          { name: "n", type: "UInt64" },
        ],
      }),
    ).toBe("timeseries");
    expect(panelTypeFor({ columns: [{ name: "s", type: "LowCardinality(String)" }] })).toBe(
      "table",
    );
  });

  it("brings variables for the placeholders the dashboard lacks, at the values typed", () => {
    const placeholders = findPlaceholders(
      "SELECT 1 WHERE a = {svc:String} AND b IN {ids:Array(UInt32)} AND c IN {none:Array(String)} AND d = {have:String} AND e = {empty:Float64}",
    );
    const have = [{ type: "text" as const, name: "have", multi: false, includeAll: false }];
    expect(missingVariables(placeholders, have, { svc: ["api"], ids: ["1, 2", "2"] })).toEqual([
      { type: "text", name: "svc", multi: false, includeAll: false, default: "api" },
      {
        type: "custom",
        name: "ids",
        values: ["1", "2"],
        multi: true,
        includeAll: true,
        default: ["1", "2"],
      },
      { type: "text", name: "empty", multi: false, includeAll: false },
    ]);
  });
});
