import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findTemplate } from "../src/dashboards/templates/index.js";
import { attrs } from "./helpers/otlp.js";
import { addKey } from "./helpers/projects.js";
import { startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

/**
 * The runtime template on the metrics each runtime's OpenTelemetry instrumentation sends (the
 * demo sends none): a Node.js, a JVM and a CPython service, a point a minute for 15 minutes.
 * Every panel charts its runtime; gauges, cumulative sums and cumulative histograms alike.
 */
const MINUTES = 15;
const nowMs = Date.now();
const times = Array.from({ length: MINUTES }, (_, m) =>
  (BigInt(nowMs - (MINUTES - m) * 60_000) * 1_000_000n).toString(),
);
const start = times[0];

type Labels = Record<string, string>;
const points = (value: (m: number) => number, labels: Labels = {}) =>
  times.map((timeUnixNano, m) => ({
    timeUnixNano,
    startTimeUnixNano: start,
    asDouble: value(m),
    attributes: attrs(labels),
  }));
const gauge = (name: string, unit: string, ...series: ReturnType<typeof points>[]) => ({
  name,
  unit,
  gauge: { dataPoints: series.flat() },
});
const counter = (name: string, unit: string, ...series: ReturnType<typeof points>[]) => ({
  name,
  unit,
  sum: { dataPoints: series.flat(), aggregationTemporality: 2, isMonotonic: true },
});
/** A cumulative histogram whose sum grows by `perMinute` seconds a minute. */
const histogram = (name: string, perMinute: number, labels: Labels) => ({
  name,
  unit: "s",
  histogram: {
    aggregationTemporality: 2,
    dataPoints: times.map((timeUnixNano, m) => ({
      timeUnixNano,
      startTimeUnixNano: start,
      count: String((m + 1) * 10),
      sum: (m + 1) * perMinute,
      bucketCounts: ["0", String((m + 1) * 10)],
      explicitBounds: [0.01],
      attributes: attrs(labels),
    })),
  },
});

const resource = (service: string, metrics: object[]) => ({
  resource: { attributes: attrs({ "service.name": service }) },
  scopeMetrics: [{ scope: { name: "runtime" }, metrics }],
});

const RUNTIMES = {
  resourceMetrics: [
    resource("node-api", [
      gauge(
        "nodejs.eventloop.delay.p99",
        "s",
        points(() => 0.021),
      ),
      gauge(
        "nodejs.eventloop.utilization",
        "1",
        points((m) => 0.2 + m / 100),
      ),
      gauge(
        "v8js.memory.heap.used",
        "By",
        points(() => 30e6, { "v8js.heap.space.name": "old_space" }),
        points(() => 5e6, { "v8js.heap.space.name": "new_space" }),
      ),
      histogram("v8js.gc.duration", 0.6, { "v8js.gc.type": "major" }),
    ]),
    resource("java-api", [
      gauge(
        "jvm.memory.used",
        "By",
        points(() => 200e6, { "jvm.memory.type": "heap", "jvm.memory.pool.name": "G1 Old Gen" }),
        points(() => 50e6, { "jvm.memory.type": "non_heap", "jvm.memory.pool.name": "Metaspace" }),
      ),
      histogram("jvm.gc.duration", 1.2, { "jvm.gc.name": "G1 Young Generation" }),
      gauge(
        "jvm.thread.count",
        "{thread}",
        points(() => 30, { "jvm.thread.state": "runnable" }),
        points(() => 12, { "jvm.thread.state": "waiting" }),
      ),
      gauge(
        "jvm.cpu.recent_utilization",
        "1",
        points(() => 0.35),
      ),
    ]),
    resource("py-api", [
      gauge(
        "process.runtime.cpython.memory",
        "By",
        points(() => 80e6, { type: "rss" }),
        points(() => 400e6, { type: "vms" }),
      ),
      counter(
        "process.runtime.cpython.cpu_time",
        "s",
        points((m) => 100 + m * 30, { type: "user" }),
        points((m) => 20 + m * 6, { type: "system" }),
      ),
      counter(
        "process.runtime.cpython.gc_count",
        "{collection}",
        points((m) => m * 120, { count: "0" }),
        points((m) => m * 12, { count: "1" }),
      ),
      gauge(
        "process.runtime.cpython.thread_count",
        "{thread}",
        points(() => 8),
      ),
    ]),
  ],
};

describe("the runtime template on Node.js, JVM and CPython metrics", () => {
  const dir = makeTempDir();
  let service: TestService;
  let projectId: string;

  beforeAll(async () => {
    ({ service, projectId } = await startWithRoles(dir.path));
    const key = await addKey(service, projectId, { name: "runtimes", role: "ingest" });
    const response = await service.fetch("/v1/metrics", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify(RUNTIMES),
    });
    expect(response.status, await response.text()).toBe(200);
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("charts every runtime panel", async () => {
    const runtime = findTemplate("runtime");
    if (!runtime) throw new Error("no runtime template");
    const parameters: Record<string, unknown> = {
      from: new Date(nowMs - 3600_000).toISOString(),
      to: new Date(nowMs + 60_000).toISOString(),
      bucket_seconds: 12,
    };
    const run = (text: string) =>
      service.deps.tql.query(projectId, text, { parameters, waitForTurn: true });
    const [variable] = runtime.dashboard.variables;
    if (variable?.type !== "query") throw new Error("no service variable");
    parameters.service = (await run(variable.tql)).rows.map((row) => String(row[0]));
    expect(parameters.service).toEqual(["java-api", "node-api", "py-api"]);

    const last = new Map<string, unknown[]>();
    for (const panel of runtime.dashboard.panels) {
      const result = await run(panel.queries[0]?.tql ?? "");
      expect(result.rows.length, panel.id).toBeGreaterThan(0);
      last.set(panel.id ?? "", result.rows.at(-1) ?? []);
    }
    // Rates from cumulative counters and histogram sums: growth per second.
    expect(last.get("node-gc")?.at(-1)).toBeCloseTo(0.01, 5);
    expect(last.get("jvm-gc")?.at(-1)).toBeCloseTo(0.02, 5);
    expect(last.get("node-heap")?.at(-1)).toBe(35e6);
    const cpu = await run(
      runtime.dashboard.panels.find((p) => p.id === "python-cpu")?.queries[0]?.tql ?? "",
    );
    const byType = new Map(cpu.rows.map((row) => [row[2], row[3]]));
    expect(byType.get("user")).toBeCloseTo(0.5, 5);
    expect(byType.get("system")).toBeCloseTo(0.1, 5);
    const table = await run(
      runtime.dashboard.panels.find((p) => p.id === "runtime-metrics")?.queries[0]?.tql ?? "",
    );
    expect(table.rows.length).toBe(12);
  });
});
