import { describe, expect, it } from "vitest";
import { levelOf } from "../map-logs.js";
import { PriceTable } from "./ai-prices.js";
import { durationBucket, normalizeRoute, summarizeHttp } from "./http.js";

describe("log levels", () => {
  it("maps severity numbers and, without one, severity text", () => {
    expect([1, 4, 5, 9, 12, 13, 17, 20, 21, 24].map((n) => levelOf(n, ""))).toEqual([
      "debug",
      "debug",
      "debug",
      "info",
      "info",
      "warn",
      "error",
      "error",
      "fatal",
      "fatal",
    ]);
    expect(
      ["WARNING", "err", "critical", "Information", "whatever"].map((t) => levelOf(0, t)),
    ).toEqual(["warn", "error", "fatal", "info", "info"]);
  });
});

describe("AI cost", () => {
  const prices = new PriceTable({ "my-model": { input: 1, output: 2 } });

  it("prices dated model versions by their family, the longest prefix first", () => {
    expect(prices.find("gpt-4o-mini-2024-07-18")).toEqual(prices.find("gpt-4o-mini"));
    expect(prices.find("gpt-4o-2024-08-06")?.input).toBe(2.5);
    expect(prices.find("us.anthropic.claude-sonnet-4-5-20250929-v1:0")?.output).toBe(15);
    expect(prices.find("unknown-model")).toBeUndefined();
  });

  it("charges cache reads and writes at their own rates and the rest at the input rate", () => {
    // claude-sonnet-4: input 3, output 15, cache read 0.3, cache write 3.75 per million.
    const cost = prices.cost("claude-sonnet-4-20250514", {
      input: 1_000_000,
      output: 100_000,
      cacheRead: 400_000,
      cacheCreation: 100_000,
    });
    expect(cost).toBeCloseTo(0.5 * 3 + 0.4 * 0.3 + 0.1 * 3.75 + 0.1 * 15, 9);
    expect(
      prices.cost("my-model", {
        input: 2_000_000,
        output: 1_000_000,
        cacheRead: 0,
        cacheCreation: 0,
      }),
    ).toBe(4);
  });
});

describe("HTTP summaries", () => {
  it("turns id-like path segments into {id} when no route is known", () => {
    expect(normalizeRoute("/orders/93/items/3f2c9d1e-1b7a-4c8e-9a2f-0d6b5e4c3a21")).toBe(
      "/orders/{id}/items/{id}",
    );
    expect(normalizeRoute("/api/health")).toBe("/api/health");
  });

  it("folds observations per minute and key with a histogram that merges", () => {
    const o = {
      projectId: "p",
      minute: 60,
      service: "api",
      method: "GET",
      route: "/x",
      statusCode: 200,
      failed: false,
    };
    const rows = summarizeHttp([
      { ...o, durationMs: 3 },
      { ...o, durationMs: 120 },
      { ...o, durationMs: 90_000, failed: true },
      { ...o, statusCode: 500, durationMs: 10, failed: true },
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      request_count: 3,
      error_count: 1,
      duration_min_ms: 3,
      duration_max_ms: 90_000,
    });
    const buckets = rows[0]?.duration_buckets as number[];
    expect(buckets[durationBucket(3)]).toBe(1);
    expect(buckets[durationBucket(120)]).toBe(1);
    expect(buckets.at(-1)).toBe(1);
    expect(buckets.reduce((a, b) => a + b, 0)).toBe(3);
  });
});
