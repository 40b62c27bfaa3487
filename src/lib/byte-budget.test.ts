import { describe, expect, it } from "vitest";
import { ByteBudget } from "./byte-budget.js";

describe("ByteBudget", () => {
  it("grants takes while they fit and refuses the one that would overflow", () => {
    const budget = new ByteBudget(100);
    const a = budget.lease();
    const b = budget.lease();
    expect(a.take(60)).toBe(true);
    expect(b.take(50)).toBe(false);
    expect(b.take(40)).toBe(true);
    expect(budget.used).toBe(100);
    expect(a.take(1)).toBe(false);
  });

  it("gives back everything a lease took, once, and refuses takes after release", () => {
    const budget = new ByteBudget(100);
    const a = budget.lease();
    a.take(30);
    a.take(30);
    a.release();
    a.release();
    expect(budget.used).toBe(0);
    expect(a.take(10)).toBe(false);
    expect(budget.used).toBe(0);
    expect(budget.lease().take(100)).toBe(true);
  });
});
