import { describe, expect, it } from "vitest";
import { PAGE_HEADLINE, STATE_LABEL } from "../contracts/status-pages.js";
import {
  type ComponentInputs,
  type CountedIncident,
  componentStateOf,
  groupStateOf,
  incidentImpactOf,
  isMuted,
  pageStateOf,
  severityImpact,
  sourcesStateOf,
} from "./state-rule.js";

const inputs = (overrides: Partial<ComponentInputs> = {}): ComponentInputs => ({
  monitors: [],
  rules: [],
  incidents: [],
  inMaintenance: false,
  ...overrides,
});
const up = { active: true, inOutage: false };
const down = { active: true, inOutage: true };
const linked = (severity: CountedIncident["severity"]): CountedIncident => ({
  severity,
  ownSource: false,
});
const own = (severity: CountedIncident["severity"]): CountedIncident => ({
  severity,
  ownSource: true,
});

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
    expect(componentStateOf(inputs({ monitors: [up], incidents: [linked("low")] }))).toBe(
      "degraded",
    );
    expect(componentStateOf(inputs({ monitors: [up], incidents: [linked("medium")] }))).toBe(
      "degraded",
    );
    expect(componentStateOf(inputs({ monitors: [up], incidents: [linked("high")] }))).toBe("down");
    expect(componentStateOf(inputs({ incidents: [linked("low"), linked("critical")] }))).toBe(
      "down",
    );
  });

  it("counts a source's own incident by its severity too, not only through its source", () => {
    // One of two monitors in an outage whose incident is critical: down, as the incident says.
    expect(componentStateOf(inputs({ monitors: [up, down], incidents: [own("critical")] }))).toBe(
      "down",
    );
    // A low incident of the only rule, firing: down through the source, whatever the severity.
    expect(
      componentStateOf(
        inputs({ rules: [{ firing: true, muted: false }], incidents: [own("low")] }),
      ),
    ).toBe("down");
  });

  it("shows maintenance over any failure", () => {
    expect(
      componentStateOf(
        inputs({ monitors: [down], incidents: [linked("critical")], inMaintenance: true }),
      ),
    ).toBe("maintenance");
  });
});

describe("incidentImpactOf", () => {
  const on = (sources: "operational" | "degraded" | "down", ownSource: boolean) => ({
    sources,
    ownSource,
    inMaintenance: false,
  });

  it("is the severity's impact for an incident linked by hand", () => {
    expect(incidentImpactOf("low", [on("operational", false)])).toBe("degraded");
    expect(incidentImpactOf("high", [on("operational", false)])).toBe("down");
    // Another source's failure is not this incident's doing.
    expect(incidentImpactOf("low", [on("down", false)])).toBe("degraded");
  });

  it("is at least what its failing source does to the component, for a source's own", () => {
    expect(incidentImpactOf("low", [on("down", true)])).toBe("down");
    expect(incidentImpactOf("critical", [on("degraded", true)])).toBe("down");
    expect(incidentImpactOf("medium", [on("degraded", true), on("down", false)])).toBe("degraded");
  });

  it("never says more than the components it affects show, and agrees with them", () => {
    const cases: [CountedIncident, ComponentInputs][] = [
      [own("low"), inputs({ rules: [{ firing: true, muted: false }] })],
      [own("critical"), inputs({ monitors: [up, down] })],
      [own("medium"), inputs({ monitors: [up, down] })],
      [linked("high"), inputs({ monitors: [up] })],
      [linked("low"), inputs({ monitors: [down] })],
    ];
    for (const [incident, component] of cases) {
      const state = componentStateOf({ ...component, incidents: [incident] });
      const sources = sourcesStateOf(component);
      const impact = incidentImpactOf(incident.severity, [
        { sources, ownSource: incident.ownSource, inMaintenance: false },
      ]);
      // The component is in at least the incident's impact, and the page in at least that.
      expect(pageStateOf([state])).toBe(state);
      expect(["degraded", "down"].indexOf(impact)).toBeLessThanOrEqual(
        ["degraded", "down"].indexOf(state),
      );
    }
  });

  it("leaves out components under maintenance; the severity's when all are", () => {
    expect(
      incidentImpactOf("low", [{ sources: "down", ownSource: true, inMaintenance: true }]),
    ).toBe("degraded");
    expect(severityImpact("critical")).toBe("down");
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

  it("names each state once: the banner says what the pills and incidents say", () => {
    expect(STATE_LABEL).toEqual({
      operational: "Operational",
      degraded: "Degraded performance",
      down: "Outage",
      maintenance: "Under maintenance",
    });
    expect(PAGE_HEADLINE.degraded).toBe(STATE_LABEL.degraded);
    expect(PAGE_HEADLINE.down).toBe(STATE_LABEL.down);
  });

  it("a mute holds until its end, or for ever without one", () => {
    const now = new Date("2026-11-20T10:00:00Z");
    expect(isMuted({ muted: true, mutedUntil: null }, now)).toBe(true);
    expect(isMuted({ muted: true, mutedUntil: "2026-11-20T11:00:00Z" }, now)).toBe(true);
    expect(isMuted({ muted: true, mutedUntil: "2026-11-20T09:00:00Z" }, now)).toBe(false);
    expect(isMuted({ muted: false, mutedUntil: null }, now)).toBe(false);
  });
});
