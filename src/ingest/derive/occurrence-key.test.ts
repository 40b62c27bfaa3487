import { describe, expect, it } from "vitest";
import { UnixTime } from "../../telemetry/unix-time.js";
import { mapLogs } from "../map-logs.js";
import { mapTraces } from "../map-traces.js";
import type { LogsRequest, TracesRequest } from "../otlp/otlp-messages.js";
import { PriceTable } from "./ai-prices.js";
import { failedSpanKey, occurrenceKey, sessionErrorKey } from "./occurrence-key.js";
import { summarizeSessions, UserAgentParser } from "./sessions.js";

const TRACE = "5b8efff798038103d269b633813fc60c";
const SPAN = "eee19b7ec3c1b174";
const s = (stringValue: string) => ({ stringValue });
const EXCEPTION = [
  { key: "exception.type", value: s("TypeError") },
  { key: "exception.message", value: s("x is undefined") },
  {
    key: "exception.stacktrace",
    value: s("TypeError: x is undefined\n    at f (/app/src/a.ts:1:1)"),
  },
  { key: "session.id", value: s("sess-1") },
];
const resource = { attributes: [{ key: "service.name", value: s("api") }] };
const options = {
  projectId: "prj_1",
  limits: { maxAttributes: 128, maxValueLength: 4096 },
  received: UnixTime.fromMillis(1_700_000_000_000),
};

/** A failed span recording the exception, and the same exception logged in that span. */
function sources() {
  const traces: TracesRequest = {
    resourceSpans: [
      {
        resource,
        scopeSpans: [
          {
            spans: [
              {
                traceId: TRACE,
                spanId: SPAN,
                name: "op",
                startTimeUnixNano: "1700000000000000000",
                endTimeUnixNano: "1700000000020000000",
                status: { code: 2 },
                attributes: [{ key: "session.id", value: s("sess-1") }],
                events: [
                  { name: "exception", timeUnixNano: "1700000000010000000", attributes: EXCEPTION },
                ],
              },
            ],
          },
        ],
      },
    ],
  };
  const logs: LogsRequest = {
    resourceLogs: [
      {
        resource,
        scopeLogs: [
          {
            logRecords: [
              {
                timeUnixNano: "1700000000011000000",
                severityNumber: 17,
                body: s("request failed"),
                traceId: TRACE,
                spanId: SPAN,
                attributes: EXCEPTION,
              },
            ],
          },
        ],
      },
    ],
  };
  return {
    span: mapTraces(traces, options, new PriceTable()).batch,
    log: mapLogs(logs, options).batch,
  };
}

describe("one occurrence, two sources", () => {
  it("gives a span's exception event and its log in the same span one key, the log's id kept", () => {
    const { span, log } = sources();
    const [event] = span.errors;
    const [record] = log.errors;
    if (!event || !record) throw new Error("both sources map to an occurrence");
    expect(event.fingerprint).toBe(record.fingerprint);
    expect(occurrenceKey(event)).toBeDefined();
    expect(occurrenceKey(event)).toBe(occurrenceKey(record));
    expect(event.logId).toBe("");
    expect(record.logId).toBe(log.logs[0]?.id);
    // The session sees one error from the two requests.
    expect(span.sessions[0]?.errorKeys).toEqual(log.sessions[0]?.errorKeys);
    const rows = summarizeSessions([...span.sessions, ...log.sessions], new UserAgentParser());
    expect(rows.map((r) => [r.error_count, r.error_keys])).toEqual([
      [1, [sessionErrorKey(record)]],
    ]);
  });

  it("keeps an occurrence without a span its own, and a different message another", () => {
    const base = { fingerprint: "f", traceId: TRACE, spanId: SPAN, message: "a", logId: "log_1" };
    expect(occurrenceKey({ ...base, spanId: "" })).toBeUndefined();
    expect(occurrenceKey({ ...base, traceId: "" })).toBeUndefined();
    expect(occurrenceKey(base)).not.toBe(occurrenceKey({ ...base, message: "b" }));
    expect(occurrenceKey(base)).not.toBe(occurrenceKey({ ...base, fingerprint: "g" }));
    expect(sessionErrorKey({ ...base, spanId: "" })).toBe("log:log_1");
    expect(sessionErrorKey(base)).not.toBe(sessionErrorKey({ ...base, message: "b" }));
  });

  it("shapes session keys as the sessions query reads them: a span's own key is its 49-character prefix", () => {
    const own = failedSpanKey(TRACE, SPAN);
    expect(own).toHaveLength(49);
    expect(own.endsWith(":")).toBe(true);
    const recorded = sessionErrorKey({
      fingerprint: "f",
      traceId: TRACE,
      spanId: SPAN,
      message: "a",
      logId: "",
    });
    expect(recorded.slice(0, 49)).toBe(own);
    expect(recorded.endsWith(":")).toBe(false);
  });
});
