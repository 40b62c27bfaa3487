import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StatusPageData } from "../src/contracts/status-page-data.js";
import { createIdGenerator } from "../src/lib/ids.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

const MIN = 60_000;
const T0 = Date.parse("2026-11-20T10:00:00.000Z");

const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;

/**
 * One rule for component state, page state and incident impact, through the real service: the
 * engine, the JSON payload, the HTML page, summary.json, the feeds and the badge all agree; a
 * component publishes its sources' incidents or not; uptime shows a day's checks at once.
 */
describe("status page state: one rule everywhere", () => {
  const dir = makeTempDir();
  let nowMs = T0;
  const clock = { now: () => new Date(nowMs) };
  let service: TestService;
  let owner: Session;
  let orgId: string;
  let projectId: string;
  let target: Server;
  const failing = new Set<string>();
  let monitorA: string;
  let monitorB: string;
  let ruleId: string;
  let pageBase: string;
  let checkoutId: string;
  let searchId: string;
  let docsId: string;

  const get = async (path: string) => {
    const response = await service.fetch(path);
    expect(response.status, path).toBe(200);
    return response.text();
  };
  const data = async () => JSON.parse(await get("/status/acme.json")) as StatusPageData;
  const component = (d: StatusPageData, id: string) => {
    const found = d.services.find((s) => s.id === id);
    if (!found) throw new Error(`no component ${id}`);
    return found;
  };
  const run = async (monitorId: string) => {
    const response = await owner.post(`/api/projects/${projectId}/monitors/${monitorId}/run`);
    expect(response.status).toBe(200);
  };

  beforeAll(async () => {
    target = createServer((req, res) => {
      res.writeHead(failing.has(req.url ?? "") ? 503 : 200);
      res.end("ok");
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    ({ service, owner, orgId, projectId } = await startWithRoles(
      dir.path,
      {
        VIGIL_MONITORS_ENABLED: "false",
        VIGIL_ALERTS_ENABLED: "false",
        VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
      },
      { clock, newId: createIdGenerator(() => nowMs) },
    ));
    const monitor = async (name: string, path: string) =>
      (
        await json<{ id: string }>(
          await owner.post(`/api/projects/${projectId}/monitors`, {
            name,
            type: "api",
            frequency: "1m",
            alertAfter: 1,
            steps: [{ url: `${url}${path}` }],
          }),
        )
      ).id;
    monitorA = await monitor("Payments A", "/a");
    monitorB = await monitor("Payments B", "/b");
    ruleId = (
      await json<{ id: string }>(
        await owner.post(`/api/projects/${projectId}/alert-rules`, {
          name: "Search errors",
          severity: "low",
          openIncident: true,
          query: "SELECT count() AS value FROM logs",
          condition: { op: ">=", threshold: 0 },
        }),
      )
    ).id;
    const base = `/api/orgs/${orgId}/status-pages`;
    const page = await json<{ page: { id: string } }>(
      await owner.post(base, { slug: "acme", title: "Acme" }),
    );
    pageBase = `${base}/${page.page.id}`;
    const add = async (input: Record<string, unknown>) => {
      const response = await owner.post(`${pageBase}/components`, input);
      expect(response.status).toBe(201);
      return json<{ id: string; publishIncidents: boolean }>(response);
    };
    const checkout = await add({ name: "Checkout", monitorIds: [monitorA, monitorB] });
    // Published unless said otherwise.
    expect(checkout.publishIncidents).toBe(true);
    checkoutId = checkout.id;
    searchId = (await add({ name: "Search", alertRuleIds: [ruleId] })).id;
    docsId = (
      await add({ name: "Docs", monitorIds: [monitorA, monitorB], publishIncidents: false })
    ).id;
  });

  afterAll(async () => {
    await service?.stop();
    await new Promise<void>((resolve) => target?.close(() => resolve()));
    dir.remove();
  });

  it("publishing a component's source incidents is a setting, checked and editable", async () => {
    const bad = await owner.patch(`${pageBase}/components/${docsId}`, { publishIncidents: "no" });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toContain("application/problem+json");
    expect(await bad.text()).toContain("publishIncidents");
    const config = await json<{ components: { id: string; publishIncidents: boolean }[] }>(
      await owner.get(pageBase),
    );
    expect(config.components.map((c) => [c.id, c.publishIncidents])).toEqual([
      [checkoutId, true],
      [searchId, true],
      [docsId, false],
    ]);
  });

  it("a monitor outage's own incident counts by its severity where published, and every format says the same", async () => {
    nowMs = T0 + MIN;
    failing.add("/a");
    await run(monitorA);
    const d = await data();
    // One of two monitors down, its incident high: Checkout is down, as the incident says.
    expect(component(d, checkoutId).status).toBe("down");
    // Docs does not publish source incidents: its state comes through its sources only.
    expect(component(d, docsId).status).toBe("degraded");
    expect(d.page.status).toBe("down");
    expect(d.activeIncidents).toMatchObject([
      { severity: "high", impact: "down", componentIds: [checkoutId] },
    ]);

    const html = await get("/status/acme");
    expect(html).toMatch(/<h2 id="overall">Outage<\/h2>/);
    const start = html.indexOf('<article class="card incident');
    const incident = html.slice(start, html.indexOf("</article>", start));
    expect(incident).toContain(">Outage</span>");
    expect(incident).not.toContain("Degraded performance</span>");
    expect(html).toContain(`id="component-${docsId}" data-status="degraded"`);

    const summary = JSON.parse(await get("/status/acme/api/v2/summary.json")) as {
      status: { indicator: string };
      incidents: { impact: string; components: { id: string }[] }[];
      components: { id: string; status: string }[];
    };
    expect(summary.status.indicator).toBe("critical");
    expect(summary.incidents.map((i) => i.impact)).toEqual(["critical"]);
    expect(summary.components.find((c) => c.id === checkoutId)?.status).toBe("major_outage");
    expect(await get("/status/acme/feed.atom")).toContain("Outage");
    expect(await get("/status/acme/badge.svg")).toContain(">down<");
  });

  it("a low incident of a rule that takes its component down says down", async () => {
    nowMs = T0 + 2 * MIN;
    await service.deps.alerts.engine.evaluate(ruleId);
    const d = await data();
    expect(component(d, searchId).status).toBe("down");
    const incident = d.activeIncidents.find((i) => i.componentIds.includes(searchId));
    expect(incident).toMatchObject({ severity: "low", impact: "down" });
  });

  it("turning publishing off takes the incident off the component and its severity out of its state", async () => {
    nowMs = T0 + 3 * MIN;
    const off = await owner.patch(`${pageBase}/components/${checkoutId}`, {
      publishIncidents: false,
    });
    expect(off.status).toBe(200);
    let d = await data();
    expect(component(d, checkoutId).status).toBe("degraded");
    expect(d.activeIncidents.some((i) => i.componentIds.includes(checkoutId))).toBe(false);
    await owner.patch(`${pageBase}/components/${checkoutId}`, { publishIncidents: true });
    d = await data();
    expect(component(d, checkoutId).status).toBe("down");
  });

  it("a muted rule's open incident and a paused monitor's outage leave the page until unmuted or resumed", async () => {
    nowMs = T0 + 4 * MIN;
    const shows = (d: StatusPageData, id: string) =>
      d.activeIncidents.some((i) => i.componentIds.includes(id));
    const version = async () =>
      json<{ page: { dataVersion: number } }>(await owner.get(pageBase)).then(
        (p) => p.page.dataVersion,
      );
    let d = await data();
    expect([component(d, searchId).status, shows(d, searchId)]).toEqual(["down", true]);
    expect([component(d, checkoutId).status, shows(d, checkoutId)]).toEqual(["down", true]);

    // The rule's incident stays open while it is muted; the page no longer counts nor lists it.
    const rule = `/api/projects/${projectId}/alert-rules/${ruleId}`;
    let before = await version();
    expect((await owner.post(`${rule}/mute`, {})).status).toBe(200);
    expect(await version()).toBeGreaterThan(before);
    d = await data();
    expect([component(d, searchId).status, shows(d, searchId)]).toEqual(["operational", false]);
    const openSources = async () =>
      (
        await json<{ data: { source: string }[] }>(
          await owner.get(`/api/projects/${projectId}/incidents?status=active`),
        )
      ).data.map((i) => i.source);
    expect(await openSources()).toContain("alert");
    before = await version();
    expect((await owner.post(`${rule}/unmute`, {})).status).toBe(200);
    expect(await version()).toBeGreaterThan(before);
    d = await data();
    expect([component(d, searchId).status, shows(d, searchId)]).toEqual(["down", true]);

    // Pausing monitor A keeps its outage incident open; Checkout reads from monitor B alone.
    const monitor = `/api/projects/${projectId}/monitors/${monitorA}`;
    before = await version();
    expect((await owner.post(`${monitor}/pause`)).status).toBe(200);
    expect(await version()).toBeGreaterThan(before);
    d = await data();
    expect([component(d, checkoutId).status, shows(d, checkoutId)]).toEqual(["operational", false]);
    expect(component(d, docsId).status).toBe("operational");
    expect(await openSources()).toContain("monitor");
    expect(d.activeIncidents.every((i) => i.componentIds.includes(searchId))).toBe(true);
    before = await version();
    expect((await owner.post(`${monitor}/resume`)).status).toBe(200);
    expect(await version()).toBeGreaterThan(before);
    d = await data();
    expect([component(d, checkoutId).status, shows(d, checkoutId)]).toEqual(["down", true]);
    expect(d.page.status).toBe("down");
  });

  it("a component's first check of the day shows its uptime at once, not 'no data yet'", async () => {
    nowMs = T0 + 10 * MIN;
    const response = await owner.post(`${pageBase}/components`, {
      name: "Website",
      monitorIds: [monitorB],
    });
    const website = await json<{ id: string }>(response);
    expect(component(await data(), website.id).uptime).toBeNull();
    expect(await get("/status/acme")).toContain("Uptime: no data yet");
    // The check lands seconds later, well inside the payload's 30-second reuse.
    nowMs += 5_000;
    await run(monitorB);
    const d = await data();
    expect(component(d, website.id).uptime).toBe(100);
    expect(component(d, website.id).history.at(-1)).toMatchObject({
      date: "2026-11-20",
      checks: { run: 1, passed: 1 },
      uptime: 100,
    });
    expect(await get("/status/acme")).not.toContain("no data yet");
  });

  it("just after UTC midnight the page's last day is the new one, never yesterday's build", async () => {
    nowMs = Date.parse("2026-11-20T23:59:59.000Z");
    expect((await data()).history.to).toBe("2026-11-20");
    nowMs = Date.parse("2026-11-21T00:00:01.000Z");
    const d = await data();
    expect(d.history.to).toBe("2026-11-21");
    expect(component(d, checkoutId).history.at(-1)?.date).toBe("2026-11-21");
    // Yesterday keeps its checks.
    expect(component(d, checkoutId).history.at(-2)?.checks.run).toBeGreaterThan(0);
  });
});
