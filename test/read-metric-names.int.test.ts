import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import type { MetricNameList } from "../src/contracts/metric-names.js";
import { initialize } from "../src/setup/initialize.js";
import { addKey, addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const MIN = 60_000;
/** The fixture lies in the hour before END, at least 10 minutes in the past. */
const END = Math.floor(Date.now() / MIN) * MIN - 10 * MIN;
const at = (minutesBeforeEnd: number) => END - minutesBeforeEnd * MIN;
const nanos = (ms: number) => String(BigInt(ms) * 1_000_000n);
const WINDOW = `from=${at(60)}&to=${END}`;

type Attrs = Record<string, string>;
const kv = (values: Attrs) =>
  Object.entries(values).map(([key, value]) => ({ key, value: { stringValue: value } }));
const point = (minute: number, value: number, attributes: Attrs = {}) => ({
  timeUnixNano: nanos(at(minute)),
  startTimeUnixNano: nanos(at(59)),
  asDouble: value,
  attributes: kv(attributes),
});
const resource = (attributes: Attrs, metrics: object[]) => ({
  resource: { attributes: kv(attributes) },
  scopeMetrics: [{ scope: { name: "test" }, metrics }],
});

const FIXTURE = [
  resource({ "service.name": "api", "host.name": "web-1" }, [
    {
      name: "system.cpu.time",
      unit: "s",
      description: "Seconds each logical CPU spent on each mode.",
      sum: {
        aggregationTemporality: 2,
        isMonotonic: true,
        dataPoints: [
          point(3, 10, { cpu: "cpu0", state: "user" }),
          point(2, 20, { cpu: "cpu0", state: "user" }),
          point(2, 5, { cpu: "cpu0", state: "idle" }),
        ],
      },
    },
    { name: "system.memory.utilization", unit: "1", gauge: { dataPoints: [point(2, 0.4)] } },
    {
      name: "http.server.request.duration",
      unit: "s",
      description: "Duration of HTTP server requests.",
      histogram: {
        aggregationTemporality: 1,
        dataPoints: [
          {
            timeUnixNano: nanos(at(2)),
            startTimeUnixNano: nanos(at(3)),
            count: 3,
            sum: 0.6,
            bucketCounts: [1, 2],
            explicitBounds: [0.1],
            attributes: kv({ "http.route": "/users" }),
          },
        ],
      },
    },
  ]),
  resource({ "service.name": "worker", "host.name": "web-2", "k8s.pod.name": "w-1" }, [
    {
      name: "system.cpu.time",
      unit: "s",
      sum: {
        aggregationTemporality: 2,
        isMonotonic: true,
        dataPoints: [point(1, 7, { cpu: "cpu1", state: "user" })],
      },
    },
    { name: "queue.depth", unit: "{jobs}", gauge: { dataPoints: [point(30, 4)] } },
  ]),
  // Two hours before the end: outside the one-hour WINDOW, inside the default 24 hours.
  resource({ "service.name": "old" }, [
    { name: "legacy.gauge", gauge: { dataPoints: [point(120, 1)] } },
  ]),
];

describe("GET /v1/metrics/names", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let otherKey: string;
  let ingestKey: string;

  const get = async (query: string, apiKey = key) => {
    const response = await service.fetch(`/v1/metrics/names?${query}`, {
      headers: { "x-api-key": apiKey },
    });
    return {
      status: response.status,
      body: (await response.json()) as MetricNameList & { errors?: { field: string }[] },
    };
  };
  const ok = async (query: string, apiKey = key) => {
    const { status, body } = await get(query, apiKey);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const send = async (apiKey: string, resourceMetrics: object[]) => {
    const response = await service.fetch("/v1/metrics", {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify({ resourceMetrics }),
    });
    expect(response.status).toBe(200);
  };

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: { email: "names@example.com", password: "correct horse battery" },
    });
    key = setup.apiKey ?? "";
    ingestKey = await addKey(service, setup.projectId, { name: "i", role: "ingest" });
    otherKey = (await addProjectWithKey(service, setup.orgId, "prj_other_names")).key;
    await send(key, FIXTURE);
    await send(otherKey, [
      resource({ "service.name": "secret" }, [
        { name: "secret.metric", gauge: { dataPoints: [point(1, 1)] } },
      ]),
    ]);
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("lists each metric of the window by name with its type, unit, keys and series", async () => {
    const body = await ok(WINDOW);
    expect(body.data.map((m) => m.name)).toEqual([
      "http.server.request.duration",
      "queue.depth",
      "system.cpu.time",
      "system.memory.utilization",
    ]);
    expect(body.pagination).toMatchObject({ page: 1, total: 4, hasMore: false });
    const cpu = body.data.find((m) => m.name === "system.cpu.time");
    expect(cpu).toEqual({
      name: "system.cpu.time",
      type: "sum",
      unit: "s",
      description: "Seconds each logical CPU spent on each mode.",
      temporality: "cumulative",
      monotonic: true,
      attributeKeys: ["cpu", "state"],
      resourceKeys: ["host.name", "k8s.pod.name", "service.name"],
      services: ["api", "worker"],
      // (api, cpu0, user), (api, cpu0, idle), (worker, cpu1, user)
      series: 3,
      points: 4,
      lastSeen: new Date(at(1)).toISOString(),
    });
    const histogram = body.data.find((m) => m.name === "http.server.request.duration");
    expect(histogram).toMatchObject({
      type: "histogram",
      temporality: "delta",
      monotonic: false,
      attributeKeys: ["http.route"],
      series: 1,
    });
    expect(body.data.find((m) => m.name === "system.memory.utilization")).toMatchObject({
      type: "gauge",
      unit: "1",
      description: "",
      temporality: "unspecified",
      attributeKeys: [],
    });
  });

  it("searches names and descriptions in any case, and narrows by type", async () => {
    const names = async (query: string) => (await ok(`${WINDOW}&${query}`)).data.map((m) => m.name);
    expect(await names("q=SYSTEM.")).toEqual(["system.cpu.time", "system.memory.utilization"]);
    expect(await names("q=http%20server%20requests")).toEqual(["http.server.request.duration"]);
    // LIKE's own wildcards are text.
    expect(await names("q=system_cpu")).toEqual([]);
    expect(await names("type=gauge")).toEqual(["queue.depth", "system.memory.utilization"]);
  });

  it("pages by name, with the total, and takes the default window of 24 hours", async () => {
    const second = await ok(`${WINDOW}&limit=3&page=2`);
    expect(second.data.map((m) => m.name)).toEqual(["system.memory.utilization"]);
    expect(second.pagination).toMatchObject({ page: 2, limit: 3, total: 4, hasMore: false });
    expect((await ok(`to=${END}`)).data.map((m) => m.name)).toContain("legacy.gauge");
  });

  it("refuses bad parameters, naming them", async () => {
    const field = async (query: string) => (await get(query)).body.errors?.map((e) => e.field);
    expect(await field("type=counter")).toEqual(["type"]);
    expect(await field("time_range=forever")).toEqual(["time_range"]);
    expect(await field("limit=0")).toEqual(["limit"]);
    expect(await field("metric=x")).toBeDefined();
    expect((await get("type=counter")).status).toBe(400);
  });

  it("never shows another project's metrics, and checks the key and its permission", async () => {
    expect((await ok(WINDOW)).data.map((m) => m.name)).not.toContain("secret.metric");
    expect((await ok(WINDOW, otherKey)).data.map((m) => m.name)).toEqual(["secret.metric"]);
    expect((await service.fetch(`/v1/metrics/names?${WINDOW}`)).status).toBe(401);
    expect((await get(WINDOW, ingestKey)).status).toBe(403);
  });
});
