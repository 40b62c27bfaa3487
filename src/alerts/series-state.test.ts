import { describe, expect, it } from "vitest";
import { nextSeriesState } from "./series-state.js";

const t = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000);
const iso = (s: number) => t(s).toISOString();

describe("nextSeriesState", () => {
  it("goes ok → pending → firing after `for`, then resolves", () => {
    const p = nextSeriesState(undefined, true, t(0), 120);
    expect(p).toEqual({
      state: "pending",
      pendingSince: iso(0),
      firedAt: null,
      transition: "pending",
    });
    const still = nextSeriesState(p, true, t(60), 120);
    expect(still).toEqual({ ...p, transition: "none" });
    const fired = nextSeriesState(still, true, t(120), 120);
    expect(fired).toEqual({
      state: "firing",
      pendingSince: null,
      firedAt: iso(120),
      transition: "fired",
    });
    expect(nextSeriesState(fired, true, t(180), 120)).toEqual({ ...fired, transition: "none" });
    expect(nextSeriesState(fired, false, t(240), 120)).toEqual({
      state: "ok",
      pendingSince: null,
      firedAt: null,
      transition: "resolved",
    });
  });

  it("fires at once when `for` is 0", () => {
    expect(nextSeriesState(undefined, true, t(5), 0)).toMatchObject({
      state: "firing",
      firedAt: iso(5),
      transition: "fired",
    });
  });

  it("cancels a pending series that stops breaching, and leaves ok alone", () => {
    const p = nextSeriesState(undefined, true, t(0), 300);
    expect(nextSeriesState(p, false, t(60), 300)).toMatchObject({
      state: "ok",
      transition: "cancelled",
    });
    expect(nextSeriesState(undefined, false, t(0), 300)).toMatchObject({
      state: "ok",
      transition: "none",
    });
  });

  it("keeps every state unchanged on no data with `keep`", () => {
    const p = nextSeriesState(undefined, true, t(0), 60);
    expect(nextSeriesState(p, "no_data_keep", t(600), 60)).toEqual({ ...p, transition: "none" });
    const f = nextSeriesState(undefined, true, t(0), 0);
    expect(nextSeriesState(f, "no_data_keep", t(600), 0)).toEqual({ ...f, transition: "none" });
  });
});
