import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogFacets, LogVolume } from "../src/contracts/logs.js";
import { FACET_SAMPLE_ROWS } from "../src/read/log-facets.js";
import {
  filtersParam,
  type LogItem,
  MIN,
  NOW,
  RECORDS,
  type RecordName,
  startLogExplore,
} from "./helpers/log-explore.js";
import { logsBody, sendOtlp } from "./helpers/otlp.js";
import { makeTempDir } from "./helpers/temp-dir.js";

type Explore = Awaited<ReturnType<typeof startLogExplore>>;
interface ListBody {
  data: LogItem[];
  pagination: { total: number };
}

/** The list's `filters`, its volume histogram and its facets agree on which records match. */
describe("GET /v1/logs filters, /v1/logs/volume and /v1/logs/facets", () => {
  const dir = makeTempDir();
  let x: Explore;

  beforeAll(async () => {
    x = await startLogExplore(dir.path);
    expect(Object.keys(x.idOf)).toHaveLength(Object.keys(RECORDS).length);
  });
  afterAll(async () => {
    await x?.service.stop();
    dir.remove();
  });

  const list = async (query: string) => {
    const { status, body } = await x.get<ListBody>(`/v1/logs?limit=1000&count=exact&${query}`);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const volume = async (query: string) => {
    const { status, body } = await x.get<LogVolume>(`/v1/logs/volume?${query}`);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const facets = async (query: string) => {
    const { status, body } = await x.get<LogFacets>(`/v1/logs/facets?${query}`);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const route = (value: string | string[], op = Array.isArray(value) ? "in" : "=") => ({
    field: "attributes.http.route",
    op,
    value,
  });

  it("narrows the list by columns, attributes and resource attributes, and excludes", async () => {
    const names = async (query: string) => x.names((await list(query)).data);
    expect(await names(filtersParam([route("/pay")]))).toEqual(["a4", "b2", "a3"]);
    expect(await names(filtersParam([route(["/pay"], "not_in")]))).toEqual([
      "k2",
      "k1",
      "w2",
      "w1",
      "a2",
      "b1",
      "a1",
    ]);
    expect(
      await names(
        filtersParam([
          { field: "resource.service.instance.id", op: "=", value: "api-2" },
          { field: "level", op: "!=", value: "info" },
        ]),
      ),
    ).toEqual(["b2"]);
    expect(await names(filtersParam([{ field: "attributes.tier", op: "exists" }]))).toEqual([
      "a4",
      "a3",
      "a2",
      "a1",
    ]);
    expect(
      await names(
        `search=payment&${filtersParam([
          { field: "service_name", op: "in", value: ["web", "api"] },
          { field: "message", op: "not_contains", value: "ok" },
        ])}`,
      ),
    ).toEqual(["w2", "b2", "a3"]);
    expect(await names(`level=error&${filtersParam([route("/users")])}`)).toEqual([]);
  });

  it("answers 400 naming the filter for a bad one", async () => {
    expect(
      await x.badFields(`/v1/logs?${filtersParam([{ field: "colour", op: "=", value: "x" }])}`),
    ).toEqual(["filters.0.field"]);
    expect(
      await x.badFields(
        `/v1/logs?${filtersParam([route("/pay"), { field: "severity_number", op: "=", value: "high" }])}`,
      ),
    ).toEqual(["filters.1.value"]);
    expect(
      await x.badFields(`/v1/logs?${filtersParam([{ field: "level", op: "in", value: [] }])}`),
    ).toEqual(["filters.0.value"]);
    expect(await x.badFields("/v1/logs?filters=not-json")).toEqual(["filters"]);
    expect(
      await x.badFields(`/v1/logs/volume?${filtersParam([{ field: "nope", op: "exists" }])}`),
    ).toEqual(["filters.0.field"]);
    expect(
      await x.badFields(
        `/v1/logs/facets?${filtersParam([{ field: "level", op: "~", value: "x" }])}`,
      ),
    ).toEqual(["filters.0.op"]);
  });

  it("counts the list's records per level and bucket, every bucket present", async () => {
    const hour = await volume("time_range=1h&buckets=60");
    expect(hour.bucketSeconds).toBe(60);
    expect(hour.total).toBe(10);
    expect(hour.byLevel).toEqual({ debug: 1, info: 5, warn: 1, error: 3, fatal: 0 });
    expect(hour.series.length).toBeGreaterThanOrEqual(60);
    expect(hour.series.length).toBeLessThanOrEqual(61);
    expect(hour.series.reduce((sum, p) => sum + p.total, 0)).toBe(10);
    const bucket = new Date(Math.floor(RECORDS.a3.timeMs / MIN) * MIN).toISOString();
    expect(hour.series.find((p) => p.time === bucket)).toMatchObject({ error: 1, total: 1 });
    // 120 buckets by default: 30 s over an hour; seconds over a few minutes.
    expect((await volume("time_range=1h")).bucketSeconds).toBe(30);
    const from = RECORDS.k1.timeMs - 60_000;
    const short = await volume(`from=${from}&to=${from + 120_000}`);
    expect(short.bucketSeconds).toBe(1);
    expect(short.total).toBe(1);
    // Without a window: the last 24 hours, 15-minute buckets.
    expect(await volume("")).toMatchObject({ total: 10, bucketSeconds: 900 });
  });

  it("follows every filter of the list, search included: its total is the list's", async () => {
    const queries = [
      "search=payment",
      "search=PAYMENT%20failed",
      `search=payment&${filtersParam([route(["/pay"], "not_in")])}`,
      "service=api&level=info",
      "source=frontend",
      filtersParam([{ field: "resource.host.name", op: "=", value: "h1" }, route("/users")]),
      filtersParam([{ field: "message", op: "regex", value: "order 4[23]" }]),
    ];
    for (const query of queries) {
      const window = `time_range=2h&${query}`;
      const [listed, counted] = await Promise.all([list(window), volume(window)]);
      expect(counted.total, query).toBe(listed.pagination.total);
      expect(
        counted.series.reduce((sum, p) => sum + p.total, 0),
        query,
      ).toBe(counted.total);
    }
    expect((await volume("time_range=2h&search=payment")).byLevel).toMatchObject({
      error: 3,
      info: 1,
    });
  });

  it("counts service, level and source exactly, and the top attribute keys with their values", async () => {
    const body = await facets("time_range=1h");
    expect(body).toMatchObject({ total: 10, sampled: false, sampleSize: 10, keySource: "catalog" });
    const byField = Object.fromEntries(body.facets.map((f) => [f.field, f]));
    expect(body.facets.slice(0, 3).map((f) => f.field)).toEqual([
      "service_name",
      "level",
      "source",
    ]);
    expect(byField.service_name).toEqual({
      field: "service_name",
      count: 10,
      distinct: 3,
      sampled: false,
      values: [
        { value: "api", count: 6 },
        { value: "web", count: 2 },
        { value: "worker", count: 2 },
      ],
    });
    expect(byField.level?.values).toEqual([
      { value: "info", count: 5 },
      { value: "error", count: 3 },
      { value: "debug", count: 1 },
      { value: "warn", count: 1 },
    ]);
    expect(byField.source?.values).toEqual([
      { value: "backend", count: 8 },
      { value: "frontend", count: 2 },
    ]);
    expect(byField["resource.host.name"]).toMatchObject({
      count: 8,
      distinct: 2,
      values: [
        { value: "h1", count: 6 },
        { value: "w1", count: 2 },
      ],
    });
    expect(byField["attributes.http.route"]).toMatchObject({
      count: 6,
      distinct: 2,
      values: [
        { value: "/pay", count: 3 },
        { value: "/users", count: 3 },
      ],
    });
    expect(byField["attributes.tier"]).toMatchObject({ count: 4, distinct: 2 });
    expect(byField["resource.service.name"]).toBeUndefined();
    // Attribute facets come most frequent key first.
    const counts = body.facets.slice(3).map((f) => f.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it("follows the filters and the search, and caps keys and values", async () => {
    const narrowed = await facets(
      `time_range=1h&search=payment&${filtersParam([{ field: "service_name", op: "not_in", value: ["web"] }])}`,
    );
    expect(narrowed.total).toBe(3);
    const byField = Object.fromEntries(narrowed.facets.map((f) => [f.field, f]));
    expect(byField.service_name?.values).toEqual([{ value: "api", count: 3 }]);
    expect(byField["attributes.http.route"]?.values).toEqual([{ value: "/pay", count: 3 }]);
    expect(byField["resource.service.instance.id"]?.values).toEqual([
      { value: "api-1", count: 2 },
      { value: "api-2", count: 1 },
    ]);
    const capped = await facets("time_range=1h&keys=2&values=1");
    expect(capped.facets.map((f) => f.field)).toEqual([
      "service_name",
      "level",
      "source",
      "resource.host.name",
      "attributes.http.route",
    ]);
    expect(capped.facets.every((f) => f.values.length === 1)).toBe(true);
    expect((await facets("time_range=1h&keys=0")).facets).toHaveLength(3);
    const none = await facets("time_range=1h&search=nothing-like-this");
    expect(none).toMatchObject({ total: 0, sampleSize: 0 });
    expect(none.facets.map((f) => [f.field, f.count, f.values])).toEqual([
      ["service_name", 0, []],
      ["level", 0, []],
      ["source", 0, []],
    ]);
  });

  it("answers 400 naming the parameter", async () => {
    expect(await x.badFields("/v1/logs/volume?buckets=5")).toEqual(["buckets"]);
    expect(await x.badFields("/v1/logs/volume?time_range=forever")).toEqual(["time_range"]);
    expect(await x.badFields("/v1/logs/volume?level=loud")).toEqual(["level"]);
    expect(await x.badFields("/v1/logs/volume?page=2")).toEqual(["page"]);
    expect(await x.badFields("/v1/logs/facets?keys=51")).toEqual(["keys"]);
    expect(await x.badFields("/v1/logs/facets?values=0")).toEqual(["values"]);
    expect(await x.badFields(`/v1/logs/facets?search=${"a ".repeat(11)}`)).toEqual(["search"]);
  });

  it("counts only the key's project", async () => {
    const mine = await volume("time_range=1h&search=payment");
    expect(mine.total).toBe(4);
    const theirs = await x.get<LogVolume>(
      "/v1/logs/volume?time_range=1h&search=payment",
      x.otherKey,
    );
    expect(theirs.body.total).toBe(1);
    const theirFacets = await x.get<LogFacets>("/v1/logs/facets?time_range=1h", x.otherKey);
    expect(theirFacets.body.total).toBe(1);
    expect(theirFacets.body.facets[0]?.values).toEqual([{ value: "api", count: 1 }]);
    const names: RecordName[] = ["a3", "b2", "w2"];
    const listed = await list(
      `time_range=1h&${filtersParam([{ field: "level", op: "=", value: "error" }])}`,
    );
    expect(x.names(listed.data).sort()).toEqual([...names].sort());
  });

  it("counts attribute facets over the newest records past the sample's size, and says so", async () => {
    const records = Array.from({ length: FACET_SAMPLE_ROWS + 100 }, (_, i) => ({
      timeMs: NOW - 3 * MIN - i * 10,
      severityNumber: i < 100 ? 17 : 9,
      body: `bulk record ${i}`,
      attributes: { "http.route": i < 100 ? "/newest" : "/older" },
    }));
    await sendOtlp(x.service, x.otherKey, "logs", logsBody("bulk", records));
    const { body } = await x.get<LogFacets>("/v1/logs/facets?time_range=1h", x.otherKey);
    expect(body).toMatchObject({
      total: FACET_SAMPLE_ROWS + 101,
      sampled: true,
      sampleSize: FACET_SAMPLE_ROWS,
    });
    const byField = Object.fromEntries(body.facets.map((f) => [f.field, f]));
    expect(byField.service_name).toMatchObject({ sampled: false, count: FACET_SAMPLE_ROWS + 101 });
    expect(byField.level?.values).toEqual([
      { value: "info", count: FACET_SAMPLE_ROWS },
      { value: "error", count: 101 },
    ]);
    expect(byField["attributes.http.route"]).toMatchObject({
      sampled: true,
      count: FACET_SAMPLE_ROWS,
      values: [
        { value: "/older", count: FACET_SAMPLE_ROWS - 100 },
        { value: "/newest", count: 100 },
      ],
    });
  });
});
