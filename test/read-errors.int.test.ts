import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../src/auth/users.js";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { hexId, logsBody, type SpanSpec, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn, startTestService, type TestService } from "./helpers/test-service.js";

const NOW = Date.now();
const MIN = 60_000;
const STACK = (fn: string) =>
  `TypeError: Cannot read properties of undefined\n    at ${fn} (/srv/app/src/cart.ts:10:5)\n    at handle (/srv/app/src/server.ts:3:1)`;

/** A failing span with an exception event, `minutesAgo` before the test started. */
const failing = (
  n: number,
  minutesAgo: number,
  type: string,
  stack: string,
  escaped = false,
): SpanSpec => ({
  traceId: hexId(n, 32),
  spanId: hexId(n, 16),
  name: "op",
  startMs: NOW - minutesAgo * MIN,
  durationMs: 5,
  error: true,
  events: [
    {
      name: "exception",
      timeMs: NOW - minutesAgo * MIN + 1,
      attributes: {
        "exception.type": type,
        "exception.message": `failed ${n}`,
        "exception.stacktrace": stack,
        ...(escaped ? { "exception.escaped": true } : {}),
      },
    },
  ],
});

interface ErrorItem {
  id: string;
  type: string;
  status: string;
  severity: string;
  occurrences: number;
  services: string[];
  source: string;
  resolvedAt: string | null;
  [key: string]: unknown;
}
interface Body {
  data: ErrorItem[];
  pagination: { total: number; hasMore: boolean };
  errors?: { field: string }[];
  [key: string]: unknown;
}

describe("errors: /v1/errors and PATCH /api/projects/:projectId/errors/:errorId", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let otherKey: string;
  let projectId: string;
  let orgId: string;
  const id: Record<"cart" | "card" | "fatal", string> = { cart: "", card: "", fatal: "" };

  const get = async (path: string, apiKey = key) => {
    const response = await service.fetch(path, { headers: { "x-api-key": apiKey } });
    return { status: response.status, body: (await response.json()) as Body };
  };
  const types = async (query: string) => {
    const { status, body } = await get(`/v1/errors?${query}`);
    expect(status, JSON.stringify(body)).toBe(200);
    return body.data.map((e) => e.type);
  };

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "owner@example.com",
        password: "correct horse battery",
      },
    });
    key = setup.apiKey ?? "";
    projectId = setup.projectId;
    orgId = setup.orgId;
    const system = { deps: service.deps.domain, actor: { kind: "system" as const } };
    await createUser({
      ctx: system,
      input: {
        email: "viewer@example.com",
        password: "correct horse battery",
        orgId,
        role: "viewer",
      },
    });
    await createUser({
      ctx: system,
      input: {
        email: "stranger@example.com",
        password: "correct horse battery",
        newOrg: "Elsewhere",
      },
    });
    otherKey = (await addProjectWithKey(service, orgId, "prj_other_errors")).key;

    // cart: 3 occurrences in api (2) and worker (1), one of them 3 days ago; card: escaped, 1.
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("api", [
        failing(1, 90, "TypeError", STACK("addToCart")),
        failing(2, 30, "TypeError", STACK("addToCart")),
      ]),
    );
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("worker", [failing(3, 3 * 24 * 60, "TypeError", STACK("addToCart"))]),
    );
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("api", [failing(4, 10, "CardDeclined", "", true)]),
    );
    // fatal: a frontend fatal log without a trace.
    await sendOtlp(
      service,
      key,
      "logs",
      logsBody(
        "web",
        [{ timeMs: NOW - 5 * MIN, severityNumber: 21, body: "Out of memory in tab 7" }],
        {
          "telemetry.sdk.language": "webjs",
        },
      ),
    );
    await sendOtlp(
      service,
      otherKey,
      "traces",
      tracesBody("api", [failing(9, 5, "VictimError", "")]),
    );
    const all = await get("/v1/errors");
    for (const e of all.body.data) {
      if (e.type === "TypeError") id.cart = e.id;
      if (e.type === "CardDeclined") id.card = e.id;
      if (e.type === "fatal") id.fatal = e.id;
    }
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("lists groups, most recently seen first, with counts, services, severity and source", async () => {
    const { body } = await get("/v1/errors");
    expect(body.pagination).toMatchObject({ total: 3, hasMore: false });
    expect(body.data.map((e) => [e.type, e.occurrences, e.severity, e.source, e.services])).toEqual(
      [
        ["fatal", 1, "critical", "frontend", ["web"]],
        ["CardDeclined", 1, "high", "backend", ["api"]],
        ["TypeError", 3, "medium", "backend", ["api", "worker"]],
      ],
    );
    expect(body.data[2]).toMatchObject({
      status: "active",
      culprit: "src/cart.ts in addToCart",
      firstSeen: new Date(NOW - 3 * 24 * 60 * MIN + 1).toISOString(),
      lastSeen: new Date(NOW - 30 * MIN + 1).toISOString(),
      resolvedAt: null,
    });
  });

  it("filters, searches, sorts, windows and pages", async () => {
    expect(await types("severity=critical")).toEqual(["fatal"]);
    expect(await types("severity=low")).toEqual([]);
    expect(await types("service=worker")).toEqual(["TypeError"]);
    expect(await types("source=frontend")).toEqual(["fatal"]);
    expect(await types("search=memory%20TAB")).toEqual(["fatal"]);
    expect(await types("search=typeerror")).toEqual(["TypeError"]);
    expect(await types("sort_by=occurrences")).toEqual(["TypeError", "fatal", "CardDeclined"]);
    expect(await types("sort_by=first_seen&sort_order=asc")).toEqual([
      "TypeError",
      "CardDeclined",
      "fatal",
    ]);
    expect(await types("sort_by=severity")).toEqual(["fatal", "CardDeclined", "TypeError"]);
    expect(await types("time_range=20m")).toEqual(["fatal", "CardDeclined"]);
    expect(await types(`from=${NOW - 4 * 24 * 60 * MIN}&to=${NOW - 2 * 24 * 60 * MIN}`)).toEqual([
      "TypeError",
    ]);
    const page = await get("/v1/errors?limit=1&page=2");
    expect(page.body.data.map((e) => e.type)).toEqual(["CardDeclined"]);
    expect(page.body.pagination).toMatchObject({ total: 3, hasMore: true });
    expect((await get("/v1/errors?page=4&limit=1")).body).toMatchObject({
      data: [],
      pagination: { total: 3, hasMore: false },
    });
    for (const bad of [
      "status=open",
      "severity=urgent",
      "limit=1001",
      "sort_by=type",
      "source=x",
    ]) {
      const { status, body } = await get(`/v1/errors?${bad}`);
      expect(status, bad).toBe(400);
      expect(body.errors?.[0]?.field).toBe(bad.split("=")[0]);
    }
  });

  it("details one group: stack, occurrences over time, services, sample traces", async () => {
    const { status, body } = await get(`/v1/errors/${id.cart}?time_range=24h`);
    expect(status).toBe(200);
    expect(body.stacktrace).toBe(STACK("addToCart"));
    expect(body.stack).toEqual([
      { text: "TypeError: Cannot read properties of undefined", frame: null },
      {
        text: "    at addToCart (/srv/app/src/cart.ts:10:5)",
        frame: { file: "src/cart.ts", function: "addToCart", inApp: true },
      },
      {
        text: "    at handle (/srv/app/src/server.ts:3:1)",
        frame: { file: "src/server.ts", function: "handle", inApp: true },
      },
    ]);
    expect(body.occurrencesInWindow).toBe(2);
    const series = body.occurrencesOverTime as { time: string; count: number }[];
    expect(series.reduce((s, p) => s + p.count, 0)).toBe(2);
    expect(body.affectedServices).toEqual([
      { service: "api", occurrences: 2, lastSeen: new Date(NOW - 30 * MIN + 1).toISOString() },
      {
        service: "worker",
        occurrences: 1,
        lastSeen: new Date(NOW - 3 * 24 * 60 * MIN + 1).toISOString(),
      },
    ]);
    expect((body.sampleTraces as { traceId: string }[]).map((s) => s.traceId)).toEqual([
      hexId(2, 32),
      hexId(1, 32),
      hexId(3, 32),
    ]);
    const month = await get(`/v1/errors/${id.cart}`);
    expect(month.body.occurrencesInWindow).toBe(3);
    expect((await get(`/v1/errors/${id.fatal}`)).body).toMatchObject({
      sampleTraces: [],
      stack: [],
    });
    expect((await get(`/v1/errors/${"0".repeat(32)}`)).status).toBe(404);
    expect((await get(`/v1/errors/${id.cart}`, otherKey)).status).toBe(404);
    const bad = await get("/v1/errors/nope");
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]?.field).toBe("errorId");
  });

  it("summarizes errors on the dashboard", async () => {
    const { body } = await get("/v1/errors/dashboard?time_range=1h");
    expect(body).toMatchObject({
      occurrences: 3,
      groupsSeen: 3,
      newGroups: 2,
      active: 3,
      resolved: 0,
      activeBySeverity: { low: 0, medium: 1, high: 1, critical: 1 },
      byService: [
        { service: "api", occurrences: 2 },
        { service: "web", occurrences: 1 },
      ],
    });
    const top = body.topErrors as { type: string; occurrencesInWindow: number }[];
    // Ties in the window are ordered by id (the fingerprint hash).
    expect(top.map((e) => e.type).sort()).toEqual(["CardDeclined", "TypeError", "fatal"]);
    expect(top.map((e) => e.occurrencesInWindow)).toEqual([1, 1, 1]);
    expect((body.series as { occurrences: number }[]).reduce((s, p) => s + p.occurrences, 0)).toBe(
      3,
    );
  });

  it("gives occurrences over time of several groups at once, for sparklines", async () => {
    const unknown = "0".repeat(32);
    const { status, body } = await get(
      `/v1/errors/trends?time_range=24h&ids=${id.cart},${unknown},${id.card}`,
    );
    expect(status, JSON.stringify(body)).toBe(200);
    const buckets = body.buckets as string[];
    expect(buckets.length).toBeGreaterThan(1);
    expect(buckets.length).toBeLessThanOrEqual(49);
    expect(body.bucketSeconds).toBe(1800);
    const trends = body.trends as { errorId: string; total: number; counts: number[] }[];
    // In the order asked, the 3-day-old occurrence outside the window, zeros for an unknown id.
    expect(trends.map((t) => [t.errorId, t.total])).toEqual([
      [id.cart, 2],
      [unknown, 0],
      [id.card, 1],
    ]);
    for (const t of trends) expect(t.counts).toHaveLength(buckets.length);
    expect(trends[0]?.counts.reduce((a, b) => a + b, 0)).toBe(2);
    // Without ids: the busiest groups of the window; another project's never.
    const busiest = await get("/v1/errors/trends?time_range=7d");
    const all = busiest.body.trends as { errorId: string; total: number }[];
    expect(all.map((t) => t.errorId).sort()).toEqual([id.cart, id.card, id.fatal].sort());
    expect(all[0]).toMatchObject({ errorId: id.cart, total: 3 });
    const other = await get(`/v1/errors/trends?ids=${id.cart}`, otherKey);
    expect((other.body.trends as { total: number }[])[0]?.total).toBe(0);
    for (const bad of ["ids=nope", `ids=${Array(101).fill(unknown).join(",")}`, "limit=5"]) {
      const answer = await get(`/v1/errors/trends?${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.errors?.[0]?.field, bad).toBe(bad.split("=")[0]);
    }
  });

  it("resolves, re-grades and reopens through the session API, with roles and CSRF", async () => {
    const owner = await signIn(service, "owner@example.com", "correct horse battery");
    const path = `/api/projects/${projectId}/errors/${id.cart}`;
    const patch = (client: { cookie: string }, body: unknown, origin = service.url) =>
      service.fetch(path, {
        method: "PATCH",
        headers: { cookie: client.cookie, origin, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const resolved = await patch(owner, { status: "resolved", severity: "high" });
    expect(resolved.status).toBe(200);
    const view = (await resolved.json()) as ErrorItem;
    expect(view).toMatchObject({
      id: id.cart,
      status: "resolved",
      severity: "high",
      occurrences: 3,
    });
    expect(view.resolvedAt).not.toBeNull();
    expect(await types("status=resolved")).toEqual(["TypeError"]);
    expect(await types("status=active")).toEqual(["fatal", "CardDeclined"]);

    expect((await patch(owner, {})).status).toBe(400);
    const bad = await patch(owner, { status: "closed" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Body).errors?.[0]?.field).toBe("status");
    expect((await patch(owner, { status: "resolved", extra: 1 })).status).toBe(400);
    expect((await patch(owner, { status: "active" }, "https://evil.example")).status).toBe(403);
    const viewer = await signIn(service, "viewer@example.com", "correct horse battery");
    expect((await patch(viewer, { status: "active" })).status).toBe(403);
    const stranger = await signIn(service, "stranger@example.com", "correct horse battery");
    expect((await patch(stranger, { status: "active" })).status).toBe(404);
    const anonymous = await service.fetch(path, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ status: "active" }),
    });
    expect(anonymous.status).toBe(401);
    const unknown = await service.fetch(`/api/projects/${projectId}/errors/${"0".repeat(32)}`, {
      method: "PATCH",
      headers: { cookie: owner.cookie, origin: service.url, "content-type": "application/json" },
      body: JSON.stringify({ status: "resolved" }),
    });
    expect(unknown.status).toBe(404);

    // A new occurrence after the resolution makes the group active again by itself.
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("api", [failing(5, -1, "TypeError", STACK("addToCart"))]),
    );
    const again = await get(`/v1/errors/${id.cart}`);
    expect(again.body).toMatchObject({ status: "active", severity: "high", occurrences: 4 });

    const reopened = await patch(owner, { status: "resolved" });
    expect(reopened.status).toBe(200);
    const active = await patch(owner, { status: "active" });
    expect(await active.json()).toMatchObject({ status: "active", severity: "high" });
  });
});
