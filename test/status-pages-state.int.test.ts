import { randomBytes } from "node:crypto";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../src/auth/users.js";
import type { StatusPageData, StatusPageSummary } from "../src/contracts/status-page-data.js";
import { createIdGenerator } from "../src/lib/ids.js";
import {
  findPostgresBin,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "./helpers/postgres.js";
import { addKey, addProjectWithKey } from "./helpers/projects.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn, type TestService } from "./helpers/test-service.js";

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
// A fixed Friday morning, so the day's numbers are exact.
const T0 = Date.parse("2026-11-20T10:00:00.000Z");
const TODAY = "2026-11-20";

interface Page<T> {
  data: T[];
  pagination: { total: number };
}
const postgresBin = findPostgresBin();
/** Both metadata engines: the day rows are atomic upserts written in each one's SQL. */
const ENGINES = ["SQLite", ...(postgresBin ? ["PostgreSQL"] : [])];

const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;

/**
 * Status page state and history on a fake clock, through the real service: monitor checks, an
 * outage, a maintenance window, public incident updates, the /v1 endpoints and the public page.
 */
describe.each(ENGINES)("status page state, history and public reads on %s", (engine) => {
  const dir = makeTempDir();
  let postgres: ThrowawayPostgres | undefined;
  let nowMs = T0;
  const clock = { now: () => new Date(nowMs) };
  let service: TestService;
  let owner: Session;
  let orgId: string;
  let projectId: string;
  let key: string;
  let target: Server;
  let targetUrl: string;
  let status = 200;
  let monitorId: string;
  let apiId: string;
  let webId: string;
  let pageId: string;

  const data = async () => {
    const response = await service.fetch("/status/acme.json");
    expect(response.status).toBe(200);
    return json<StatusPageData>(response);
  };
  const component = (d: StatusPageData, id: string) => {
    const found = d.services.find((s) => s.id === id);
    if (!found) throw new Error(`no component ${id}`);
    return found;
  };
  const today = (d: StatusPageData, id: string) => component(d, id).history.at(-1);
  const check = async (at: number) => {
    nowMs = at;
    const response = await owner.post(`/api/projects/${projectId}/monitors/${monitorId}/run`);
    expect(response.status).toBe(200);
  };
  const tick = async (at: number) => {
    nowMs = at;
    await service.deps.statusPages.ticker.runOnce();
  };

  beforeAll(async () => {
    target = createServer((_req, res) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end("{}");
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/internal-health`;
    if (engine === "PostgreSQL") postgres = await startThrowawayPostgres(postgresBin ?? "");
    ({ service, owner, orgId, projectId } = await startWithRoles(
      dir.path,
      {
        VIGIL_MONITORS_ENABLED: "false",
        VIGIL_ALERTS_ENABLED: "false",
        VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
        ...(postgres
          ? { VIGIL_META_URL: postgres.url, VIGIL_SECRET_KEY: randomBytes(32).toString("base64") }
          : {}),
      },
      { clock, newId: createIdGenerator(() => nowMs) },
    ));
    key = await addKey(service, projectId, { name: "status", role: "read_only" });
    monitorId = (
      await json<{ id: string }>(
        await owner.post(`/api/projects/${projectId}/monitors`, {
          name: "Checkout API",
          type: "api",
          frequency: "1m",
          alertAfter: 1,
          steps: [{ url: targetUrl }],
        }),
      )
    ).id;
    const base = `/api/orgs/${orgId}/status-pages`;
    pageId = (
      await json<{ page: { id: string } }>(
        await owner.post(base, { slug: "acme", title: "Acme status", timezone: "Europe/Paris" }),
      )
    ).page.id;
    const add = async (name: string) => {
      const response = await owner.post(`${base}/${pageId}/components`, {
        name,
        monitorIds: [monitorId],
      });
      expect(response.status).toBe(201);
      return (await json<{ id: string }>(response)).id;
    };
    apiId = await add("API");
    webId = await add("Website");
  });

  afterAll(async () => {
    await service?.stop();
    await new Promise<void>((resolve) => target?.close(() => resolve()));
    await postgres?.stop();
    dir.remove();
  });

  it("starts operational with 90 days of history, counting the day's checks", async () => {
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
    status = 503;
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
    nowMs = T0 + 11 * MIN;
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
    const [incident] = (await data()).activeIncidents;
    const path = `/api/projects/${projectId}/incidents/${incident?.id}`;
    nowMs = T0 + 12 * MIN;
    expect((await owner.post(`${path}/comments`, { message: "pager: db-oncall" })).status).toBe(
      200,
    );
    nowMs = T0 + 13 * MIN;
    expect(
      (await owner.post(`${path}/updates`, { message: "Found the cause", phase: "identified" }))
        .status,
    ).toBe(200);
    nowMs = T0 + 14 * MIN;
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
    await tick(T0 + 31 * MIN);
    const d = await data();
    expect(component(d, webId).status).toBe("down");
    expect(d.maintenance).toEqual([]);
  });

  it("recovery restores the components and the page; the day keeps its uptime, downtime and incident", async () => {
    status = 200;
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
    nowMs = T0 + DAY;
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

  it("caches a build per version: served on while the next builds, rebuilt at once on a change", async () => {
    const etag = async () => {
      const response = await service.fetch("/status/acme.json", {
        headers: { "accept-encoding": "identity" },
      });
      await response.arrayBuffer();
      return response.headers.get("etag");
    };
    nowMs += 60 * MIN;
    const first = await etag();
    expect(await etag()).toBe(first);
    nowMs += 31_000;
    // Past 30 s the build is served once more while the next one runs in the background.
    expect(await etag()).toBe(first);
    // The background build lands shortly (polled, so a busy machine only makes it slower).
    let second = await etag();
    for (let i = 0; i < 100 && second === first; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      second = await etag();
    }
    expect(second).not.toBe(first);
    // Past 60 s nobody asked: the request waits for a fresh build.
    nowMs += 61_000;
    const third = await etag();
    expect(third).not.toBe(second);
    // A change of what the page shows is a new data version: a new build at once.
    const renamed = await owner.patch(`/api/orgs/${orgId}/status-pages/${pageId}`, {
      title: "Acme platform status",
    });
    expect(renamed.status).toBe(200);
    expect((await data()).page.title).toBe("Acme platform status");
  });

  it("links drawn from a request's Host are neither kept for others nor shared; a bad Host is a 400", async () => {
    const get = (path: string, host: string) =>
      new Promise<{ status: number; cache: string; body: string }>((resolve, reject) => {
        const url = new URL(service.url);
        const req = httpRequest(
          { host: url.hostname, port: url.port, path, headers: { host } },
          (res) => {
            let body = "";
            res.on("data", (chunk: Buffer) => {
              body += chunk.toString();
            });
            res.on("end", () =>
              resolve({
                status: res.statusCode ?? 0,
                cache: String(res.headers["cache-control"]),
                body,
              }),
            );
          },
        );
        req.on("error", reject);
        req.end();
      });
    const poisoned = await get("/status/acme/feed.atom", "evil.example");
    expect(poisoned.status).toBe(200);
    expect(poisoned.cache).toMatch(/^private/);
    expect(poisoned.body).toContain("http://evil.example/status/acme");
    const honest = await get("/status/acme/feed.atom", new URL(service.url).host);
    expect(honest.body).not.toContain("evil.example");
    expect((await get("/status/acme/feed.atom", "bad host")).status).toBe(400);
    // The page itself has no absolute links: shared and cached whatever the Host.
    expect((await get("/status/acme", "evil.example")).cache).toMatch(/^public/);
  });

  it("/v1/status-pages/:slug/data answers the organization's keys only", async () => {
    const own = await service.fetch("/v1/status-pages/acme/data", {
      headers: { "x-api-key": key },
    });
    expect(own.status).toBe(200);
    expect((await json<StatusPageData>(own)).services).toHaveLength(2);
    const other = await service.deps.meta.repos.organizations.insert({
      id: "org_other_tenant",
      name: "Other",
      createdAt: new Date().toISOString(),
    });
    const { key: foreign } = await addProjectWithKey(service, other.id, "prj_other_tenant");
    const refused = await service.fetch("/v1/status-pages/acme/data", {
      headers: { "x-api-key": foreign },
    });
    expect(refused.status).toBe(404);
    const list = await json<Page<StatusPageSummary>>(
      await service.fetch("/v1/status-pages", { headers: { "x-api-key": foreign } }),
    );
    expect(list.data).toEqual([]);
  });

  it("a firing alert rule degrades a component beside a passing monitor; mute, unmute and delete move it", async () => {
    nowMs = T0 + DAY + 60 * MIN;
    const rule = await json<{ id: string }>(
      await owner.post(`/api/projects/${projectId}/alert-rules`, {
        name: "Any logs",
        query: "SELECT count() AS value FROM logs",
        condition: { op: ">=", threshold: 0 },
      }),
    );
    const base = `/api/orgs/${orgId}/status-pages/${pageId}/components`;
    const search = await json<{ id: string }>(
      await owner.post(base, { name: "Search", monitorIds: [monitorId], alertRuleIds: [rule.id] }),
    );
    const state = async () => component(await data(), search.id).status;
    expect(await state()).toBe("operational");
    await service.deps.alerts.engine.evaluate(rule.id);
    expect(await state()).toBe("degraded");
    expect((await data()).page.status).toBe("degraded");
    const rules = `/api/projects/${projectId}/alert-rules/${rule.id}`;
    expect((await owner.post(`${rules}/mute`, {})).status).toBe(200);
    expect(await state()).toBe("operational");
    expect((await owner.post(`${rules}/unmute`, {})).status).toBe(200);
    expect(await state()).toBe("degraded");
    expect((await owner.delete(rules)).status).toBe(204);
    expect(await state()).toBe("operational");
    expect((await data()).page.status).toBe("operational");
  });

  it("an incident opened by hand shows on the components it names, with its updates, until resolved", async () => {
    nowMs = T0 + DAY + 2 * 60 * MIN;
    const incidents = `/api/projects/${projectId}/incidents`;
    // A member may open incidents, but only owners and admins put them on public pages.
    const member = { email: "member@example.com", password: "member secret 1" };
    await createUser({
      ctx: { deps: service.deps.domain, actor: { kind: "system" } },
      input: { ...member, orgId, role: "member" },
    });
    const memberSession = await signIn(service, member.email, member.password);
    const refused = await memberSession.post(incidents, {
      title: "Payments degraded",
      severity: "medium",
      componentIds: [webId],
    });
    expect(refused.status).toBe(403);
    const bad = await owner.post(incidents, {
      title: "Payments degraded",
      severity: "medium",
      componentIds: [webId, "spc_elsewhere"],
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("componentIds.1");
    const created = await owner.post(incidents, {
      title: "Payments degraded",
      severity: "medium",
      message: "Some card payments fail",
      componentIds: [webId],
    });
    expect(created.status).toBe(201);
    const incident = await json<{ id: string; componentIds: string[] }>(created);
    expect(incident.componentIds).toEqual([webId]);
    let d = await data();
    expect(component(d, webId).status).toBe("degraded");
    expect(component(d, apiId).status).toBe("operational");
    expect(d.page.status).toBe("degraded");
    expect(d.activeIncidents).toMatchObject([
      {
        title: "Payments degraded",
        impact: "degraded",
        componentIds: [webId],
        updates: [{ phase: "investigating", message: "Some card payments fail" }],
      },
    ]);
    expect(
      (await owner.patch(`${incidents}/${incident.id}`, { componentIds: [apiId] })).status,
    ).toBe(200);
    d = await data();
    expect(component(d, webId).status).toBe("operational");
    expect(component(d, apiId).status).toBe("degraded");
    nowMs += 10 * MIN;
    expect((await owner.post(`${incidents}/${incident.id}/resolve`, {})).status).toBe(200);
    d = await data();
    expect(d.page.status).toBe("operational");
    expect(d.activeIncidents).toEqual([]);
    expect(today(d, apiId)).toMatchObject({
      status: "degraded",
      degradedMs: 10 * MIN,
      incidents: [{ title: "Payments degraded", severity: "medium" }],
    });
  });

  it("a muted rule's open incident leaves the page while the mute holds and comes back when it ends", async () => {
    nowMs = T0 + DAY + 3 * 60 * MIN;
    const rule = await json<{ id: string }>(
      await owner.post(`/api/projects/${projectId}/alert-rules`, {
        name: "Queue backlog",
        severity: "high",
        openIncident: true,
        query: "SELECT count() AS value FROM logs",
        condition: { op: ">=", threshold: 0 },
      }),
    );
    const queue = await json<{ id: string }>(
      await owner.post(`/api/orgs/${orgId}/status-pages/${pageId}/components`, {
        name: "Queue",
        alertRuleIds: [rule.id],
      }),
    );
    const shown = (d: StatusPageData) =>
      d.activeIncidents.filter((i) => i.componentIds.includes(queue.id)).map((i) => i.impact);
    await service.deps.alerts.engine.evaluate(rule.id);
    let d = await data();
    expect([component(d, queue.id).status, shown(d), d.page.status]).toEqual([
      "down",
      ["down"],
      "down",
    ]);
    const rules = `/api/projects/${projectId}/alert-rules/${rule.id}`;
    const until = new Date(nowMs + 10 * MIN).toISOString();
    expect((await owner.post(`${rules}/mute`, { until })).status).toBe(200);
    d = await data();
    expect([component(d, queue.id).status, shown(d), d.page.status]).toEqual([
      "operational",
      [],
      "operational",
    ]);
    // Still open: muting only stops the page from counting it.
    const open = await json<{ data: { source: string }[] }>(
      await owner.get(`/api/projects/${projectId}/incidents?status=active`),
    );
    expect(open.data.map((i) => i.source)).toContain("alert");
    await tick(nowMs + 5 * MIN);
    expect(component(await data(), queue.id).status).toBe("operational");
    // The mute ends: the next tick counts the incident again.
    await tick(Date.parse(until) + MIN);
    d = await data();
    expect([component(d, queue.id).status, shown(d), d.page.status]).toEqual([
      "down",
      ["down"],
      "down",
    ]);
    expect((await owner.delete(rules)).status).toBe(204);
    d = await data();
    expect([component(d, queue.id).status, shown(d)]).toEqual(["operational", []]);
  });

  it("a mute that ends gives the page a new version even where the component's state stays", async () => {
    nowMs = T0 + DAY + 4 * 60 * MIN;
    const rule = await json<{ id: string }>(
      await owner.post(`/api/projects/${projectId}/alert-rules`, {
        name: "Mail bounces",
        severity: "low",
        openIncident: true,
        query: "SELECT count() AS value FROM logs",
        condition: { op: ">=", threshold: 0 },
      }),
    );
    const mail = await json<{ id: string }>(
      await owner.post(`/api/orgs/${orgId}/status-pages/${pageId}/components`, {
        name: "Mail",
        alertRuleIds: [rule.id],
      }),
    );
    const incidents = `/api/projects/${projectId}/incidents`;
    const outage = await json<{ id: string }>(
      await owner.post(incidents, {
        title: "Mail down",
        severity: "critical",
        componentIds: [mail.id],
      }),
    );
    await service.deps.alerts.engine.evaluate(rule.id);
    const rules = `/api/projects/${projectId}/alert-rules/${rule.id}`;
    const until = new Date(nowMs + 10 * MIN).toISOString();
    expect((await owner.post(`${rules}/mute`, { until })).status).toBe(200);
    const severities = (d: StatusPageData) =>
      d.activeIncidents
        .filter((i) => i.componentIds.includes(mail.id))
        .map((i) => i.severity)
        .sort();
    const version = async () =>
      (
        await json<{ page: { dataVersion: number } }>(
          await owner.get(`/api/orgs/${orgId}/status-pages/${pageId}`),
        )
      ).page.dataVersion;
    let d = await data();
    expect([component(d, mail.id).status, severities(d)]).toEqual(["down", ["critical"]]);
    await tick(nowMs + MIN);
    const before = await version();
    // Still down by the critical incident, but the rule's incident is back on it.
    await tick(Date.parse(until) + MIN);
    expect(await version()).toBeGreaterThan(before);
    d = await data();
    expect([component(d, mail.id).status, severities(d)]).toEqual(["down", ["critical", "low"]]);
    expect((await owner.post(`${incidents}/${outage.id}/resolve`, {})).status).toBe(200);
    expect((await owner.delete(rules)).status).toBe(204);
  });
});
