import { describe, expect, it } from "vitest";
import type { ComponentState, PageState } from "../../contracts/status-pages.js";
import { buildRichStatusPageData, buildStatusPageData } from "./fixture.test-helper.js";
import { StatuspageSummary, toStatuspageSummary } from "./statuspage-summary.js";

const URL_ = "https://status.acme.example/status/acme";

describe("toStatuspageSummary", () => {
  const data = buildRichStatusPageData();
  const summary = toStatuspageSummary(data, URL_);

  it("matches its schema and Statuspage's top-level shape", () => {
    expect(StatuspageSummary.parse(summary)).toEqual(summary);
    expect(Object.keys(summary).sort()).toEqual(
      ["components", "incidents", "page", "scheduled_maintenances", "status"].sort(),
    );
    expect(summary.page).toEqual({
      id: "stp_rich",
      name: "Acme Cloud",
      url: URL_,
      time_zone: "Europe/Berlin",
      updated_at: data.page.updatedAt,
    });
    // What JSON.stringify writes must survive a round trip (no undefined holes).
    expect(JSON.parse(JSON.stringify(summary))).toEqual(summary);
  });

  it("lists groups as components with group: true and their component ids", () => {
    const core = summary.components.find((c) => c.id === "grp_core");
    expect(core).toMatchObject({
      name: "Core platform",
      group: true,
      group_id: null,
      status: "major_outage",
      components: ["cmp_api", "cmp_web"],
      page_id: "stp_rich",
      showcase: false,
    });
    const api = summary.components.find((c) => c.id === "cmp_api");
    expect(api).toEqual({
      id: "cmp_api",
      name: "API",
      status: "major_outage",
      created_at: null,
      updated_at: null,
      position: 1,
      description: "REST and GraphQL endpoints",
      showcase: true,
      start_date: null,
      group_id: "grp_core",
      page_id: "stp_rich",
      group: false,
      only_show_if_degraded: false,
    });
    expect("components" in (api ?? {})).toBe(false);
  });

  it("keeps display order with per-level positions", () => {
    expect(summary.components.map((c) => [c.id, c.position])).toEqual([
      ["grp_core", 1],
      ["cmp_api", 1],
      ["cmp_web", 2],
      ["grp_data", 2],
      ["cmp_db", 1],
      ["cmp_mail", 3],
      ["cmp_new", 4],
    ]);
    expect(summary.components.find((c) => c.id === "cmp_new")?.description).toBeNull();
  });

  it.each([
    ["operational", "operational"],
    ["degraded", "degraded_performance"],
    ["down", "major_outage"],
    ["maintenance", "under_maintenance"],
  ] as const)("maps component state %s to %s", (state: ComponentState, expected) => {
    const page = buildStatusPageData({ components: 1 });
    const only = page.services[0];
    if (only !== undefined) only.status = state;
    expect(toStatuspageSummary(page, URL_).components[0]?.status).toBe(expected);
  });

  it.each([
    ["operational", false, "none", "All Systems Operational"],
    ["operational", true, "maintenance", "Service Under Maintenance"],
    ["degraded", false, "minor", "Partially Degraded Service"],
    ["down", true, "critical", "Major Service Outage"],
  ] as const)(
    "page %s (maintenance: %s) has indicator %s",
    (state: PageState, maint, indicator, description) => {
      const page = buildStatusPageData({ components: 2 });
      page.page.status = state;
      const second = page.services[1];
      if (maint && second !== undefined) second.status = "maintenance";
      expect(toStatuspageSummary(page, URL_).status).toEqual({ indicator, description });
    },
  );

  it("lists only unresolved incidents, Statuspage style", () => {
    expect(summary.incidents).toHaveLength(1);
    const [incident] = summary.incidents;
    expect(incident).toMatchObject({
      id: "inc_active",
      name: "Elevated error rates on the API",
      status: "identified",
      // The incident's impact (down) in the words of the page's indicator for down.
      impact: "critical",
      resolved_at: null,
      monitoring_at: null,
      shortlink: `${URL_}#incident-inc_active`,
      page_id: "stp_rich",
      started_at: data.activeIncidents[0]?.startedAt,
    });
    expect(incident?.incident_updates.map((u) => [u.id, u.status])).toEqual([
      ["u2", "identified"],
      ["u1", "investigating"],
    ]);
    expect(incident?.incident_updates[0]).toMatchObject({
      body: "A bad deploy was identified.\nRolling back.",
      incident_id: "inc_active",
      display_at: data.activeIncidents[0]?.updates[1]?.at,
      affected_components: null,
    });
    expect(incident?.components.map((c) => c.id)).toEqual(["cmp_api"]);
  });

  it("derives status from phases and impact from the incident's impact, never its severity alone", () => {
    const page = buildRichStatusPageData();
    const active = page.activeIncidents[0];
    if (active === undefined) throw new Error("fixture changed");
    active.severity = "low";
    active.impact = "degraded";
    expect(toStatuspageSummary(page, URL_).incidents[0]?.impact).toBe("minor");
    active.severity = "critical";
    active.impact = "down";
    active.updates.push({ id: "u9", at: active.updates[1]?.at ?? "", phase: null, message: "…" });
    active.updates.push({
      id: "u10",
      at: active.updates[1]?.at ?? "",
      phase: "monitoring",
      message: "ok",
    });
    const [incident] = toStatuspageSummary(page, URL_).incidents;
    expect(incident?.impact).toBe("critical");
    expect(incident?.status).toBe("monitoring");
    expect(incident?.monitoring_at).toBe(active.updates[3]?.at);
    expect(incident?.incident_updates.map((u) => u.status)).toEqual([
      "monitoring",
      "identified",
      "identified",
      "investigating",
    ]);
  });

  it("maps maintenance windows to scheduled_maintenances", () => {
    expect(summary.scheduled_maintenances.map((m) => [m.id, m.status])).toEqual([
      ["mnt_now", "in_progress"],
      ["mnt_next", "scheduled"],
    ]);
    const [now, next] = summary.scheduled_maintenances;
    expect(now).toMatchObject({
      name: "Database upgrade",
      impact: "maintenance",
      scheduled_for: data.maintenance[0]?.startsAt,
      scheduled_until: data.maintenance[0]?.endsAt,
      shortlink: `${URL_}#maintenance-mnt_now`,
    });
    expect(now?.incident_updates[0]?.body).toBe("Primary database moves to a new major version.");
    expect(now?.components.map((c) => c.id)).toEqual(["cmp_db"]);
    expect(next?.incident_updates).toEqual([]);
    expect(next?.components.map((c) => c.id)).toEqual(["cmp_api", "cmp_web"]);
  });
});
