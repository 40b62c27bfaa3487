import { describe, expect, it } from "vitest";
import { rangeOfType, unreachableCondition } from "./value-range.js";

describe("a condition's reachability", () => {
  const percent = { unit: "percent", min: 0, max: 100 } as const;
  const count = { unit: "count", min: 0, integer: true } as const;

  it("refuses a percent threshold beyond 0–100 and keeps the ones inside", () => {
    expect(unreachableCondition({ op: ">", threshold: 100 }, percent)).toMatch(/never/);
    expect(unreachableCondition({ op: ">", threshold: 500 }, percent)).toMatch(/0 to 100/);
    expect(unreachableCondition({ op: ">=", threshold: 100.5 }, percent)).toMatch(/never/);
    expect(unreachableCondition({ op: "<", threshold: 0 }, percent)).toMatch(/never/);
    expect(unreachableCondition({ op: "<=", threshold: -1 }, percent)).toMatch(/never/);
    expect(unreachableCondition({ op: "=", threshold: 101 }, percent)).toMatch(/never/);
    for (const threshold of [0, 5, 99.9])
      expect(unreachableCondition({ op: ">", threshold }, percent)).toBeNull();
    expect(unreachableCondition({ op: ">=", threshold: 100 }, percent)).toBeNull();
    expect(unreachableCondition({ op: "<=", threshold: 0 }, percent)).toBeNull();
    expect(unreachableCondition({ op: "!=", threshold: 500 }, percent)).toBeNull();
  });

  it("knows counts are whole numbers from 0, without an upper bound", () => {
    expect(unreachableCondition({ op: "<", threshold: 0 }, count)).toMatch(/never/);
    expect(unreachableCondition({ op: "=", threshold: 2.5 }, count)).toMatch(/whole/);
    expect(unreachableCondition({ op: ">", threshold: 1e9 }, count)).toBeNull();
    expect(unreachableCondition({ op: "=", threshold: 3 }, count)).toBeNull();
  });

  it("refuses nothing when the bounds are unknown", () => {
    for (const op of [">", ">=", "<", "<=", "=", "!="] as const)
      expect(unreachableCondition({ op, threshold: -1e12 }, { unit: null })).toBeNull();
  });

  it("takes the bounds a result column's type gives", () => {
    expect(rangeOfType("UInt64")).toEqual({ unit: null, min: 0, integer: true });
    expect(rangeOfType("Nullable(UInt8)")).toEqual({ unit: null, min: 0, integer: true });
    expect(rangeOfType("Int32")).toEqual({ unit: null, integer: true });
    expect(rangeOfType("Float64")).toEqual({ unit: null });
    expect(rangeOfType("Nullable(Float64)")).toEqual({ unit: null });
    expect(unreachableCondition({ op: "<", threshold: 0 }, rangeOfType("UInt64"))).toMatch(/never/);
  });
});
