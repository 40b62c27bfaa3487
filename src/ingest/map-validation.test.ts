import { describe, expect, it } from "vitest";
import { UnixTime } from "../telemetry/unix-time.js";
import { PriceTable } from "./derive/ai-prices.js";
import type { MappingOptions } from "./ingest-batch.js";
import { mapLogs } from "./map-logs.js";
import { mapMetrics } from "./map-metrics.js";
import { mapTraces } from "./map-traces.js";

const options: MappingOptions = {
  projectId: "p",
  limits: { maxValueLength: 32, maxAttributes: 10 },
  received: new UnixTime(1_700_000_000, 0),
};
const prices = new PriceTable({});
const OK = "1700000000000000000";
const Y2262 = "9223415999000000000";

const span = (extra: Record<string, unknown>) => ({
  traceId: "0af7651916cd43dd8448eb211c80319c",
  spanId: "b7ad6b7169203331",
  name: "op",
  startTimeUnixNano: OK,
  endTimeUnixNano: OK,
  ...extra,
});
const traces = (spans: unknown[]) =>
  mapTraces({ resourceSpans: [{ scopeSpans: [{ spans }] }] } as never, options, prices);

describe("mapping refuses what the engine would", () => {
  it("rejects a span whose event time is out of range, leaving no error occurrence behind", () => {
    const mapped = traces([
      span({
        events: [
          { name: "exception", timeUnixNano: OK, attributes: [] },
          { name: "exception", timeUnixNano: Y2262, attributes: [] },
        ],
      }),
    ]);
    expect(mapped.rejected).toBe(1);
    expect(mapped.reasons).toEqual([
      "1 rejected: event time_unix_nano is outside 1970-01-01 … 2095-12-31 UTC",
    ]);
    expect(mapped.batch.traces).toEqual([]);
    expect(mapped.batch.errors).toEqual([]);
  });

  it("cuts names and keeps integer columns in their types", () => {
    const mapped = traces([
      span({
        name: "n".repeat(100),
        kind: 2,
        attributes: [
          { key: "http.response.status_code", value: { stringValue: "-5" } },
          { key: "gen_ai.usage.input_tokens", value: { stringValue: "-3" } },
          { key: "gen_ai.usage.output_tokens", value: { stringValue: "99999999999999999999999" } },
        ],
      }),
    ]);
    const row = mapped.batch.traces[0];
    expect(row?.operation_name).toBe("n".repeat(32));
    expect(row?.http_status_code).toBe(0);
    expect(mapped.batch.aiSpans[0]).toMatchObject({ input_tokens: 0, output_tokens: 0 });
  });

  it("keeps a log whose observed time is out of range, with the receive time", () => {
    const mapped = mapLogs(
      {
        resourceLogs: [
          {
            scopeLogs: [
              {
                logRecords: [
                  { timeUnixNano: OK, observedTimeUnixNano: Y2262, severityNumber: -1 },
                  { timeUnixNano: Y2262 },
                ],
              },
            ],
          },
        ],
      } as never,
      { ...options, received: new UnixTime(1_700_000_001, 0) },
    );
    expect(mapped.rejected).toBe(1);
    expect(mapped.batch.logs[0]).toMatchObject({
      observed_timestamp: new UnixTime(1_700_000_001, 0),
      severity_number: 0,
    });
  });

  it("rejects metric points one by one: out-of-range times, negative counts, bad scales", () => {
    const point = (extra: Record<string, unknown>) => ({ timeUnixNano: OK, count: "3", ...extra });
    const mapped = mapMetrics(
      {
        resourceMetrics: [
          {
            scopeMetrics: [
              {
                metrics: [
                  {
                    name: "h",
                    histogram: {
                      dataPoints: [
                        point({}),
                        point({ timeUnixNano: Y2262 }),
                        point({ count: "-1" }),
                        point({ bucketCounts: [1, -2] }),
                        point({ count: "18446744073709551615" }),
                      ],
                    },
                  },
                  {
                    name: "e",
                    exponentialHistogram: { dataPoints: [point({ scale: 1.5 })] },
                  },
                ],
              },
            ],
          },
        ],
      } as never,
      options,
    );
    expect(mapped.batch.metrics.map((m) => m.count)).toEqual([3, "18446744073709551615"]);
    expect(mapped.rejected).toBe(4);
    expect(mapped.reasons.sort()).toEqual([
      "1 rejected: bucket_counts is not an unsigned 64-bit integer",
      "1 rejected: count is not an unsigned 64-bit integer",
      "1 rejected: scale is not a 32-bit integer",
      "1 rejected: time_unix_nano is outside 1970-01-01 … 2095-12-31 UTC",
    ]);
  });

  it("names the envelope field of the wrong shape (400)", () => {
    expect(() => traces("x" as never)).toThrow(
      "resourceSpans[0].scopeSpans[0].spans: must be an array",
    );
    expect(() => mapTraces({ resourceSpans: "x" } as never, options, prices)).toThrow(
      expect.objectContaining({
        code: "invalid_input",
        message: "resourceSpans: must be an array",
      }),
    );
  });
});
