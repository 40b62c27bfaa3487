import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE, getJson, HOUR, MIN, startSessionsService } from "./helpers/session-fixtures.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

interface SessionItem {
  id: string;
  [field: string]: unknown;
}
interface ListBody {
  data: SessionItem[];
  pagination: { page: number; limit: number; total: number; totalPages: number; hasMore: boolean };
  errors?: { field: string }[];
  code?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const ALL_NEWEST_FIRST = ["sess-epsilon", "sess-gamma", "sess-beta", "sess-delta", "sess-alpha"];

describe("GET /v1/sessions", () => {
  const dir = makeTempDir();
  let service: TestService;
  let fixture: Awaited<ReturnType<typeof startSessionsService>>;
  let key: string;

  const list = (query: string, apiKey = key) =>
    getJson<ListBody>(service, `/v1/sessions?${query}`, apiKey);
  /** The session ids of a list response, in order. */
  const ids = async (query: string) => {
    const { status, body } = await list(query);
    expect(status, JSON.stringify(body)).toBe(200);
    return body.data.map((s) => s.id);
  };
  const badParam = async (query: string) => {
    const { status, body } = await list(query);
    expect(status).toBe(400);
    return body.errors?.map((e) => e.field);
  };

  beforeAll(async () => {
    fixture = await startSessionsService(dir.path);
    service = fixture.service;
    key = (await fixture.newKey(fixture.projectA)).key;
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("merges each session's partial rows into one summary", async () => {
    // Precondition: sess-alpha came in two requests, so it has two partial rows.
    const partial = await service.deps.telemetry.query<{ n: string }>(
      `SELECT count() AS n FROM ${service.deps.telemetry.database}.sessions
       WHERE project_id = {p:String} AND session_id = 'sess-alpha'`,
      { params: { p: fixture.projectA } },
    );
    expect(Number(partial[0]?.n)).toBe(2);
    const { body } = await list("");
    expect(body.pagination).toEqual({
      page: 1,
      limit: 50,
      total: 5,
      totalPages: 1,
      hasMore: false,
    });
    expect(body.data.map((s) => s.id)).toEqual(ALL_NEWEST_FIRST);
    const byId = new Map(body.data.map((s) => [s.id, s]));
    expect(byId.get("sess-alpha")).toEqual({
      id: "sess-alpha",
      userId: "u1",
      startedAt: iso(BASE),
      lastSeen: iso(BASE + 90 * MIN),
      durationMs: 90 * MIN,
      // Errors: the two exceptions of POST /api/pay (two occurrences), the failed GET /api/flaky
      // and the error log without a span.
      counts: { spans: 5, logs: 2, errors: 4, aiSpans: 1 },
      services: ["api-gateway", "assistant", "web-frontend"],
      browser: "Chrome",
      browserVersion: "131.0.0.0",
      os: "Windows",
      device: "desktop",
      country: "US",
      referrer: "https://www.google.com/search?q=vigil",
      entryPage: "/",
      pageCount: 3,
    });
    expect(byId.get("sess-gamma")).toEqual({
      id: "sess-gamma",
      userId: "u1",
      startedAt: iso(BASE + 4 * HOUR),
      lastSeen: iso(BASE + 4 * HOUR + 10 * MIN),
      durationMs: 10 * MIN,
      counts: { spans: 1, logs: 2, errors: 1, aiSpans: 0 },
      services: ["api-gateway", "web-frontend"],
      browser: "Safari",
      browserVersion: "18.1",
      os: "iOS",
      device: "mobile",
      country: "FR",
      referrer: "https://t.co/abc",
      entryPage: "/assistant",
      pageCount: 2,
    });
    expect(byId.get("sess-delta")).toEqual({
      id: "sess-delta",
      userId: null,
      startedAt: iso(BASE + HOUR),
      lastSeen: iso(BASE + HOUR),
      durationMs: 0,
      counts: { spans: 1, logs: 0, errors: 0, aiSpans: 0 },
      services: ["orders-service"],
      browser: null,
      browserVersion: null,
      os: null,
      device: null,
      country: null,
      referrer: null,
      entryPage: null,
      pageCount: 0,
    });
    expect(byId.get("sess-beta")).toMatchObject({
      browser: "Firefox",
      browserVersion: "132.0",
      os: "Linux",
      referrer: null,
      durationMs: 5 * MIN,
      counts: { spans: 3, logs: 0, errors: 0, aiSpans: 0 },
    });
    expect(byId.get("sess-epsilon")).toMatchObject({
      os: "Android",
      device: "mobile",
      country: "US",
    });
  });

  it("filters by user, browser, os, device, country and errors, combined with AND", async () => {
    expect(await ids("user_id=u1")).toEqual(["sess-gamma", "sess-alpha"]);
    expect(await ids("user_id=u")).toEqual([]);
    expect(await ids("browser=chrome")).toEqual(["sess-epsilon", "sess-alpha"]);
    expect(await ids("browser=Safari")).toEqual(["sess-gamma"]);
    expect(await ids("os=ios")).toEqual(["sess-gamma"]);
    expect(await ids("os=Windows")).toEqual(["sess-alpha"]);
    expect(await ids("device=mobile")).toEqual(["sess-epsilon", "sess-gamma"]);
    expect(await ids("device=desktop")).toEqual(["sess-beta", "sess-alpha"]);
    expect(await ids("device=tablet")).toEqual([]);
    expect(await ids("country=us")).toEqual(["sess-epsilon", "sess-alpha"]);
    expect(await ids("country=FR")).toEqual(["sess-gamma"]);
    expect(await ids("has_errors=true")).toEqual(["sess-gamma", "sess-alpha"]);
    expect(await ids("has_errors=false")).toEqual(["sess-epsilon", "sess-beta", "sess-delta"]);
    expect(await ids("user_id=u1&has_errors=true&device=desktop")).toEqual(["sess-alpha"]);
    expect(await ids("browser=chrome&country=us&device=mobile")).toEqual(["sess-epsilon"]);
  });

  it("sorts by every whitelisted field, ties newest first then by id", async () => {
    expect(await ids("sort_order=asc")).toEqual([...ALL_NEWEST_FIRST].reverse());
    expect(await ids("sort_by=last_seen")).toEqual([
      "sess-epsilon",
      "sess-gamma",
      "sess-beta",
      "sess-alpha",
      "sess-delta",
    ]);
    // epsilon and delta both last 0 ms: the newer comes first.
    expect(await ids("sort_by=duration")).toEqual([
      "sess-alpha",
      "sess-gamma",
      "sess-beta",
      "sess-epsilon",
      "sess-delta",
    ]);
    expect(await ids("sort_by=duration&sort_order=asc")).toEqual([
      "sess-epsilon",
      "sess-delta",
      "sess-beta",
      "sess-gamma",
      "sess-alpha",
    ]);
    expect(await ids("sort_by=errors")).toEqual([
      "sess-alpha",
      "sess-gamma",
      "sess-epsilon",
      "sess-beta",
      "sess-delta",
    ]);
    expect(await ids("sort_by=spans")).toEqual([
      "sess-alpha",
      "sess-beta",
      "sess-epsilon",
      "sess-gamma",
      "sess-delta",
    ]);
    expect(await ids("sort_by=spans&sort_order=asc")).toEqual([
      "sess-epsilon",
      "sess-gamma",
      "sess-delta",
      "sess-beta",
      "sess-alpha",
    ]);
  });

  it("pages through the list, and past its end", async () => {
    const first = await list("limit=2");
    expect(first.body.data.map((s) => s.id)).toEqual(["sess-epsilon", "sess-gamma"]);
    expect(first.body.pagination).toEqual({
      page: 1,
      limit: 2,
      total: 5,
      totalPages: 3,
      hasMore: true,
    });
    expect(await ids("limit=2&page=2")).toEqual(["sess-beta", "sess-delta"]);
    const last = await list("limit=2&page=3");
    expect(last.body.data.map((s) => s.id)).toEqual(["sess-alpha"]);
    expect(last.body.pagination).toEqual({
      page: 3,
      limit: 2,
      total: 5,
      totalPages: 3,
      hasMore: false,
    });
    const past = await list("limit=2&page=4");
    expect(past.status).toBe(200);
    expect(past.body).toEqual({
      data: [],
      pagination: { page: 4, limit: 2, total: 5, totalPages: 3, hasMore: false },
    });
    const one = await list("limit=1");
    expect(one.body.data.map((s) => s.id)).toEqual(["sess-epsilon"]);
    expect(one.body.pagination).toEqual({
      page: 1,
      limit: 1,
      total: 5,
      totalPages: 5,
      hasMore: true,
    });
    const max = await list("limit=1000");
    expect(max.body.data.map((s) => s.id)).toEqual(ALL_NEWEST_FIRST);
    expect(max.body.pagination).toEqual({
      page: 1,
      limit: 1000,
      total: 5,
      totalPages: 1,
      hasMore: false,
    });
    // Past the end of an empty filter: total 0, one (empty) page.
    expect((await list("user_id=nobody&page=2")).body.pagination).toEqual({
      page: 2,
      limit: 50,
      total: 0,
      totalPages: 1,
      hasMore: false,
    });
  });

  it("lists sessions overlapping the window, not only those starting in it", async () => {
    // alpha runs from BASE to BASE+90min; delta is at BASE+1h.
    expect(await ids(`from=${iso(BASE + HOUR)}&to=${iso(BASE + HOUR + 30 * MIN)}`)).toEqual([
      "sess-delta",
      "sess-alpha",
    ]);
    // Last seen exactly at `from` overlaps; starting exactly at `to` (exclusive) does not.
    expect(await ids(`from=${iso(BASE + 90 * MIN)}&to=${iso(BASE + 2 * HOUR)}`)).toEqual([
      "sess-alpha",
    ]);
    expect(await ids(`from=${BASE + 90 * MIN + 1}&to=${BASE + 2 * HOUR + 1}`)).toEqual([
      "sess-beta",
    ]);
    expect(await ids(`from=${iso(BASE + 4 * HOUR + 5 * MIN)}`)).toEqual([
      "sess-epsilon",
      "sess-gamma",
    ]);
    expect(await ids(`to=${iso(BASE + 1)}`)).toEqual(["sess-alpha"]);
    expect(await ids("time_range=24h")).toEqual(ALL_NEWEST_FIRST);
    // Every fixture is at least an hour old.
    expect(await ids("time_range=15m")).toEqual([]);
    expect(await ids(`time_range=1h&to=${iso(BASE + 4 * HOUR + 30 * MIN)}`)).toEqual([
      "sess-gamma",
    ]);
  });

  it("answers 400 naming the parameter for bad values", async () => {
    expect(await badParam("limit=0")).toEqual(["limit"]);
    expect(await badParam("limit=1001")).toEqual(["limit"]);
    expect(await badParam("page=0")).toEqual(["page"]);
    expect(await badParam("sort_by=name")).toEqual(["sort_by"]);
    expect(await badParam("sort_order=up")).toEqual(["sort_order"]);
    expect(await badParam("device=phone")).toEqual(["device"]);
    expect(await badParam("country=USA")).toEqual(["country"]);
    expect(await badParam("has_errors=yes")).toEqual(["has_errors"]);
    expect(await badParam("time_range=2w")).toEqual(["time_range"]);
    expect(await badParam("from=yesterday")).toEqual(["from"]);
    expect(await badParam(`from=${BASE + HOUR}&to=${BASE}`)).toEqual(["from"]);
    expect(await badParam(`user_id=${"u".repeat(257)}`)).toEqual(["user_id"]);
    expect((await list("colour=red")).status).toBe(400);
  });

  it("never shows another project's sessions, even with the same id", async () => {
    const keyB = (await fixture.newKey(fixture.projectB)).key;
    const { body } = await list("", keyB);
    expect(body.data.map((s) => s.id)).toEqual(["sess-omega", "sess-alpha"]);
    expect(body.data[1]).toMatchObject({
      userId: "intruder",
      country: "JP",
      counts: { spans: 1, logs: 0, errors: 1, aiSpans: 0 },
      services: ["intruder-web"],
    });
    expect(await ids("user_id=intruder")).toEqual([]);
    expect(await ids("country=JP")).toEqual([]);
  });

  describe("security", () => {
    const PATHS = ["/v1/sessions", "/v1/sessions/sess-alpha", "/v1/traffic"];
    const statuses = (apiKey: string | undefined) =>
      Promise.all(PATHS.map(async (path) => (await getJson(service, path, apiKey)).status));

    it("answers 401 without a key, with a bad key and with a revoked key", async () => {
      expect(await statuses(undefined)).toEqual([401, 401, 401]);
      expect(await statuses("vgl_notARealKeyButWellFormed0000000")).toEqual([401, 401, 401]);
      const revoked = await fixture.newKey(fixture.projectA);
      expect(await statuses(revoked.key)).toEqual([200, 200, 200]);
      await fixture.revoke(revoked.id, fixture.projectA);
      expect(await statuses(revoked.key)).toEqual([401, 401, 401]);
    });

    it("answers 403 to a key without sessions:read", async () => {
      const { key: logsOnly } = await fixture.newKey(fixture.projectA, {
        name: "logs only",
        permissions: ["logs:read", "traces:read", "ingest"],
      });
      expect(await statuses(logsOnly)).toEqual([403, 403, 403]);
      const { key: sessionsOnly } = await fixture.newKey(fixture.projectA, {
        name: "sessions only",
        permissions: ["sessions:read"],
      });
      expect(await statuses(sessionsOnly)).toEqual([200, 200, 200]);
    });

    it("answers another project's key from that project only", async () => {
      const keyB = (await fixture.newKey(fixture.projectB)).key;
      expect((await getJson(service, "/v1/sessions/sess-gamma", keyB)).status).toBe(404);
      expect((await getJson(service, "/v1/sessions/sess-omega", key)).status).toBe(404);
    });

    it("rate-limits each key to 100 requests a minute on every route", async () => {
      const { key: limited } = await fixture.newKey(fixture.projectA);
      for (let i = 0; i < 100; i++) {
        const response = await service.fetch("/v1/sessions?limit=1", {
          headers: { "x-api-key": limited },
        });
        expect(response.status).toBe(200);
      }
      expect(await statuses(limited)).toEqual([429, 429, 429]);
      const response = await service.fetch("/v1/traffic", { headers: { "x-api-key": limited } });
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await response.json()) as { code: string }).code).toBe("rate_limited");
    });
  });
});
