import { describe, expect, it } from "vitest";
import { formatTotal } from "../web/src/lib/format.js";

describe("the dashboard's list totals", () => {
  it("reads a lower bound (totalExact: false) as 10,000+ and an exact total as it is", () => {
    const plain = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }).format(10_000);
    expect(formatTotal(10_000, false)).toBe(`${plain}+`);
    expect(formatTotal(10_000, true)).toBe(plain);
    // Lists that never say (counted exactly) read as exact.
    expect(formatTotal(10_000)).toBe(plain);
  });
});
