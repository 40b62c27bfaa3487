// Requests for the hostile-ingest tests (OTLP/JSON builders and their protobuf form) and the
// service they run against: a victim and an attacker project on one real service.
import protobufjs from "protobufjs";
import { expect } from "vitest";
import { systemCtx } from "../../src/context.js";
import { encodeRequest } from "../../src/ingest/otlp/codec.js";
import { initialize } from "../../src/setup/initialize.js";
import { addProjectWithKey } from "./projects.js";
import type { TestService } from "./test-service.js";
import { startTestService } from "./test-service.js";

export const NOW_NS = BigInt(Math.floor(Date.now() / 1000) - 60) * 1_000_000_000n;
export const OK = NOW_NS.toString();
export const END = (NOW_NS + 5_000_000n).toString();
export const Y2262 = "9223415999000000000"; // 2262-04-12T00:00:00Z
export const INT64_MAX = "9223372036854775807";
export const MAX_ATTRIBUTE_LENGTH = 8192;
export const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

export type Json = Record<string, unknown>;
export const str = (value: string) => ({ stringValue: value });

export const span = (id: number, extra: Json = {}): Json => ({
  traceId: hex(id, 32),
  spanId: hex(id, 16),
  name: `span-${id}`,
  kind: 2,
  startTimeUnixNano: OK,
  endTimeUnixNano: END,
  attributes: [],
  ...extra,
});
export const traces = (service: string, spans: Json[]): Json => ({
  resourceSpans: [
    {
      resource: { attributes: [{ key: "service.name", value: str(service) }] },
      scopeSpans: [{ scope: { name: "hostile" }, spans }],
    },
  ],
});
export const logs = (records: Json[]): Json => ({
  resourceLogs: [
    {
      resource: { attributes: [{ key: "service.name", value: str("attacker") }] },
      scopeLogs: [{ logRecords: records }],
    },
  ],
});
export const gauge = (points: Json[]): Json => ({
  resourceMetrics: [
    {
      resource: { attributes: [{ key: "service.name", value: str("attacker") }] },
      scopeMetrics: [{ metrics: [{ name: "hostile.gauge", gauge: { dataPoints: points } }] }],
    },
  ],
});

/** An AnyValue nesting `depth` kvlists around a string. */
export function nested(depth: number): Json {
  let value: Json = str("leaf");
  for (let i = 0; i < depth; i++) value = { kvlistValue: { values: [{ key: "k", value }] } };
  return value;
}

/** The same request as protobuf: hex ids to bytes. */
export function protobuf(signal: "traces" | "logs" | "metrics", body: Json): Uint8Array {
  const bytes = JSON.parse(JSON.stringify(body), (key, value: unknown) =>
    (key === "traceId" || key === "spanId") && typeof value === "string"
      ? Buffer.from(value, "hex")
      : value,
  ) as Json;
  // protobufjs refuses to encode past its recursion limit too; lifted only to build the far-too-deep case.
  const limit = protobufjs.util.recursionLimit;
  protobufjs.util.recursionLimit = 10_000;
  try {
    return encodeRequest(signal, bytes);
  } finally {
    protobufjs.util.recursionLimit = limit;
  }
}

/** A service with a victim and an attacker project, and how the tests send and read. */
export async function startHostileService(dataDir: string) {
  // Victim and attacker send 80 requests at once, all from loopback: the per-address cap
  // would take two tenants' clients for one.
  const service: TestService = await startTestService(dataDir, {
    VIGIL_HTTP_MAX_CONNECTIONS_PER_ADDRESS: "0",
  });
  const setup = await initialize({
    ctx: systemCtx(service.deps.domain),
    input: { email: "hostile@example.com", password: "correct horse battery" },
  });
  const victim = { projectId: setup.projectId, key: setup.apiKey ?? "" };
  const attacker = await addProjectWithKey(service, setup.orgId, "attacker");
  const send = (
    key: string,
    signal: "traces" | "logs" | "metrics",
    body: Json | Uint8Array | string,
  ) =>
    service.fetch(`/v1/${signal}`, {
      method: "POST",
      headers: {
        "x-api-key": key,
        "content-type": body instanceof Uint8Array ? "application/x-protobuf" : "application/json",
      },
      body: body instanceof Uint8Array || typeof body === "string" ? body : JSON.stringify(body),
    });
  const query = <T>(sql: string, params: Json) => service.deps.telemetry.query<T>(sql, { params });
  /** The JSON answer's partialSuccess (protobuf answers are decoded the same way by field). */
  const partial = async (response: Response) => {
    const text = await response.text();
    expect(`${response.status} ${text}`.slice(0, 400)).toMatch(/^200 /);
    return text ? (JSON.parse(text) as { partialSuccess?: Json }).partialSuccess : undefined;
  };
  return { service, victim, attacker, send, query, partial };
}
