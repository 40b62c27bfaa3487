import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { hexId, type LogSpec, logsBody, sendOtlp } from "./helpers/otlp.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const NOW = Date.now();
const MIN = 60_000;
const T1 = hexId(0xa1, 32);

/** Project A's records, by name; times are minutes before the test started. */
const RECORDS = {
  old: { service: "api", timeMs: NOW - 180 * MIN, severityNumber: 5, body: "old debug line" },
  login: {
    service: "api",
    timeMs: NOW - 50 * MIN,
    severityNumber: 9,
    severityText: "INFO",
    body: "User alice logged in",
    traceId: T1,
    spanId: hexId(1, 16),
    attributes: { "user.id": "alice", "http.route": "/login" },
  },
  slow: {
    service: "api",
    timeMs: NOW - 40 * MIN,
    severityNumber: 13,
    body: "Slow query on orders",
  },
  failed: {
    service: "api",
    timeMs: NOW - 30 * MIN,
    severityNumber: 17,
    body: "Payment FAILED for order 42",
  },
  paid: {
    service: "web",
    timeMs: NOW - 20 * MIN,
    severityNumber: 9,
    body: "payment succeeded for order 43",
    attributes: { "vigil.source": "frontend" },
  },
  unicode: {
    service: "web",
    timeMs: NOW - 10 * MIN,
    severityNumber: 17,
    body: "Ünïcode Straße failure",
    attributes: { "vigil.source": "frontend" },
  },
  percent: {
    service: "api",
    timeMs: NOW - 5 * MIN,
    severityNumber: 9,
    body: "progress 100% done_ok",
  },
} satisfies Record<string, LogSpec & { service: string }>;
type Name = keyof typeof RECORDS;

interface LogItem {
  id: string;
  message: string;
  level: string;
  source: string;
  service: string;
  timestamp: string;
  traceId: string | null;
}
interface ListBody {
  data: LogItem[];
  pagination: { page: number; limit: number; total: number; totalPages: number; hasMore: boolean };
  errors?: { field: string }[];
}

describe("GET /v1/logs", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let otherKey: string;
  const idOf = new Map<string, Name>();

  const get = async (path: string, apiKey = key) => {
    const response = await service.fetch(path, { headers: { "x-api-key": apiKey } });
    return {
      status: response.status,
      body: (await response.json()) as ListBody & Record<string, unknown>,
    };
  };
  /** The fixture names of a list response, in order. */
  const names = async (query: string) => {
    const { status, body } = await get(`/v1/logs?${query}`);
    expect(status, JSON.stringify(body)).toBe(200);
    return body.data.map((item) => idOf.get(item.id) ?? `foreign:${item.message}`);
  };
  const badParam = async (query: string) => {
    const { status, body } = await get(`/v1/logs?${query}`);
    expect(status).toBe(400);
    return body.errors?.map((e) => e.field);
  };

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "logs@example.com",
        password: "correct horse battery",
      },
    });
    key = setup.apiKey ?? "";
    const _system = { deps: service.deps.domain, actor: { kind: "system" as const } };
    otherKey = (await addProjectWithKey(service, setup.orgId, "prj_other_logs")).key;
    for (const [name, record] of Object.entries(RECORDS)) {
      await sendOtlp(
        service,
        key,
        "logs",
        logsBody(record.service, [record], { "host.name": "h1" }),
      );
      void name;
    }
    await sendOtlp(
      service,
      otherKey,
      "logs",
      logsBody("api", [
        { timeMs: NOW - 15 * MIN, severityNumber: 17, body: "Payment FAILED victim" },
      ]),
    );
    const all = await get("/v1/logs?limit=1000");
    for (const item of all.body.data) {
      const name = (Object.keys(RECORDS) as Name[]).find((n) => RECORDS[n].body === item.message);
      if (name) idOf.set(item.id, name);
    }
    expect(idOf.size).toBe(7);
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("lists every record of the project, newest first, in the list envelope", async () => {
    const { body } = await get("/v1/logs");
    expect(body.pagination).toEqual({
      page: 1,
      limit: 50,
      total: 7,
      totalPages: 1,
      hasMore: false,
    });
    expect(await names("")).toEqual([
      "percent",
      "unicode",
      "paid",
      "failed",
      "slow",
      "login",
      "old",
    ]);
    const login = body.data.find((i) => idOf.get(i.id) === "login");
    expect(login).toMatchObject({
      level: "info",
      service: "api",
      source: "backend",
      traceId: T1,
      timestamp: new Date(RECORDS.login.timeMs).toISOString(),
    });
  });

  it("filters by level, source, service and trace", async () => {
    expect(await names("level=error")).toEqual(["unicode", "failed"]);
    expect(await names("level=warn")).toEqual(["slow"]);
    expect(await names("level=debug")).toEqual(["old"]);
    expect(await names("level=fatal")).toEqual([]);
    expect(await names("source=frontend")).toEqual(["unicode", "paid"]);
    expect(await names("source=backend&level=info")).toEqual(["percent", "login"]);
    expect(await names("service=web")).toEqual(["unicode", "paid"]);
    expect(await names(`trace_id=${T1}`)).toEqual(["login"]);
  });

  it("searches messages as full text: case-insensitive, every term, phrases, wildcards literal", async () => {
    expect(await names("search=payment")).toEqual(["paid", "failed"]);
    expect(await names("search=PAYMENT%20failed")).toEqual(["failed"]);
    expect(await names(`search=${encodeURIComponent('"order 43"')}`)).toEqual(["paid"]);
    expect(await names(`search=${encodeURIComponent("ÜNÏCODE")}`)).toEqual(["unicode"]);
    expect(await names(`search=${encodeURIComponent("0%")}`)).toEqual(["percent"]);
    expect(await names("search=_")).toEqual(["percent"]);
    expect(await names("search=nothing-like-this")).toEqual([]);
  });

  it("windows by time_range, from and to", async () => {
    expect(await names("time_range=1h")).toEqual([
      "percent",
      "unicode",
      "paid",
      "failed",
      "slow",
      "login",
    ]);
    expect(await names("time_range=15m")).toEqual(["percent", "unicode"]);
    const from = new Date(NOW - 45 * MIN).toISOString();
    expect(await names(`from=${from}&to=${NOW - 20 * MIN}`)).toEqual(["failed", "slow"]);
    // `to` is exclusive; a missing `from` is `to` minus the range.
    expect(await names(`to=${RECORDS.paid.timeMs + 1}&time_range=5m`)).toEqual(["paid"]);
    expect(await names(`to=${RECORDS.paid.timeMs}&time_range=15m`)).toEqual(["failed"]);
  });

  it("sorts by level and service, both directions, newest first within ties", async () => {
    expect(await names("sort_by=level&sort_order=asc")).toEqual([
      "old",
      "percent",
      "paid",
      "login",
      "slow",
      "unicode",
      "failed",
    ]);
    expect(await names("sort_by=service&sort_order=desc")).toEqual([
      "unicode",
      "paid",
      "percent",
      "failed",
      "slow",
      "login",
      "old",
    ]);
    expect(await names("sort_by=timestamp&sort_order=asc")).toEqual([
      "old",
      "login",
      "slow",
      "failed",
      "paid",
      "unicode",
      "percent",
    ]);
  });

  it("pages: limit 1 and 1000, pages past the end, and 400 for limit 0 and 1001", async () => {
    const second = await get("/v1/logs?limit=1&page=2");
    expect(second.body.data.map((i) => idOf.get(i.id))).toEqual(["unicode"]);
    expect(second.body.pagination).toEqual({
      page: 2,
      limit: 1,
      total: 7,
      totalPages: 7,
      hasMore: true,
    });
    const last = await get("/v1/logs?limit=3&page=3");
    expect(last.body.data.map((i) => idOf.get(i.id))).toEqual(["old"]);
    expect(last.body.pagination.hasMore).toBe(false);
    const past = await get("/v1/logs?limit=3&page=9&level=error");
    expect(past.body).toEqual({
      data: [],
      pagination: { page: 9, limit: 3, total: 2, totalPages: 1, hasMore: false },
    });
    expect((await get("/v1/logs?limit=1000")).body.pagination.total).toBe(7);
    expect(await badParam("limit=0")).toEqual(["limit"]);
    expect(await badParam("limit=1001")).toEqual(["limit"]);
    expect(await badParam("page=0")).toEqual(["page"]);
    expect(await badParam("limit=ten")).toEqual(["limit"]);
  });

  it("answers 400 naming the parameter for bad values", async () => {
    expect(await badParam("level=verbose")).toEqual(["level"]);
    expect(await badParam("source=mobile")).toEqual(["source"]);
    expect(await badParam("time_range=2w")).toEqual(["time_range"]);
    expect(await badParam("time_range=0h")).toEqual(["time_range"]);
    expect(await badParam("from=yesterday")).toEqual(["from"]);
    expect(await badParam(`from=${NOW}&to=${NOW - 1}`)).toEqual(["from"]);
    expect(await badParam("sort_by=message")).toEqual(["sort_by"]);
    expect(await badParam("sort_order=up")).toEqual(["sort_order"]);
    expect(await badParam("trace_id=xyz")).toEqual(["trace_id"]);
    expect(await badParam(`search=${"a ".repeat(11)}`)).toEqual(["search"]);
    expect(await badParam("levle=error")).toEqual(["levle"]);
  });

  it("shows one record whole, with attributes, resource, scope and the trace link", async () => {
    const id = [...idOf].find(([, name]) => name === "login")?.[0] ?? "";
    const { status, body } = await get(`/v1/logs/${id}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id,
      message: "User alice logged in",
      severityText: "INFO",
      severityNumber: 9,
      userId: "alice",
      attributes: { "user.id": "alice", "http.route": "/login" },
      resource: { "service.name": "api", "host.name": "h1" },
      scope: { name: "fixture", version: "1.0" },
      trace: { traceId: T1, spanId: hexId(1, 16), href: `/v1/traces/${T1}` },
      observedTimestamp: new Date(RECORDS.login.timeMs + 5).toISOString(),
    });
    const noTrace = [...idOf].find(([, name]) => name === "slow")?.[0] ?? "";
    expect((await get(`/v1/logs/${noTrace}`)).body.trace).toBeNull();
  });

  it("answers 404 for unknown ids and for another project's records", async () => {
    const id = [...idOf].find(([, name]) => name === "login")?.[0] ?? "";
    expect((await get("/v1/logs/not-a-log-id")).status).toBe(404);
    const tooLong = await service.fetch(`/v1/logs/log_${"0".repeat(300)}`, {
      headers: { "x-api-key": key },
    });
    expect(tooLong.status).toBe(414);
    expect(tooLong.headers.get("content-type")).toContain("application/problem+json");
    // Another id of the same shape: its last character changed (an id ending in f kept it).
    const other = `${id.slice(0, -1)}${id.endsWith("f") ? "e" : "f"}`;
    expect((await get(`/v1/logs/${other}`)).status).toBe(404);
    expect((await get(`/v1/logs/${id}`, otherKey)).status).toBe(404);
    const foreign = await get("/v1/logs", otherKey);
    expect(foreign.body.data.map((i) => i.message)).toEqual(["Payment FAILED victim"]);
  });

  it("summarizes a window on the dashboard", async () => {
    const { status, body } = await get("/v1/logs/dashboard?time_range=1h");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      bucketSeconds: 60,
      total: 6,
      byLevel: { debug: 0, info: 3, warn: 1, error: 2, fatal: 0 },
      errorRate: 2 / 6,
      topServices: [
        { service: "api", count: 4, errors: 1 },
        { service: "web", count: 2, errors: 1 },
      ],
    });
    const series = body.series as { time: string; total: number; error: number }[];
    expect(series.length).toBeGreaterThanOrEqual(60);
    expect(series.reduce((sum, p) => sum + p.total, 0)).toBe(6);
    const bucket = new Date(Math.floor(RECORDS.failed.timeMs / MIN) * MIN).toISOString();
    expect(series.find((p) => p.time === bucket)).toMatchObject({ error: 1, total: 1 });
    const patterns = (body.topMessages as { pattern: string; count: number }[]).map(
      (m) => m.pattern,
    );
    expect(patterns).toContain("Payment FAILED for order <n>");
    expect(patterns).toContain("progress <n>% done_ok");
    const day = await get("/v1/logs/dashboard");
    expect(day.body).toMatchObject({ total: 7, bucketSeconds: 900 });
    const web = await get("/v1/logs/dashboard?service=web&time_range=24h");
    expect(web.body).toMatchObject({ total: 2, byLevel: { info: 1, error: 1 } });
    expect((await get("/v1/logs/dashboard?time_range=forever")).status).toBe(400);
  });
});
