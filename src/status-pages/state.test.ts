import { describe, expect, it } from "vitest";
import {
  type ComponentInputs,
  componentStateOf,
  groupStateOf,
  isMuted,
  pageStateOf,
} from "./state.js";

const inputs = (overrides: Partial<ComponentInputs> = {}): ComponentInputs => ({
  monitors: [],
  rules: [],
  incidents: [],
  inMaintenance: false,
  ...overrides,
});
const up = { active: true, inOutage: false };
const down = { active: true, inOutage: true };

describe("componentStateOf", () => {
  it("is operational with no source, or when every source passes", () => {
    expect(componentStateOf(inputs())).toBe("operational");
    expect(componentStateOf(inputs({ monitors: [up, up] }))).toBe("operational");
  });

  it("is degraded when some sources fail and down when all do", () => {
    expect(componentStateOf(inputs({ monitors: [up, down] }))).toBe("degraded");
    expect(componentStateOf(inputs({ monitors: [down, down] }))).toBe("down");
    expect(
      componentStateOf(inputs({ monitors: [up], rules: [{ firing: true, muted: false }] })),
    ).toBe("degraded");
  });

  it("leaves out paused monitors and muted rules", () => {
    expect(componentStateOf(inputs({ monitors: [up, { active: false, inOutage: true }] }))).toBe(
      "operational",
    );
    expect(componentStateOf(inputs({ rules: [{ firing: true, muted: true }] }))).toBe(
      "operational",
    );
  });

  it("takes the impact of open incidents: low/medium degrade, high/critical take down", () => {
    expect(componentStateOf(inputs({ monitors: [up], incidents: ["low"] }))).toBe("degraded");
    expect(componentStateOf(inputs({ monitors: [up], incidents: ["medium"] }))).toBe("degraded");
    expect(componentStateOf(inputs({ monitors: [up], incidents: ["high"] }))).toBe("down");
    expect(componentStateOf(inputs({ incidents: ["low", "critical"] }))).toBe("down");
  });

  it("shows maintenance over any failure", () => {
    expect(
      componentStateOf(inputs({ monitors: [down], incidents: ["critical"], inMaintenance: true })),
    ).toBe("maintenance");
  });
});

describe("page and group states", () => {
  it("a page is its worst component, maintenance counting as operational", () => {
    expect(pageStateOf([])).toBe("operational");
    expect(pageStateOf(["operational", "maintenance"])).toBe("operational");
    expect(pageStateOf(["degraded", "maintenance", "operational"])).toBe("degraded");
    expect(pageStateOf(["degraded", "down"])).toBe("down");
  });

  it("a group is in maintenance only when all its components are", () => {
    expect(groupStateOf(["maintenance", "maintenance"])).toBe("maintenance");
    expect(groupStateOf(["maintenance", "degraded"])).toBe("degraded");
    expect(groupStateOf([])).toBe("operational");
  });

  it("a mute holds until its end, or for ever without one", () => {
    const now = new Date("2026-11-20T10:00:00Z");
    expect(isMuted({ muted: true, mutedUntil: null }, now)).toBe(true);
    expect(isMuted({ muted: true, mutedUntil: "2026-11-20T11:00:00Z" }, now)).toBe(true);
    expect(isMuted({ muted: true, mutedUntil: "2026-11-20T09:00:00Z" }, now)).toBe(false);
    expect(isMuted({ muted: false, mutedUntil: null }, now)).toBe(false);
  });
});
