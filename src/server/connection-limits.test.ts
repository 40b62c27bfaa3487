import { describe, expect, it } from "vitest";
import { shedMargin } from "./connection-limits.js";

describe("shedMargin", () => {
  it("starts shedding 5 % below the cap, at least one below", () => {
    expect(shedMargin(10_000)).toBe(500);
    expect(shedMargin(40)).toBe(2);
    expect(shedMargin(5)).toBe(1);
  });
});
