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
    const ids = Array.from({ length: 50 }, () => newId("ine"));
    now -= 5;
    ids.push(newId("ine"), newId("inc"));
    const bodies = ids.map((id) => id.slice(4));
    expect([...bodies].sort()).toEqual(bodies);
    expect(new Set(bodies).size).toBe(bodies.length);
  });
});
