import { describe, expect, it } from "vitest";
import { createIdGenerator } from "./ids.js";

describe("newId", () => {
  it("prefixes ids and makes them sort by creation time", () => {
    let now = 1_700_000_000_000;
    const newId = createIdGenerator(() => now);
    const first = newId("prj");
    now += 1;
    const second = newId("prj");
    expect(first).toMatch(/^prj_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(first < second).toBe(true);
    expect(newId("key")).not.toBe(newId("key"));
  });

  it("sorts ids made in the same millisecond, or after the clock stepped back, in creation order", () => {
    let now = 1_700_000_000_000;
    const newId = createIdGenerator(() => now);
    // Thousands in one millisecond: the random part carries across its digits as it counts up.
    const ids = Array.from({ length: 5_000 }, () => newId("ine"));
    now -= 5;
    ids.push(newId("ine"), newId("inc"));
    const bodies = ids.map((id) => id.slice(4));
    expect([...bodies].sort()).toEqual(bodies);
    expect(new Set(bodies).size).toBe(bodies.length);
  });

  it("encodes the millisecond in the first 10 characters, Crockford base 32", () => {
    const now = Date.UTC(2026, 10, 27, 12, 0, 0, 123);
    const id = createIdGenerator(() => now)("msg");
    const digits = "0123456789abcdefghjkmnpqrstvwxyz";
    let ms = 0;
    for (const char of id.slice(4, 14)) ms = ms * 32 + digits.indexOf(char);
    expect(ms).toBe(now);
  });
});
