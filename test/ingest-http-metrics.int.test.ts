// OTLP/HTTP metrics: every metric type stored with its points (the endpoints themselves:
// ingest-http.int.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

// A minute ago, whole second, so the stored text is predictable; inside the retention window.
const START_MS = Math.floor((Date.now() - 60_000) / 1000) * 1000;
const START_NS = `${BigInt(START_MS) * 1_000_000n + 123_456_789n}`;

describe("OTLP/HTTP endpoints", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: { email: "otlp-metrics@example.com", password: "correct horse battery" },
    });
    key = setup.apiKey ?? "";
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  const post = (path: string, body: string | Uint8Array, headers: Record<string, string> = {}) =>
    service.fetch(path, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json", ...headers },
      body,
    });

  it("stores every metric type with its points", async () => {
    const point = {
      timeUnixNano: START_NS,
      attributes: [{ key: "cpu", value: { stringValue: "0" } }],
    };
    const metrics = [
      { name: "g", gauge: { dataPoints: [{ ...point, asDouble: 0.5 }] } },
      {
        name: "s",
        sum: {
          aggregationTemporality: 2,
          isMonotonic: true,
          dataPoints: [{ ...point, asInt: "9007199254740993" }],
        },
      },
      {
        name: "h",
        histogram: {
          aggregationTemporality: 1,
          dataPoints: [
            { ...point, count: "3", sum: 6, bucketCounts: ["1", "2", "0"], explicitBounds: [1, 5] },
          ],
        },
      },
      {
        name: "q",
        summary: {
          dataPoints: [
            {
              ...point,
              count: "2",
              sum: 3,
              quantileValues: [
                { quantile: 0.5, value: 1 },
                { quantile: 0.99, value: 2 },
              ],
            },
          ],
        },
      },
      {
        name: "e",
        exponentialHistogram: {
          dataPoints: [
            {
              ...point,
              count: "1",
              scale: 2,
              zeroCount: "0",
              positive: { offset: 1, bucketCounts: ["1"] },
            },
          ],
        },
      },
    ];
    const body = {
      resourceMetrics: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "host" } }] },
          scopeMetrics: [{ metrics }],
        },
      ],
    };
    expect((await post("/v1/metrics", JSON.stringify(body))).status).toBe(200);
    const rows = await service.deps.telemetry.query<Record<string, unknown>>(
      `SELECT metric_name, metric_type, aggregation_temporality, value, count, bucket_counts, explicit_bounds, quantile_values, exp_positive_bucket_counts, attributes
       FROM vigil.metrics WHERE service_name = 'host' ORDER BY metric_name`,
    );
    expect(rows.map((r) => [r.metric_name, r.metric_type, r.aggregation_temporality])).toEqual([
      ["e", "exponential_histogram", "unspecified"],
      ["g", "gauge", "unspecified"],
      ["h", "histogram", "delta"],
      ["q", "summary", "unspecified"],
      ["s", "sum", "cumulative"],
    ]);
    expect(rows[2]).toMatchObject({
      count: 3,
      bucket_counts: [1, 2, 0],
      explicit_bounds: [1, 5],
      attributes: { cpu: "0" },
    });
    expect(rows[3]?.quantile_values).toEqual([1, 2]);
    expect(rows[0]?.exp_positive_bucket_counts).toEqual([1]);
  });
});
