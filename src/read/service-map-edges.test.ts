import { describe, expect, it } from "vitest";
import { summarizeEdges } from "../ingest/derive/service-edges-rows.js";
import type { EdgeObservation, Row } from "../ingest/ingest-batch.js";
import { HTTP_DURATION_BOUNDS_MS } from "../telemetry/tables.js";
import { type EdgeTotals, edgeView, latencyOf, mergeTotals } from "./service-map-edges.js";

const calls = (from: number, to: number): EdgeObservation[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({
    projectId: "p",
    minute: 0,
    source: "web",
    target: "orders",
    targetKind: "service",
    durationMs: from + i,
    failed: (from + i) % 20 === 0,
  }));

/** A service_edges row as the engine sums it back. */
const totals = (row: Row | undefined): EdgeTotals => ({
  source: String(row?.source_service),
  target: String(row?.target),
  targetKind: "service",
  calls: Number(row?.calls),
  errors: Number(row?.errors),
  histogram: {
    bounds: HTTP_DURATION_BOUNDS_MS,
    counts: row?.duration_buckets as number[],
    min: Number(row?.duration_min_ms),
    max: Number(row?.duration_max_ms),
  },
});

describe("edge figures from service_edges' buckets", () => {
  it("estimates p50/p95/p99 by interpolating in the bucket holding the rank", () => {
    // 1…100 ms: 5 ≤ 5, 5 ≤ 10, 15 ≤ 25, 25 ≤ 50, 25 ≤ 75, 25 ≤ 100.
    const edge = totals(summarizeEdges(calls(1, 100))[0]);
    expect(latencyOf(edge.histogram)).toEqual({ p50Ms: 50, p95Ms: 95, p99Ms: 99 });
  });

  it("merges rows of several writes and minutes into the same figures", () => {
    const [a, b] = [calls(1, 40), calls(41, 100)].map((o) => totals(summarizeEdges(o)[0]));
    const edge = mergeTotals(a as EdgeTotals, b as EdgeTotals);
    expect(edge).toMatchObject({ calls: 100, errors: 5 });
    expect(edgeView(edge, 50)).toEqual({
      source: "web",
      target: "orders",
      targetKind: "service",
      calls: 100,
      rate: 2,
      errors: 5,
      errorRate: 0.05,
      p50Ms: 50,
      p95Ms: 95,
      p99Ms: 99,
    });
  });

  it("answers a single call's own duration, clamped to what was observed", () => {
    const edge = totals(summarizeEdges(calls(80, 80))[0]);
    expect(latencyOf(edge.histogram)).toEqual({ p50Ms: 80, p95Ms: 80, p99Ms: 80 });
  });
});
