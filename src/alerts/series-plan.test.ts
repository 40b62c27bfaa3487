import { describe, expect, it } from "vitest";
import { isNumericType, labelColumns, seriesFromResult } from "./query-check.js";
import { type KnownSeries, planSeries } from "./series-plan.js";

const now = new Date("2026-01-01T12:00:00Z");
const known = (key: string, state: KnownSeries["state"]): KnownSeries => ({
  seriesKey: key,
  labels: JSON.parse(key) as Record<string, string>,
  state,
  pendingSince: state === "pending" ? "2026-01-01T11:59:00.000Z" : null,
  firedAt: state === "firing" ? "2026-01-01T11:50:00.000Z" : null,
});
const rule = (noData: "ok" | "alerting" | "keep", forSeconds = 0) => ({
  condition: { op: ">" as const, threshold: 5 },
  forSeconds,
  noData,
});
const summary = (plan: ReturnType<typeof planSeries>) =>
  plan.map((p) => [p.seriesKey, p.breaching, p.next.state, p.next.transition]);

describe("planSeries", () => {
  it("compares each series, resolves a known one missing from a non-empty result", () => {
    const samples = seriesFromResult({
      columns: [
        { name: "svc", type: "LowCardinality(String)" },
        { name: "value", type: "UInt64" },
      ],
      rows: [
        ["api", 9],
        ["web", "3"],
        ["api", 1],
      ],
    });
    expect(
      summary(planSeries(rule("ok", 60), samples, [known('{"svc":"gone"}', "firing")], now)),
    ).toEqual([
      ['{"svc":"api"}', true, "pending", "pending"],
      ['{"svc":"web"}', false, "ok", "none"],
      ['{"svc":"gone"}', false, "ok", "resolved"],
    ]);
  });

  it("applies noData to an empty result: ok, alerting (the {} series too), keep", () => {
    const tracked = [known('{"svc":"api"}', "firing"), known('{"svc":"web"}', "pending")];
    expect(summary(planSeries(rule("ok"), [], tracked, now))).toEqual([
      ['{"svc":"api"}', false, "ok", "resolved"],
      ['{"svc":"web"}', false, "ok", "cancelled"],
    ]);
    expect(summary(planSeries(rule("alerting", 300), [], tracked, now))).toEqual([
      ["{}", true, "pending", "pending"],
      ['{"svc":"api"}', true, "firing", "none"],
      ['{"svc":"web"}', true, "pending", "none"],
    ]);
    expect(summary(planSeries(rule("keep"), [], tracked, now))).toEqual([
      ['{"svc":"api"}', "no_data_keep", "firing", "none"],
      ['{"svc":"web"}', "no_data_keep", "pending", "none"],
    ]);
  });

  it("treats a null value as no data for that series only", () => {
    const samples = seriesFromResult({
      columns: [{ name: "value", type: "Nullable(Float64)" }],
      rows: [[null]],
    });
    expect(samples).toEqual([{ seriesKey: "{}", labels: {}, value: null }]);
    expect(summary(planSeries(rule("alerting"), samples, [], now))).toEqual([
      ["{}", true, "firing", "fired"],
    ]);
    expect(summary(planSeries(rule("keep"), samples, [known("{}", "firing")], now))).toEqual([
      ["{}", "no_data_keep", "firing", "none"],
    ]);
  });
});

describe("the query contract", () => {
  it("accepts numeric value types and names the labels", () => {
    for (const type of [
      "UInt64",
      "Int8",
      "Float64",
      "Nullable(Float64)",
      "Decimal(18, 4)",
      "Decimal64(2)",
    ])
      expect(isNumericType(type), type).toBe(true);
    for (const type of [
      "String",
      "Nullable(String)",
      "DateTime64(9, 'UTC')",
      "Array(UInt64)",
      "Bool",
    ])
      expect(isNumericType(type), type).toBe(false);
    expect(
      labelColumns([
        { name: "service", type: "String" },
        { name: "value", type: "Float64" },
      ]),
    ).toEqual({ ok: true, labels: ["service"] });
    expect(labelColumns([{ name: "n", type: "UInt64" }]).ok).toBe(false);
  });
});
