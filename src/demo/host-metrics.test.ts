import { describe, expect, it } from "vitest";
import { demoRequests } from "./generator.js";

type Point = { timeUnixNano: string; asDouble: number; attributes: { key: string }[] };
type Metric = {
  name: string;
  gauge?: { dataPoints: Point[] };
  sum?: { dataPoints: Point[]; isMonotonic: boolean };
};
type ResourceMetrics = {
  resource: { attributes: { key: string; value: { stringValue?: string } }[] };
  scopeMetrics: { metrics: Metric[] }[];
};

describe("the demo's host metrics", () => {
  const nowMs = Date.UTC(2026, 0, 1, 12);
  const requests = [...demoRequests({ spans: 200, batchSpans: 200, windowMs: 3600_000, nowMs })];
  const metrics = requests.filter((r) => r.signal === "metrics");
  const resources = metrics.flatMap((r) => r.body.resourceMetrics as ResourceMetrics[]);

  it("reports each host under its host.name with the hostmetrics receiver's names", () => {
    const hosts = resources.map(
      (r) => r.resource.attributes.find((a) => a.key === "host.name")?.value.stringValue,
    );
    expect(hosts).toEqual(["api-gateway-1", "orders-service-1", "assistant-1", "db-1"]);
    const names = new Set(
      resources.flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.name))),
    );
    for (const name of [
      "system.cpu.time",
      "system.cpu.utilization",
      "system.cpu.load_average.1m",
      "system.cpu.load_average.5m",
      "system.cpu.load_average.15m",
      "system.memory.usage",
      "system.memory.utilization",
      "system.filesystem.usage",
      "system.filesystem.utilization",
      "system.disk.io",
      "system.network.io",
    ])
      expect(names, name).toContain(name);
  });

  it("counts every point, keeps counters rising and CPU states summing to one per core", () => {
    const all = resources.flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
    const points = all.flatMap((m) => m.gauge?.dataPoints ?? m.sum?.dataPoints ?? []);
    expect(metrics.reduce((n, r) => n + r.items, 0)).toBe(points.length);
    for (const metric of all.filter((m) => m.sum?.isMonotonic)) {
      const bySeries = new Map<string, number[]>();
      for (const p of metric.sum?.dataPoints ?? []) {
        const key = JSON.stringify(p.attributes);
        bySeries.set(key, [...(bySeries.get(key) ?? []), p.asDouble]);
      }
      for (const values of bySeries.values())
        for (let i = 1; i < values.length; i++)
          expect(values[i]).toBeGreaterThanOrEqual(values[i - 1] ?? 0);
    }
    const cpu = resources[0]?.scopeMetrics[0]?.metrics.find(
      (m) => m.name === "system.cpu.utilization",
    );
    const byCoreAndTime = new Map<string, number>();
    for (const p of cpu?.gauge?.dataPoints ?? []) {
      const key = `${JSON.stringify(p.attributes[0])} ${p.timeUnixNano}`;
      byCoreAndTime.set(key, (byCoreAndTime.get(key) ?? 0) + p.asDouble);
    }
    for (const total of byCoreAndTime.values()) expect(total).toBeCloseTo(1, 6);
  });
});
