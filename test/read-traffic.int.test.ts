import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE, getJson, HOUR, MIN, SEC, startSessionsService } from "./helpers/session-fixtures.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

interface Point {
  time: string;
  activeSessions: number;
  startedSessions: number;
}
interface TrafficBody {
  from: string;
  to: string;
  bucketSeconds: number;
  totals: Record<string, number | null>;
  series: Point[];
  errors?: { field: string }[];
  [breakdown: string]: unknown;
}

const iso = (ms: number) => new Date(ms).toISOString();
const entry = (name: string, sessions: number, total = 5) => ({
  name,
  sessions,
  share: sessions / total,
});

describe("GET /v1/traffic", () => {
  const dir = makeTempDir();
  let service: TestService;
  let fixture: Awaited<ReturnType<typeof startSessionsService>>;
  let key: string;

  const traffic = (query: string, apiKey = key) =>
    getJson<TrafficBody>(service, `/v1/traffic?${query}`, apiKey);
  /** The non-empty buckets of a series, as [minutes after BASE, active, started]. */
  const busy = (series: Point[]) =>
    series
      .filter((p) => p.activeSessions > 0 || p.startedSessions > 0)
      .map((p) => [(Date.parse(p.time) - BASE) / MIN, p.activeSessions, p.startedSessions]);

  beforeAll(async () => {
    fixture = await startSessionsService(dir.path);
    service = fixture.service;
    key = (await fixture.newKey(fixture.projectA)).key;
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("sums up the sessions of the window with totals, breakdowns and a zero-filled series", async () => {
    const { status, body } = await traffic(`from=${iso(BASE)}&to=${iso(BASE + 6 * HOUR)}`);
    expect(status).toBe(200);
    const { series, ...rest } = body;
    expect(rest).toEqual({
      from: iso(BASE),
      to: iso(BASE + 6 * HOUR),
      bucketSeconds: 300,
      totals: {
        sessions: 5,
        uniqueUsers: 3,
        sessionsWithErrors: 2,
        avgDurationMs: (90 * MIN + 5 * MIN + 10 * MIN) / 5,
        // alpha 3 pages, beta 1, gamma 2, epsilon 1, delta none.
        uniquePageViews: 7,
        // beta and epsilon saw one page, of the four sessions with pages.
        bounceRate: 0.5,
      },
      browsers: [entry("Chrome", 2), entry("Firefox", 1), entry("Safari", 1), entry("unknown", 1)],
      operatingSystems: [
        entry("Android", 1),
        entry("Linux", 1),
        entry("Windows", 1),
        entry("iOS", 1),
        entry("unknown", 1),
      ],
      devices: [entry("desktop", 2), entry("mobile", 2), entry("unknown", 1)],
      countries: [entry("US", 2), entry("DE", 1), entry("FR", 1), entry("unknown", 1)],
      referrers: [entry("direct", 2), entry("www.google.com", 2), entry("t.co", 1)],
      entryPages: [entry("/", 3), entry("/assistant", 1)],
      topPages: [
        entry("/", 3),
        entry("/orders", 2),
        entry("/assistant", 1),
        entry("/orders/checkout", 1),
      ],
    });
    expect(series).toHaveLength(72);
    expect(series[0]?.time).toBe(iso(BASE));
    expect(series.at(-1)?.time).toBe(iso(BASE + 6 * HOUR - 5 * MIN));
    // alpha is active from 0 to 90 minutes, delta at 60, beta 120–125, gamma 240–250, epsilon 300.
    expect(busy(series)).toEqual([
      [0, 1, 1],
      ...[5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55].map((m) => [m, 1, 0]),
      [60, 2, 1],
      ...[65, 70, 75, 80, 85, 90].map((m) => [m, 1, 0]),
      [120, 1, 1],
      [125, 1, 0],
      [240, 1, 1],
      [245, 1, 0],
      [250, 1, 0],
      [300, 1, 1],
    ]);
  });

  it("counts a session that overlaps the window, but not as started in it", async () => {
    // 30.5 min … 2h01: alpha (from before), delta and beta; buckets of one minute.
    const { body } = await traffic(
      `from=${BASE + 30 * MIN + 30 * SEC}&to=${BASE + 2 * HOUR + MIN}`,
    );
    expect(body.bucketSeconds).toBe(60);
    expect(body.totals).toMatchObject({ sessions: 3, uniqueUsers: 2, sessionsWithErrors: 1 });
    expect(body.browsers).toEqual([
      entry("Chrome", 1, 3),
      entry("Firefox", 1, 3),
      entry("unknown", 1, 3),
    ]);
    expect(body.series[0]?.time).toBe(iso(BASE + 30 * MIN));
    expect(body.series).toHaveLength(91);
    const started = body.series.filter((p) => p.startedSessions > 0);
    expect(started.map((p) => (Date.parse(p.time) - BASE) / MIN)).toEqual([60, 120]);
    const active = busy(body.series);
    expect(active[0]).toEqual([30, 1, 0]);
    expect(active.find(([m]) => m === 60)).toEqual([60, 2, 1]);
    expect(active.filter(([m]) => Number(m) <= 90)).toHaveLength(61);
    expect(active.at(-1)).toEqual([120, 1, 1]);
  });

  it("defaults to the last 24 hours, and answers an empty window with zeros", async () => {
    const { body } = await traffic("");
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(24 * HOUR);
    expect(body.totals.sessions).toBe(5);
    expect(body.bucketSeconds).toBe(900);
    const empty = await traffic("time_range=15m");
    expect(empty.body).toMatchObject({
      totals: {
        sessions: 0,
        uniqueUsers: 0,
        sessionsWithErrors: 0,
        avgDurationMs: 0,
        uniquePageViews: 0,
        bounceRate: null,
      },
      browsers: [],
      referrers: [],
      topPages: [],
    });
    expect(empty.body.series.every((p) => p.activeSessions === 0)).toBe(true);
  });

  it("answers 400 naming the parameter for bad values", async () => {
    for (const [query, field] of [
      ["time_range=forever", "time_range"],
      ["from=soon", "from"],
      [`from=${BASE + HOUR}&to=${BASE}`, "from"],
      ["to=2026-13-45", "to"],
      ["limit=5", "limit"],
    ]) {
      const { status, body } = await traffic(String(query));
      expect(status, query).toBe(400);
      if (field !== "limit") expect(body.errors?.map((e) => e.field)).toEqual([field]);
    }
  });

  it("reports only the key's own project", async () => {
    const keyB = (await fixture.newKey(fixture.projectB)).key;
    const { body } = await traffic("time_range=24h", keyB);
    expect(body.totals).toMatchObject({ sessions: 2, uniqueUsers: 1, sessionsWithErrors: 1 });
    expect(body.countries).toEqual([entry("JP", 1, 2), entry("unknown", 1, 2)]);
    expect(body.topPages).toEqual([entry("/secret", 1, 2)]);
  });
});
