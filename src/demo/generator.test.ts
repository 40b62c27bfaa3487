import { describe, expect, it } from "vitest";
import { demoRequests } from "./generator.js";

interface RawSpan {
  spanId: Buffer;
  parentSpanId?: Buffer;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
}

const ms = (nanos: string) => Number(BigInt(nanos) / 1_000_000n);

function spansOf(options: Parameters<typeof demoRequests>[0]): RawSpan[] {
  return [...demoRequests(options)]
    .filter((r) => r.signal === "traces")
    .flatMap((r) =>
      (r.body.resourceSpans as { scopeSpans: { spans: RawSpan[] }[] }[]).flatMap((rs) =>
        rs.scopeSpans.flatMap((ss) => ss.spans),
      ),
    );
}

describe("the demo dataset", () => {
  const nowMs = Date.UTC(2026, 0, 1, 12);
  const windowMs = 2 * 3600_000;

  it("spreads its root traces over the whole window, each at its own time", () => {
    const spans = spansOf({ spans: 20_000, batchSpans: 1000, windowMs, nowMs });
    const roots = spans.filter((s) => !s.parentSpanId).map((s) => ms(s.startTimeUnixNano));
    expect(roots.length).toBeGreaterThan(2000);
    expect(new Set(roots).size).toBeGreaterThanOrEqual(roots.length * 0.98);
    const first = Math.min(...roots);
    const last = Math.max(...roots);
    expect(first).toBeGreaterThanOrEqual(nowMs - windowMs);
    expect(first - (nowMs - windowMs)).toBeLessThan(windowMs * 0.01);
    expect(last).toBeLessThan(nowMs);
    expect(nowMs - last).toBeLessThan(windowMs * 0.02);
    // Evenly: each tenth of the window holds about a tenth of the traces.
    const tenths = Array<number>(10).fill(0);
    for (const t of roots) {
      const i = Math.min(9, Math.floor(((t - (nowMs - windowMs)) / windowMs) * 10));
      tenths[i] = (tenths[i] ?? 0) + 1;
    }
    for (const n of tenths) expect(n).toBeGreaterThan(roots.length * 0.06);
    // Every span ends by now.
    for (const s of spans) expect(ms(s.endTimeUnixNano)).toBeLessThanOrEqual(nowMs);
  });

  it("keeps every child span within its parent", () => {
    const spans = spansOf({ spans: 5000, batchSpans: 500, windowMs, nowMs });
    const byId = new Map(spans.map((s) => [s.spanId.toString("hex"), s]));
    let children = 0;
    for (const s of spans) {
      if (!s.parentSpanId) continue;
      const parent = byId.get(s.parentSpanId.toString("hex"));
      expect(parent).toBeDefined();
      if (!parent) continue;
      children++;
      expect(BigInt(s.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(parent.startTimeUnixNano));
      expect(BigInt(s.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(parent.endTimeUnixNano));
    }
    expect(children).toBeGreaterThan(1000);
  });
});
