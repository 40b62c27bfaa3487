import { describe, expect, it } from "vitest";
import type { StatusPageSummary } from "../src/contracts/status-page-data.js";
import {
  DAY,
  ENGINES,
  json,
  MIN,
  type Page,
  T0,
  TODAY,
  useStatusPageTimeline,
} from "./helpers/status-page-timeline.js";

/**
 * Status page state and history on a fake clock, through the real service: monitor checks, an
 * outage, a maintenance window, public incident updates, the /v1 list and the public page after a day.
 */
describe.each(ENGINES)("status page state, history and public reads on %s", (engine) => {
  const t = useStatusPageTimeline(engine);

  it("starts operational with 90 days of history, counting the day's checks", async () => {
    const { apiId, data, today, check } = t;
    await check(T0 + MIN);
    const d = await data();
    expect(d.page.status).toBe("operational");
    expect(d.history).toEqual({ days: 90, from: "2026-08-23", to: TODAY });
    for (const s of d.services) {
      expect(s.history).toHaveLength(90);
      expect(s.history[0]).toMatchObject({ date: "2026-08-23", status: "no_data", uptime: null });
    }
    expect(today(d, apiId)).toMatchObject({
      date: TODAY,
      status: "operational",
      uptime: 100,
      checks: { run: 1, passed: 1 },
    });
  });

  it("a maintenance window puts its component in maintenance when it starts, not before", async () => {
    const { owner, orgId, webId, pageId, data, component, tick } = t;
    const response = await owner.post(`/api/orgs/${orgId}/status-pages/${pageId}/maintenances`, {
      title: "Database upgrade",
      message: "The website may be slow",
      startsAt: new Date(T0 + 2 * MIN).toISOString(),
      endsAt: new Date(T0 + 30 * MIN).toISOString(),
      componentIds: [webId],
    });
    expect(response.status).toBe(201);
    let d = await data();
    expect(component(d, webId).status).toBe("operational");
    expect(d.maintenance).toMatchObject([{ title: "Database upgrade", phase: "scheduled" }]);
    await tick(T0 + 5 * MIN);
    d = await data();
    expect(component(d, webId).status).toBe("maintenance");
    expect(d.maintenance).toMatchObject([{ phase: "in_progress", componentIds: [webId] }]);
    expect(d.page.status).toBe("operational");
  });

  it("an outage takes its components and the page down; maintenance stays maintenance", async () => {
    const { service, key, apiId, webId, data, component, check } = t;
    t.status = 503;
    await check(T0 + 10 * MIN);
    const d = await data();
    expect(component(d, apiId).status).toBe("down");
    expect(component(d, webId).status).toBe("maintenance");
    expect(d.page.status).toBe("down");
    expect(d.activeIncidents).toHaveLength(1);
    expect(d.activeIncidents[0]).toMatchObject({
      // The title names the components, never the monitor behind them.
      title: "API, Website: service disruption",
      status: "active",
      impact: "down",
      componentIds: [apiId, webId],
      updates: [],
    });
    const list = await json<Page<StatusPageSummary>>(
      await service.fetch("/v1/status-pages?status=down", { headers: { "x-api-key": key } }),
    );
    expect(list.data).toMatchObject([
      { slug: "acme", status: "down", url: "/status/acme", components: 2, activeIncidents: 1 },
    ]);
    const none = await json<Page<StatusPageSummary>>(
      await service.fetch("/v1/status-pages?status=operational", {
        headers: { "x-api-key": key },
      }),
    );
    expect(none.pagination.total).toBe(0);
  });

  it("/v1/status-pages takes time_range, from and to like every list: pages last changed in the window", async () => {
    const { service, key } = t;
    const list = async (query: string) => {
      const response = await service.fetch(`/v1/status-pages?${query}`, {
        headers: { "x-api-key": key },
      });
      const body = (await response.json()) as Page<StatusPageSummary> & {
        errors?: { field: string }[];
      };
      return { status: response.status, body };
    };
    // The outage changed the page at T0 + 10 min.
    t.nowMs = T0 + 11 * MIN;
    const recent = await list("time_range=1h");
    expect(recent.status).toBe(200);
    expect(recent.body.data.map((p) => p.slug)).toEqual(["acme"]);
    const before = await list(`from=${T0 - DAY}&to=${T0}`);
    expect(before.body).toMatchObject({ data: [], pagination: { total: 0 } });
    // Last changed in the window: created in [T0, T0 + 5 min) but changed again since, it is out.
    const earlier = await list(`from=${T0}&to=${T0 + 5 * MIN}`);
    expect(earlier.body).toMatchObject({ data: [], pagination: { total: 0 } });
    const iso = await list(`from=${new Date(T0 + 9 * MIN).toISOString()}&status=down`);
    expect(iso.body.pagination.total).toBe(1);
    const bad = await list("time_range=yesterday");
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.map((e) => e.field)).toEqual(["time_range"]);
    const backwards = await list(`from=${T0}&to=${T0 - MIN}`);
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors?.map((e) => e.field)).toEqual(["from"]);
  });

  it("an incident's public updates appear in order; internal comments do not", async () => {
    const { owner, projectId, data } = t;
    const [incident] = (await data()).activeIncidents;
    const path = `/api/projects/${projectId}/incidents/${incident?.id}`;
    t.nowMs = T0 + 12 * MIN;
    expect((await owner.post(`${path}/comments`, { message: "pager: db-oncall" })).status).toBe(
      200,
    );
    t.nowMs = T0 + 13 * MIN;
    expect(
      (await owner.post(`${path}/updates`, { message: "Found the cause", phase: "identified" }))
        .status,
    ).toBe(200);
    t.nowMs = T0 + 14 * MIN;
    expect(
      (await owner.post(`${path}/updates`, { message: "Fix deployed", phase: "monitoring" }))
        .status,
    ).toBe(200);
    const d = await data();
    expect(d.activeIncidents[0]?.updates.map((u) => [u.phase, u.message])).toEqual([
      ["identified", "Found the cause"],
      ["monitoring", "Fix deployed"],
    ]);
    expect(JSON.stringify(d)).not.toContain("db-oncall");
  });

  it("when the window ends the component shows its real state", async () => {
    const { webId, data, component, tick } = t;
    await tick(T0 + 31 * MIN);
    const d = await data();
    expect(component(d, webId).status).toBe("down");
    expect(d.maintenance).toEqual([]);
  });

  it("recovery restores the components and the page; the day keeps its uptime, downtime and incident", async () => {
    const { apiId, webId, data, component, today, check } = t;
    t.status = 200;
    await check(T0 + 40 * MIN);
    const d = await data();
    expect(d.page.status).toBe("operational");
    expect(d.activeIncidents).toEqual([]);
    expect(d.incidents).toMatchObject([
      { title: "API, Website: service disruption", status: "resolved" },
    ]);
    // API: 3 checks, 2 passed; down 10:10–10:40.
    expect(today(d, apiId)).toMatchObject({
      status: "down",
      uptime: 66.667,
      checks: { run: 3, passed: 2 },
      downMs: 30 * MIN,
      maintenance: false,
      incidents: [{ title: "API, Website: service disruption", severity: "high" }],
    });
    // Website: the failed check ran in maintenance and does not count; down only 10:31–10:40.
    expect(today(d, webId)).toMatchObject({
      status: "down",
      uptime: 100,
      checks: { run: 2, passed: 2 },
      downMs: 9 * MIN,
      maintenance: true,
    });
    expect(component(d, apiId).uptime).toBe(66.667);
  });

  it("the next day starts clean and yesterday is kept", async () => {
    const { apiId, data, component } = t;
    t.nowMs = T0 + DAY;
    const d = await data();
    const api = component(d, apiId);
    expect(api.history.at(-2)).toMatchObject({ date: TODAY, status: "down", uptime: 66.667 });
    expect(api.history.at(-1)).toMatchObject({
      date: "2026-11-21",
      status: "operational",
      uptime: null,
      downMs: 0,
    });
  });

  it("serves the page, its JSON, summary, feeds and badge without auth and with nothing internal", async () => {
    const { service, orgId, projectId, targetUrl, monitorId } = t;
    const targetHost = new URL(targetUrl).host;
    const forbidden = [
      projectId,
      orgId,
      monitorId,
      "Checkout API", // the monitor's name
      targetHost,
      "internal-health",
      "incidents/",
    ];
    const paths = [
      "/status/acme",
      "/status/acme.json",
      "/status/acme/api/v2/summary.json",
      "/status/acme/feed.atom",
      "/status/acme/feed.rss",
      "/status/acme/badge.svg",
    ];
    for (const path of paths) {
      const response = await service.fetch(path);
      expect(response.status, path).toBe(200);
      // Without VIGIL_PUBLIC_URL, absolute links come from the request: kept out of shared caches.
      const absolute = path.endsWith("summary.json") || path.includes("/feed.");
      expect(response.headers.get("cache-control"), path).toMatch(
        absolute ? /^private, max-age=\d+/ : /^public, max-age=\d+/,
      );
      const body = await response.text();
      for (const secret of forbidden) expect(body, `${path} leaks ${secret}`).not.toContain(secret);
    }
    const html = await service.fetch("/status/acme");
    expect(html.headers.get("content-type")).toMatch(/^text\/html/);
    expect(html.headers.get("content-security-policy")).toContain("default-src 'none'");
    const page = await service.fetch("/status/acme.json");
    expect(page.headers.get("access-control-allow-origin")).toBe("*");
    const etag = page.headers.get("etag") ?? "";
    const again = await service.fetch("/status/acme.json", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    const summary = await json<{ status: { indicator: string }; components: unknown[] }>(
      await service.fetch("/status/acme/api/v2/summary.json"),
    );
    expect(summary.status.indicator).toBe("none");
    const badge = await (await service.fetch("/status/acme/badge.svg?label=acme")).text();
    expect(badge).toContain("<svg");
    expect(badge).toContain("operational");
    expect((await service.fetch("/status/nope.json")).status).toBe(404);
    expect((await service.fetch("/status/acme/badge.svg?style=neon")).status).toBe(400);
  });
});
