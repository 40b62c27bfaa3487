import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/auth/api-keys.js";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const MIN = 60_000;
/** The fixture window is the hour before END; END lies at least 10 minutes in the past. */
const END = Math.floor(Date.now() / MIN) * MIN - 10 * MIN;
const at = (minutesBeforeEnd: number) => END - minutesBeforeEnd * MIN;
const iso = (ms: number) => new Date(ms).toISOString();
const nanos = (ms: number) => String(BigInt(ms) * 1_000_000n);

type Attrs = Record<string, string>;
const kv = (values: Attrs) =>
  Object.entries(values).map(([key, value]) => ({ key, value: { stringValue: value } }));
/** [minutes before END, value, point attributes] */
type Point = [number, number, Attrs?];
const points = (list: Point[], startMinute?: number) =>
  list.map(([m, value, attributes]) => ({
    timeUnixNano: nanos(at(m)),
    ...(startMinute === undefined ? {} : { startTimeUnixNano: nanos(at(startMinute)) }),
    asDouble: value,
    attributes: kv(attributes ?? {}),
  }));
const gauge = (name: string, list: Point[]) => ({
  name,
  unit: "1",
  gauge: { dataPoints: points(list) },
});
const counter = (name: string, list: Point[], delta?: { startMinute: number }) => ({
  name,
  unit: "By",
  sum: {
    dataPoints: points(list, delta?.startMinute),
    aggregationTemporality: delta ? 1 : 2,
    isMonotonic: true,
  },
});
const resource = (attributes: Attrs, metrics: object[]) => ({
  resource: { attributes: kv(attributes) },
  scopeMetrics: [{ scope: { name: "hostmetricsreceiver" }, metrics }],
});
const cpuStates = (m: number, perCpu: [number, number, number][]): Point[] =>
  perCpu.flatMap(([idle, user, system], i) => [
    [m, idle, { cpu: `cpu${i}`, state: "idle" }],
    [m, user, { cpu: `cpu${i}`, state: "user" }],
    [m, system, { cpu: `cpu${i}`, state: "system" }],
  ]);

const FIXTURE = [
  // Healthy host: CPU by cpu and state, memory by state, two filesystems, two interfaces.
  resource({ "host.name": "web-1", "os.type": "linux" }, [
    gauge("system.cpu.utilization", [
      ...cpuStates(2, [
        [0.5, 0.4, 0.1],
        [0.5, 0.4, 0.1],
      ]),
      ...cpuStates(1, [
        [0.6, 0.3, 0.1],
        [0.8, 0.15, 0.05],
      ]),
    ]),
    gauge("system.memory.utilization", [
      [1, 0.42, { state: "used" }],
      [1, 0.58, { state: "free" }],
    ]),
    gauge("system.filesystem.utilization", [
      [1, 0.5, { device: "sda1", mountpoint: "/" }],
      [1, 0.7, { device: "sdb1", mountpoint: "/data" }],
    ]),
    counter("system.network.io", [
      [3, 0, { device: "eth0", direction: "receive" }],
      [2, 6000, { device: "eth0", direction: "receive" }],
      [1, 18000, { device: "eth0", direction: "receive" }],
      [3, 0, { device: "eth0", direction: "transmit" }],
      [2, 600, { device: "eth0", direction: "transmit" }],
      [1, 1200, { device: "eth0", direction: "transmit" }],
      [3, 0, { device: "lo", direction: "receive" }],
      [2, 60, { device: "lo", direction: "receive" }],
      [1, 120, { device: "lo", direction: "receive" }],
    ]),
  ]),
  // The app on web-1: host.name outranks service.instance.id, so it joins host:web-1.
  resource({ "service.name": "web", "host.name": "web-1", "service.instance.id": "w-1" }, [
    gauge("app.queue.depth", [[1, 3]]),
  ]),
  // Disk full → down; the CPU at 97 % only adds a degraded reason. Network as delta points.
  resource({ "host.name": "db-1" }, [
    gauge("system.cpu.utilization", [[1, 0.97]]),
    gauge("system.memory.utilization", [[1, 0.5]]),
    gauge("system.filesystem.utilization", [[1, 0.96, { device: "nvme0", mountpoint: "/" }]]),
    counter("system.network.io", [[1, 3000, { direction: "receive" }]], { startMinute: 2 }),
  ]),
  // Memory and disk from the *.usage fallbacks: used / all states.
  resource({ "host.name": "mem-1" }, [
    gauge("system.memory.usage", [
      [1, 3e9, { state: "used" }],
      [1, 1e9, { state: "free" }],
    ]),
    gauge("system.filesystem.usage", [
      [1, 90, { device: "sda", state: "used" }],
      [1, 10, { device: "sda", state: "free" }],
      [1, 1, { device: "sdb", state: "used" }],
      [1, 99, { device: "sdb", state: "free" }],
    ]),
  ]),
  // A pod (its container and node attributes too): pod outranks container and host.
  resource(
    {
      "k8s.pod.name": "cart-7f9",
      "k8s.namespace.name": "shop",
      "container.id": "c0ffee",
      "host.name": "node-1",
      "service.name": "cart",
    },
    [
      gauge("k8s.pod.cpu_limit_utilization", [[1, 0.2]]),
      gauge("k8s.pod.memory_limit_utilization", [[1, 0.88]]),
      // A counter reset at minute 1: the new value is the growth.
      counter("k8s.pod.network.io", [
        [3, 1000, { direction: "receive" }],
        [2, 7000, { direction: "receive" }],
        [1, 600, { direction: "receive" }],
      ]),
    ],
  ),
  // A Docker container: percent values, direction in the metric names.
  resource({ "container.id": "0123abcd", "container.name": "redis" }, [
    gauge("container.cpu.utilization", [[1, 12.5]]),
    gauge("container.memory.percent", [[1, 40]]),
    counter("container.network.io.usage.rx_bytes", [
      [2, 0],
      [1, 1200],
    ]),
    counter("container.network.io.usage.tx_bytes", [
      [2, 0],
      [1, 600],
    ]),
  ]),
  // Reported 20 minutes before the end, then nothing: stale.
  resource({ "host.name": "old-1" }, [gauge("system.cpu.utilization", [[20, 0.99]])]),
  // Only a service instance, and no utilization metric at all.
  resource({ "service.name": "billing", "service.instance.id": "i-42" }, [
    gauge("app.jobs", [[1, 1]]),
  ]),
  // No identifying attribute: part of no component.
  resource({ "service.name": "lonely" }, [gauge("system.cpu.utilization", [[1, 0.99]])]),
];

interface Component {
  id: string;
  kind: string;
  name: string;
  state: string;
  reasons: string[];
  attributes: Attrs;
  services: string[];
  lastSeen: string;
  current: Record<string, number | null>;
  sources: Record<string, string | null>;
  series: ({ time: string } & Record<string, number | null>)[];
}
interface Body {
  from: string;
  to: string;
  bucketSeconds: number;
  summary: Record<string, number>;
  components: Component[];
  errors?: { field: string }[];
}
const reading = (
  cpu: number | null,
  memory: number | null,
  disk: number | null,
  netIn: number | null,
  netOut: number | null,
) => ({
  cpuPercent: cpu,
  memoryPercent: memory,
  diskPercent: disk,
  networkInBytesPerSec: netIn,
  networkOutBytesPerSec: netOut,
});

describe("GET /v1/infra-health", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let otherKey: string;
  let ingestKey: string;
  const WINDOW = `from=${at(60)}&to=${END}`;

  const get = async (query: string, apiKey = key) => {
    const response = await service.fetch(`/v1/infra-health?${query}`, {
      headers: { "x-api-key": apiKey },
    });
    return { status: response.status, body: (await response.json()) as Body };
  };
  const ok = async (query: string, apiKey = key) => {
    const { status, body } = await get(query, apiKey);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const byId = (body: Body, id: string) => body.components.find((c) => c.id === id);
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
      input: {
        email: "infra@example.com",
        password: "correct horse battery",
      },
    });
    key = setup.apiKey ?? "";
    const system = { deps: service.deps.domain, actor: { kind: "system" as const } };
    ingestKey = (
      await createApiKey({
        ctx: system,
        projectId: setup.projectId,
        input: { name: "i", role: "ingest" },
      })
    ).key;
    otherKey = (await addProjectWithKey(service, setup.orgId, "prj_other_infra")).key;
    await send(key, FIXTURE);
    // Another project's web-1 with a full disk, and a host only it has.
    await send(otherKey, [
      resource({ "host.name": "web-1" }, [gauge("system.filesystem.utilization", [[1, 0.99]])]),
      resource({ "host.name": "secret-1" }, [gauge("system.cpu.utilization", [[1, 0.1]])]),
    ]);
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("discovers components by precedence and orders them worst first", async () => {
    const body = await ok(WINDOW);
    expect(body.from).toBe(iso(at(60)));
    expect(body.to).toBe(iso(END));
    expect(body.bucketSeconds).toBe(60);
    expect(body.components.map((c) => [c.id, c.kind, c.name, c.state])).toEqual([
      ["host:db-1", "host", "db-1", "down"],
      ["host:old-1", "host", "old-1", "stale"],
      ["host:mem-1", "host", "mem-1", "degraded"],
      ["pod:shop/cart-7f9", "pod", "cart-7f9", "degraded"],
      ["container:0123abcd", "container", "redis", "healthy"],
      ["host:web-1", "host", "web-1", "healthy"],
      ["instance:i-42", "instance", "i-42", "healthy"],
    ]);
    expect(body.summary).toEqual({ total: 7, healthy: 3, degraded: 2, down: 1, stale: 1 });
  });

  it("reads CPU, memory, disk and network of a host, with its services and attributes", async () => {
    const web = byId(await ok(WINDOW), "host:web-1");
    expect(web).toMatchObject({
      attributes: { "host.name": "web-1", "os.type": "linux", "service.instance.id": "w-1" },
      services: ["web"],
      lastSeen: iso(at(1)),
      reasons: [],
      // CPU: non-idle share averaged over CPUs; disk: the fullest filesystem; network: both interfaces
      current: reading(30, 42, 70, 201, 10),
      sources: {
        cpu: "system.cpu.utilization",
        memory: "system.memory.utilization",
        disk: "system.filesystem.utilization",
        network: "system.network.io",
      },
    });
    const series = web?.series ?? [];
    expect(series).toHaveLength(60);
    expect(series.slice(-3)).toEqual([
      { time: iso(at(3)), ...reading(null, null, null, null, null) },
      { time: iso(at(2)), ...reading(50, null, null, 101, 10) },
      { time: iso(at(1)), ...reading(30, 42, 70, 201, 10) },
    ]);
    expect(
      series.slice(0, -2).every((p) => p.cpuPercent === null && p.networkInBytesPerSec === null),
    ).toBe(true);
  });

  it("states health from documented thresholds, with the reasons", async () => {
    const body = await ok(WINDOW);
    expect(byId(body, "host:db-1")).toMatchObject({
      reasons: ["disk 96 % ≥ 95 %", "cpu 97 % ≥ 85 %"],
      // 3000 bytes over the point's own minute
      current: reading(97, 50, 96, 50, null),
    });
    expect(byId(body, "host:mem-1")).toMatchObject({
      reasons: ["disk 90 % ≥ 85 %"],
      current: reading(null, 75, 90, null, null),
      sources: {
        cpu: null,
        memory: "system.memory.usage",
        disk: "system.filesystem.usage",
        network: null,
      },
    });
    expect(byId(body, "pod:shop/cart-7f9")).toMatchObject({
      reasons: ["memory 88 % ≥ 85 %"],
      services: ["cart"],
      attributes: {
        "k8s.pod.name": "cart-7f9",
        "k8s.namespace.name": "shop",
        "container.id": "c0ffee",
        "host.name": "node-1",
      },
      current: reading(20, 88, null, 10, null),
    });
    // The reset: 6000 bytes in minute 2, then 600 after the restart.
    expect(
      byId(body, "pod:shop/cart-7f9")
        ?.series.slice(-2)
        .map((p) => p.networkInBytesPerSec),
    ).toEqual([100, 10]);
    expect(byId(body, "container:0123abcd")).toMatchObject({
      attributes: { "container.id": "0123abcd", "container.name": "redis" },
      current: reading(12.5, 40, null, 20, 10),
      sources: {
        cpu: "container.cpu.utilization",
        memory: "container.memory.percent",
        disk: null,
        network: "container.network.io.usage.*",
      },
    });
    expect(byId(body, "host:old-1")).toMatchObject({
      reasons: [`no data for 20 min before the window's end (last seen ${iso(at(20))})`],
      current: reading(99, null, null, null, null),
    });
    expect(byId(body, "instance:i-42")).toMatchObject({
      services: ["billing"],
      current: reading(null, null, null, null, null),
      sources: { cpu: null, memory: null, disk: null, network: null },
    });
    expect(body.components.some((c) => c.id === "host:node-1" || c.id === "container:c0ffee")).toBe(
      false,
    );
  });

  it("judges staleness against the window's end", async () => {
    const early = await ok(`from=${at(80)}&to=${at(19)}`);
    expect(early.components.map((c) => [c.id, c.state, c.reasons])).toEqual([
      ["host:old-1", "degraded", ["cpu 99 % ≥ 85 %"]],
    ]);
    const late = await ok(`from=${at(60)}&to=${at(-6)}`);
    expect(late.summary).toEqual({ total: 7, healthy: 0, degraded: 0, down: 0, stale: 7 });
    // Without from/to: the last hour up to now, and END is at least 10 minutes ago.
    const recent = await ok("");
    expect(Date.parse(recent.to) - Date.parse(recent.from)).toBe(60 * MIN);
    expect(recent.components.every((c) => c.state === "stale")).toBe(true);
    expect(await ok("time_range=10m")).toMatchObject({ summary: { total: 0 }, components: [] });
  });

  it("narrows to one component, and answers 404 for one without data", async () => {
    const one = await ok(`${WINDOW}&component=${encodeURIComponent("pod:shop/cart-7f9")}`);
    expect(one.components.map((c) => c.id)).toEqual(["pod:shop/cart-7f9"]);
    expect(one.summary).toEqual({ total: 1, healthy: 0, degraded: 1, down: 0, stale: 0 });
    const missing = await get(`${WINDOW}&component=host:nope`);
    expect(missing.status).toBe(404);
    expect((await get(`from=${at(120)}&to=${at(100)}&component=host:web-1`)).status).toBe(404);
    expect((await get(`${WINDOW}&component=host:secret-1`)).status).toBe(404);
  });

  it("refuses bad parameters, naming them", async () => {
    const field = async (query: string) => (await get(query)).body.errors?.map((e) => e.field);
    expect(await field("component=db-1")).toEqual(["component"]);
    expect(await field("time_range=forever")).toEqual(["time_range"]);
    expect(await field(`from=${END}&to=${at(5)}`)).toEqual(["from"]);
    expect((await get("component=db-1")).status).toBe(400);
  });

  it("never shows another project's components, and checks the key and its permission", async () => {
    const mine = await ok(WINDOW);
    expect(byId(mine, "host:web-1")?.current.diskPercent).toBe(70);
    const other = await ok(WINDOW, otherKey);
    expect(other.components.map((c) => [c.id, c.state])).toEqual([
      ["host:web-1", "down"],
      ["host:secret-1", "healthy"],
    ]);
    expect((await service.fetch(`/v1/infra-health?${WINDOW}`)).status).toBe(401);
    expect((await get(WINDOW, ingestKey)).status).toBe(403);
  });
});
