import type { PanelInput, PanelQueryResult } from "../../src/contracts/dashboards.js";

/**
 * One panel of every type with results shaped as its queries would answer, over one hour, for
 * drawing the panel bodies in Chromium (test/dashboard-panels.e2e.int.test.ts).
 */

export const WINDOW = { from: "2026-03-01T10:00:00.000Z", to: "2026-03-01T11:00:00.000Z" };
const BUCKET = 60;
const MINUTES = 60;

/** The engine's DateTime64 text for the minute `m` of the window. */
export const minute = (m: number): string =>
  new Date(Date.parse(WINDOW.from) + m * 60_000).toISOString().replace("T", " ").replace("Z", "");

function result(columns: [string, string][], rows: unknown[][]): PanelQueryResult {
  return {
    columns: columns.map(([name, type]) => ({ name, type })),
    rows,
    rowCount: rows.length,
    durationMs: 3,
    truncated: false,
    window: { ...WINDOW, bucketSeconds: BUCKET },
    cached: false,
  };
}

const wave = (m: number, phase: number, scale: number) =>
  Math.round((Math.sin((m + phase) / 6) + 1.4) * scale);

const perService = result(
  [
    ["t", "DateTime64(3)"],
    ["service_name", "LowCardinality(String)"],
    ["p95", "Float64"],
  ],
  Array.from({ length: MINUTES }, (_, m) =>
    ["checkout", "gateway", "search"].map((s, i) => [minute(m), s, wave(m, i * 7, 180 + i * 90)]),
  ).flat(),
);

const byService = result(
  [
    ["service_name", "LowCardinality(String)"],
    ["requests", "UInt64"],
    ["errors", "UInt64"],
  ],
  [
    ["checkout", 1840, 12],
    ["gateway", 1533, 3],
    ["search", 920, 40],
    ["billing", 310, 0],
  ],
);

const errorsByService = result(
  [
    ["service_name", "LowCardinality(String)"],
    ["errors", "UInt64"],
  ],
  byService.rows.map((row) => [row[0], row[2]]),
);

const latencyHeat = result(
  [
    ["t", "DateTime64(3)"],
    ["le", "Float64"],
    ["count", "UInt64"],
  ],
  Array.from({ length: MINUTES }, (_, m) =>
    [16, 32, 64, 128, 256, 512, 1024].map((le, i) => [minute(m), le, wave(m, i * 3, 12 - i)]),
  ).flat(),
);

const logs = result(
  [
    ["timestamp", "DateTime64(9)"],
    ["level", "LowCardinality(String)"],
    ["service_name", "LowCardinality(String)"],
    ["message", "String"],
    ["trace_id", "String"],
    ["id", "String"],
    ["http_status", "UInt16"],
  ],
  [
    [`${minute(50)}123456`, "error", "checkout", "payment declined <b>x</b>", "aa11", "log1", 502],
    [`${minute(49)}000000`, "info", "gateway", "GET /cart 200", "", "log2", 200],
  ],
);

const traces = result(
  [
    ["trace_id", "String"],
    ["timestamp", "DateTime64(9)"],
    ["service_name", "LowCardinality(String)"],
    ["operation_name", "LowCardinality(String)"],
    ["duration_ms", "Float64"],
    ["status", "LowCardinality(String)"],
  ],
  [
    ["bb22", `${minute(40)}000000`, "checkout", "POST /checkout", 1530.5, "error"],
    ["cc33", `${minute(41)}000000`, "gateway", "GET /cart", 12.3, "ok"],
  ],
);

export interface PanelFixture {
  panel: PanelInput;
  results: PanelQueryResult[];
  error?: { detail: string; title: string; status: number };
}

const grid = { x: 0, y: 0, w: 6, h: 8 };
const q = [{ tql: "SELECT 1" }];

export const FIXTURES: PanelFixture[] = [
  {
    panel: {
      id: "ts",
      title: "p95 by service",
      type: "timeseries",
      gridPos: grid,
      queries: q,
      unit: "ms",
      thresholds: [{ value: 400, color: "red" }],
      options: { style: "area", stacked: true, legend: "bottom" },
    },
    results: [perService],
  },
  {
    panel: {
      id: "bars",
      title: "p95 bars",
      type: "timeseries",
      gridPos: grid,
      queries: q,
      unit: "ms",
      options: { style: "bars", legend: "right" },
    },
    results: [perService],
  },
  {
    panel: {
      id: "stat",
      title: "Slowest p95",
      type: "stat",
      gridPos: grid,
      queries: q,
      unit: "ms",
      thresholds: [
        { value: 0, color: "green" },
        { value: 300, color: "orange" },
      ],
      options: { reduce: "max" },
    },
    results: [perService],
  },
  {
    panel: {
      id: "table",
      title: "Requests",
      type: "table",
      gridPos: grid,
      queries: q,
      unit: "count",
    },
    results: [byService],
  },
  {
    panel: {
      id: "bargauge",
      title: "Errors by service",
      type: "bargauge",
      gridPos: grid,
      queries: [{ tql: "SELECT service_name, errors" }],
      thresholds: [{ value: 20, color: "red" }],
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a panel link's placeholder.
      links: [{ title: "Traces", kind: "traces", params: "service=${service_name}&status=error" }],
    },
    results: [errorsByService],
  },
  {
    panel: {
      id: "pie",
      title: "Share of requests",
      type: "pie",
      gridPos: grid,
      queries: q,
      options: { donut: true },
    },
    results: [byService],
  },
  {
    panel: {
      id: "heatmap",
      title: "Latency",
      type: "heatmap",
      gridPos: grid,
      queries: q,
      unit: "ms",
    },
    results: [latencyHeat],
  },
  {
    panel: { id: "logs", title: "Errors", type: "logs", gridPos: grid, queries: q },
    results: [logs],
  },
  {
    panel: { id: "traces", title: "Slow traces", type: "traces", gridPos: grid, queries: q },
    results: [traces],
  },
  {
    panel: {
      id: "text",
      title: "Notes",
      type: "text",
      gridPos: grid,
      content:
        '# Runbook\n\nSee [the docs](https://example.com) <script>window.__xss = 1</script>\n\n<img src=x onerror="window.__xss = 2">',
    },
    results: [],
  },
  {
    panel: { id: "empty", title: "Nothing", type: "timeseries", gridPos: grid, queries: q },
    results: [result([["t", "DateTime"]], [])],
  },
  {
    panel: { id: "failed", title: "Failed", type: "stat", gridPos: grid, queries: q },
    results: [],
    error: { status: 400, title: "Invalid TQL", detail: "Unknown column 'durration_ms'" },
  },
  {
    panel: { id: "shape", title: "No time", type: "timeseries", gridPos: grid, queries: q },
    results: [byService],
  },
  {
    // Thresholds that are not a list make the renderer throw: the boundary keeps it inside.
    panel: { id: "broken", title: "Broken", type: "stat", gridPos: grid, queries: q },
    results: [byService],
  },
];
