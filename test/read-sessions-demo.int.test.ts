import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { demoRequests } from "../src/demo/generator.js";
import { sendAll } from "../src/demo/sender.js";
import { initialize } from "../src/setup/initialize.js";
import { getJson } from "./helpers/session-fixtures.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

type Obj = Record<string, unknown>;
interface Attr {
  key: string;
  value: { stringValue?: string; arrayValue?: { values: { stringValue: string }[] } };
}

/** A session as counted from the demo's export requests themselves, not from Vigil. */
interface Expected {
  spans: number;
  logs: number;
  errors: number;
  aiSpans: number;
  exceptions: number;
  /** One per occurrence: `trace span type message` (two sources of one share it), or a log's own. */
  errorKeys: Set<string>;
  /** Failed spans that recorded no exception: an error unless another error of the span is there. */
  failedSpans: Set<string>;
  firstMs: number;
  lastMs: number;
  user: string;
  pages: Set<string>;
  country: string;
  referrer: string;
  agent: string;
}

const attr = (item: Obj, name: string) => {
  const value = (item.attributes as Attr[]).find((a) => a.key === name)?.value;
  return value?.stringValue ?? value?.arrayValue?.values[0]?.stringValue ?? "";
};
const msOf = (nanos: unknown) => Number(BigInt(String(nanos)) / 1_000_000n);

function tallySessions(requests: readonly { body: unknown }[]): Map<string, Expected> {
  const sessions = new Map<string, Expected>();
  const touch = (item: Obj, ms: number) => {
    const id = attr(item, "session.id");
    if (!id) return undefined;
    let s = sessions.get(id);
    if (!s) {
      s = {
        spans: 0,
        logs: 0,
        errors: 0,
        aiSpans: 0,
        exceptions: 0,
        errorKeys: new Set(),
        failedSpans: new Set(),
        firstMs: ms,
        lastMs: ms,
        user: "",
        pages: new Set(),
        country: "",
        referrer: "",
        agent: "",
      };
      sessions.set(id, s);
    }
    s.firstMs = Math.min(s.firstMs, ms);
    s.lastMs = Math.max(s.lastMs, ms);
    s.user ||= attr(item, "user.id");
    s.country ||= attr(item, "client.geo.country.iso_code");
    s.referrer ||= attr(item, "http.request.header.referer");
    s.agent ||= attr(item, "user_agent.original");
    if (attr(item, "page.path")) s.pages.add(attr(item, "page.path"));
    return s;
  };
  for (const { body } of requests) {
    const b = body as Obj;
    for (const rs of (b.resourceSpans as Obj[] | undefined) ?? [])
      for (const ss of rs.scopeSpans as Obj[])
        for (const span of ss.spans as Obj[]) {
          const s = touch(span, msOf(span.startTimeUnixNano));
          if (!s) continue;
          const exceptions = ((span.events as Obj[] | undefined) ?? []).filter(
            (e) => e.name === "exception",
          );
          s.spans++;
          s.exceptions += exceptions.length;
          const where = `${span.traceId} ${span.spanId}`;
          for (const e of exceptions)
            s.errorKeys.add(
              `${where} ${attr(e, "exception.type")} ${attr(e, "exception.message")}`,
            );
          if (exceptions.length === 0 && (span.status as Obj).code === 2) s.failedSpans.add(where);
          if ((span.attributes as Attr[]).some((a) => a.key.startsWith("gen_ai."))) s.aiSpans++;
        }
    for (const rl of (b.resourceLogs as Obj[] | undefined) ?? [])
      for (const sl of rl.scopeLogs as Obj[])
        for (const record of sl.logRecords as Obj[]) {
          const s = touch(record, msOf(record.timeUnixNano));
          if (!s) continue;
          s.logs++;
          if (Number(record.severityNumber) < 17) continue;
          const body = (record.body as { stringValue: string }).stringValue;
          s.errorKeys.add(
            record.spanId
              ? `${record.traceId} ${record.spanId} ${attr(record, "exception.type") || "error"} ${attr(record, "exception.message") || body}`
              : `log ${s.logs}`,
          );
        }
  }
  for (const s of sessions.values()) {
    const spansWithErrors = new Set([...s.errorKeys].map((k) => k.split(" ", 2).join(" ")));
    s.errors =
      s.errorKeys.size + [...s.failedSpans].filter((span) => !spansWithErrors.has(span)).length;
  }
  return sessions;
}

describe("sessions and traffic over the `vigil demo` dataset", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let expected: Map<string, Expected>;
  const get = async <T>(path: string) => {
    const { status, body } = await getJson<T>(service, path, key);
    expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
    return body;
  };

  beforeAll(async () => {
    service = await startTestService(dir.path, { VIGIL_RATE_LIMIT_PER_MINUTE: "10000" });
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "demo-sessions@example.com",
        password: "correct horse battery",
      },
    });
    key = setup.apiKey ?? "";
    const requests = [
      ...demoRequests({ spans: 4000, batchSpans: 500, windowMs: 3_600_000, nowMs: Date.now() }),
    ];
    expected = tallySessions(requests);
    await sendAll(requests, { url: service.url, key, concurrency: 2 });
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("lists every demo session with the counts, times and attributes it sent", async () => {
    const { data, pagination } = await get<{ data: Obj[]; pagination: { total: number } }>(
      "/v1/sessions?limit=1000&sort_order=asc",
    );
    expect(pagination.total).toBe(expected.size);
    expect(expected.size).toBe(10);
    const fromApi = Object.fromEntries(
      data.map((s) => [
        s.id,
        {
          counts: s.counts,
          startedAt: s.startedAt,
          lastSeen: s.lastSeen,
          userId: s.userId,
          country: s.country,
          referrer: s.referrer,
          pageCount: s.pageCount,
        },
      ]),
    );
    const fromRequests = Object.fromEntries(
      [...expected].map(([id, s]) => [
        id,
        {
          counts: { spans: s.spans, logs: s.logs, errors: s.errors, aiSpans: s.aiSpans },
          startedAt: new Date(s.firstMs).toISOString(),
          lastSeen: new Date(s.lastMs).toISOString(),
          userId: s.user,
          country: s.country,
          referrer: s.referrer || null,
          pageCount: s.pages.size,
        },
      ]),
    );
    expect(fromApi).toEqual(fromRequests);
    const starts = data.map((s) => Date.parse(String(s.startedAt)));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it("puts every item of a session on its timeline, with one error entry per occurrence", async () => {
    for (const [id, s] of expected) {
      const { timeline, truncated } = await get<{
        timeline: { kind: string }[];
        truncated: boolean;
      }>(`/v1/sessions/${id}`);
      const kinds = { span: 0, ai: 0, log: 0, error: 0 };
      for (const entry of timeline) kinds[entry.kind as keyof typeof kinds]++;
      expect(truncated).toBe(false);
      // Demo errors are exception events (one per failed span), each also logged in its span:
      // one occurrence, one timeline entry.
      expect(kinds).toEqual({
        span: s.spans - s.aiSpans,
        ai: s.aiSpans,
        log: s.logs,
        error: s.errors,
      });
      expect(s.errors).toBe(s.exceptions);
    }
  });

  it("reports the demo's traffic: every session, user, country and referrer host", async () => {
    const body = await get<{ totals: Obj } & Record<string, { name: string; sessions: number }[]>>(
      "/v1/traffic?time_range=2h",
    );
    const sessions = [...expected.values()];
    const countBy = (key: (s: Expected) => string) => {
      const counts = new Map<string, number>();
      for (const s of sessions) counts.set(key(s), (counts.get(key(s)) ?? 0) + 1);
      return counts;
    };
    const asMap = (rows: { name: string; sessions: number }[] | undefined) =>
      new Map((rows ?? []).map((r) => [r.name, r.sessions]));
    expect(body.totals).toMatchObject({
      sessions: expected.size,
      uniqueUsers: new Set(sessions.map((s) => s.user)).size,
      sessionsWithErrors: sessions.filter((s) => s.errors > 0).length,
      uniquePageViews: sessions.reduce((n, s) => n + s.pages.size, 0),
      bounceRate: 1,
    });
    expect(asMap(body.countries)).toEqual(countBy((s) => s.country));
    expect(asMap(body.referrers)).toEqual(
      countBy((s) => (s.referrer ? new URL(s.referrer).host : "direct")),
    );
    expect(asMap(body.entryPages)).toEqual(countBy((s) => [...s.pages][0] ?? ""));
    // The demo's five user agents: Firefox on Linux, Chrome on Windows and Android, Safari on macOS and iOS.
    const browser = (agent: string) =>
      /Firefox\//.test(agent) ? "Firefox" : /Chrome\//.test(agent) ? "Chrome" : "Safari";
    expect(asMap(body.browsers)).toEqual(countBy((s) => browser(s.agent)));
  });
});
