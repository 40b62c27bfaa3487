import { describe, expect, it } from "vitest";
import { UnixTime } from "../../telemetry/unix-time.js";
import { mapTraces } from "../map-traces.js";
import type { AnyValue, TracesRequest } from "../otlp/otlp-messages.js";
import { PriceTable } from "./ai-prices.js";

// What opentelemetry-python's Span.record_exception writes: escaped is str(True), a string.
const PYTHON_STACK = `Traceback (most recent call last):
  File "/srv/shop/orders/views.py", line 31, in checkout
    order = service.place(cart)
  File "/srv/shop/orders/service.py", line 77, in place
    raise ValueError("cart is empty")
ValueError: cart is empty`;

function pythonSpan(escaped: AnyValue): TracesRequest {
  const s = (stringValue: string): AnyValue => ({ stringValue });
  return {
    resourceSpans: [
      {
        resource: {
          attributes: [
            { key: "service.name", value: s("shop") },
            { key: "telemetry.sdk.language", value: s("python") },
          ],
        },
        scopeSpans: [
          {
            spans: [
              {
                traceId: "5b8efff798038103d269b633813fc60c",
                spanId: "eee19b7ec3c1b174",
                name: "POST /checkout",
                startTimeUnixNano: "1764000000000000000",
                endTimeUnixNano: "1764000000050000000",
                status: { code: 2 },
                events: [
                  {
                    name: "exception",
                    timeUnixNano: "1764000000040000000",
                    attributes: [
                      { key: "exception.type", value: s("ValueError") },
                      { key: "exception.message", value: s("cart is empty") },
                      { key: "exception.stacktrace", value: s(PYTHON_STACK) },
                      { key: "exception.escaped", value: escaped },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  };
}

const mapOne = (escaped: AnyValue) => {
  const options = {
    projectId: "prj_test",
    limits: { maxValueLength: 16_384, maxAttributes: 128 },
    received: new UnixTime(1_764_000_001, 0),
  };
  const { batch } = mapTraces(pythonSpan(escaped), options, new PriceTable({}));
  expect(batch.errors).toHaveLength(1);
  return batch.errors[0];
};

describe("exceptions from span events", () => {
  it("treats Python's exception.escaped 'True' (and a boolean true) as escaped", () => {
    for (const escaped of [{ stringValue: "True" }, { stringValue: "true" }, { boolValue: true }]) {
      expect(mapOne(escaped)?.severity).toBe("high");
    }
    for (const escaped of [{ stringValue: "False" }, { boolValue: false }]) {
      expect(mapOne(escaped)?.severity).toBe("medium");
    }
  });

  it("blames the Python frame that raised, the last one printed", () => {
    expect(mapOne({ stringValue: "True" })?.culprit).toBe("orders/service.py in place");
  });
});
