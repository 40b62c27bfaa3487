import protobufjs from "protobufjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { encodeRequest } from "../src/ingest/otlp/codec.js";
import { initialize } from "../src/setup/initialize.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

/**
 * One tenant's hostile input against another's normal traffic on the real service: values the
 * engine would refuse are rejected or replaced before they are batched, so the victim's
 * requests, coalesced into the same engine writes, all succeed.
 */

const NOW_NS = BigInt(Math.floor(Date.now() / 1000) - 60) * 1_000_000_000n;
const OK = NOW_NS.toString();
const END = (NOW_NS + 5_000_000n).toString();
const Y2262 = "9223415999000000000"; // 2262-04-12T00:00:00Z
const INT64_MAX = "9223372036854775807";
const MAX_ATTRIBUTE_LENGTH = 8192;
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

type Json = Record<string, unknown>;
const str = (value: string) => ({ stringValue: value });

const span = (id: number, extra: Json = {}): Json => ({
  traceId: hex(id, 32),
  spanId: hex(id, 16),
  name: `span-${id}`,
  kind: 2,
  startTimeUnixNano: OK,
  endTimeUnixNano: END,
  attributes: [],
  ...extra,
});
const traces = (service: string, spans: Json[]): Json => ({
  resourceSpans: [
    {
      resource: { attributes: [{ key: "service.name", value: str(service) }] },
      scopeSpans: [{ scope: { name: "hostile" }, spans }],
    },
  ],
});
const logs = (records: Json[]): Json => ({
  resourceLogs: [
    {
      resource: { attributes: [{ key: "service.name", value: str("attacker") }] },
      scopeLogs: [{ logRecords: records }],
    },
  ],
});
const gauge = (points: Json[]): Json => ({
  resourceMetrics: [
    {
      resource: { attributes: [{ key: "service.name", value: str("attacker") }] },
      scopeMetrics: [{ metrics: [{ name: "hostile.gauge", gauge: { dataPoints: points } }] }],
    },
  ],
});

/** An AnyValue nesting `depth` kvlists around a string. */
function nested(depth: number): Json {
  let value: Json = str("leaf");
  for (let i = 0; i < depth; i++) value = { kvlistValue: { values: [{ key: "k", value }] } };
  return value;
}

/** The same request as protobuf: hex ids to bytes. */
function protobuf(signal: "traces" | "logs" | "metrics", body: Json): Uint8Array {
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

describe("hostile ingest input", () => {
  const dir = makeTempDir();
  let service: TestService;
  let victim: { projectId: string; key: string };
  let attacker: { projectId: string; key: string };

  beforeAll(async () => {
    // Victim and attacker send 80 requests at once, all from loopback: the per-address cap
    // would take two tenants' clients for one.
    service = await startTestService(dir.path, { VIGIL_HTTP_MAX_CONNECTIONS_PER_ADDRESS: "0" });
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "hostile@example.com",
        password: "correct horse battery",
      },
    });
    victim = { projectId: setup.projectId, key: setup.apiKey ?? "" };
    attacker = await addProjectWithKey(service, setup.orgId, "attacker");
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

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

  it("never fails the victim's requests, whatever the attacker sends alongside", async () => {
    const bigKey = "k".repeat(10 * 1024 * 1024);
    const attacks: (() => Promise<Response>)[] = [
      () => send(attacker.key, "traces", traces("a", [span(1, { startTimeUnixNano: Y2262 })])),
      () => send(attacker.key, "traces", traces("a", [span(2, { endTimeUnixNano: INT64_MAX })])),
      () =>
        send(
          attacker.key,
          "traces",
          protobuf("traces", traces("a", [span(3, { startTimeUnixNano: INT64_MAX })])),
        ),
      () =>
        send(
          attacker.key,
          "traces",
          traces("a", [span(4, { events: [{ name: "exception", timeUnixNano: Y2262 }] })]),
        ),
      () => send(attacker.key, "logs", logs([{ timeUnixNano: Y2262, body: str("x") }])),
      () =>
        send(
          attacker.key,
          "logs",
          protobuf("logs", logs([{ timeUnixNano: INT64_MAX, body: str("x") }])),
        ),
      () => send(attacker.key, "metrics", gauge([{ timeUnixNano: Y2262, asDouble: 1 }])),
      () =>
        send(
          attacker.key,
          "metrics",
          gauge([{ startTimeUnixNano: INT64_MAX, timeUnixNano: OK, asDouble: 1 }]),
        ),
      () => send(attacker.key, "traces", traces("a", [span(5, { name: "lone \ud800 surrogate" })])),
      () =>
        send(
          attacker.key,
          "traces",
          traces("a", [span(6, { attributes: [{ key: bigKey, value: str("v") }] })]),
        ),
      () => send(attacker.key, "traces", traces("a", [span(7, { name: bigKey })])),
      () => send(attacker.key, "traces", '{"resourceSpans":"x"}'),
      () =>
        send(
          attacker.key,
          "traces",
          traces("a", [span(8, { attributes: [{ key: "deep", value: nested(20) }] })]),
        ),
      // Values the engine's unsigned and small integer columns refuse.
      () =>
        send(
          attacker.key,
          "logs",
          logs([{ timeUnixNano: OK, severityNumber: -1, body: str("x") }]),
        ),
      () =>
        send(
          attacker.key,
          "traces",
          traces("a", [
            span(9, {
              attributes: [
                { key: "http.response.status_code", value: str("-5") },
                { key: "gen_ai.usage.input_tokens", value: str("-3") },
                { key: "gen_ai.usage.output_tokens", value: str("1e400") },
              ],
            }),
          ]),
        ),
    ];
    const VICTIM_REQUESTS = 40;
    const victimRequests = Array.from({ length: VICTIM_REQUESTS }, (_, i) => async () => {
      const response = await send(victim.key, "traces", traces("victim", [span(1000 + i)]));
      return { status: response.status, text: await response.text() };
    });
    // Interleaved and concurrent, so the engine writes coalesce both tenants' requests.
    const victimResults: Promise<{ status: number; text: string }>[] = [];
    const attackResults: Promise<Response>[] = [];
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < VICTIM_REQUESTS / 2; i++) {
        victimResults.push(
          (victimRequests[round * 20 + i] as () => Promise<{ status: number; text: string }>)(),
        );
        const attack = attacks[i % attacks.length];
        if (attack) attackResults.push(attack());
      }
    }
    const settledAttacks = await Promise.all(attackResults);
    const victims = await Promise.all(victimResults);
    expect(victims.map((v) => v.status)).toEqual(victims.map(() => 200));
    expect(victims.filter((v) => v.text.includes("rejected"))).toEqual([]);
    expect(settledAttacks.every((r) => r.status === 200 || r.status === 400)).toBe(true);

    const [stored] = await query<{ n: string }>(
      "SELECT count() AS n FROM vigil.traces WHERE project_id = {p:String}",
      { p: victim.projectId },
    );
    expect(Number(stored?.n)).toBe(VICTIM_REQUESTS);
  });

  it("rejects out-of-range times item by item, in partialSuccess, the rest accepted", async () => {
    for (const [bad, encode] of [
      [Y2262, false],
      [INT64_MAX, false],
      [INT64_MAX, true],
    ] as const) {
      const body = traces("times", [span(20), span(21, { startTimeUnixNano: bad })]);
      const response = await send(attacker.key, "traces", encode ? protobuf("traces", body) : body);
      expect(response.status).toBe(200);
      if (encode) continue; // the protobuf answer carries the same, checked in JSON below
      expect(await partial(response)).toEqual({
        rejectedSpans: "1",
        errorMessage: "1 rejected: start_time_unix_nano is outside 1970-01-01 … 2095-12-31 UTC",
      });
    }
    expect(
      await partial(
        await send(
          attacker.key,
          "traces",
          traces("times", [span(22, { events: [{ timeUnixNano: INT64_MAX }] })]),
        ),
      ),
    ).toMatchObject({
      rejectedSpans: "1",
      errorMessage: expect.stringContaining("event time_unix_nano"),
    });
    expect(
      await partial(
        await send(
          attacker.key,
          "logs",
          logs([
            { timeUnixNano: Y2262, body: str("late") },
            { timeUnixNano: OK, body: str("fine") },
          ]),
        ),
      ),
    ).toMatchObject({
      rejectedLogRecords: "1",
      errorMessage: expect.stringContaining("time_unix_nano"),
    });
    expect(
      await partial(
        await send(
          attacker.key,
          "metrics",
          gauge([
            { timeUnixNano: INT64_MAX, asDouble: 1 },
            { timeUnixNano: OK, asDouble: 2 },
          ]),
        ),
      ),
    ).toMatchObject({ rejectedDataPoints: "1" });
    // A log record whose observed time is out of range keeps its record, observed = receive time.
    expect(
      await partial(
        await send(
          attacker.key,
          "logs",
          logs([{ timeUnixNano: OK, observedTimeUnixNano: Y2262, body: str("obs") }]),
        ),
      ),
    ).toBeUndefined();
    const [times] = await query<{ spans: string; logs: string }>(
      `SELECT (SELECT count() FROM vigil.traces WHERE project_id = {p:String} AND service_name = 'times') AS spans,
              (SELECT count() FROM vigil.logs WHERE project_id = {p:String} AND message = 'obs' AND observed_timestamp > now() - INTERVAL 1 HOUR) AS logs`,
      { p: attacker.projectId },
    );
    expect({ spans: Number(times?.spans), logs: Number(times?.logs) }).toEqual({
      spans: 3,
      logs: 1,
    });
  });

  it("stores U+FFFD for invalid text, the same from JSON lone surrogates and protobuf invalid UTF-8", async () => {
    const body = (service: string, marker: string) =>
      traces(service, [
        span(30, {
          name: `bad${marker}name`,
          attributes: [{ key: `key${marker}`, value: str(`value${marker}`) }],
        }),
      ]);
    expect(
      await partial(await send(attacker.key, "traces", body("utf-json", "\ud800"))),
    ).toBeUndefined();
    // Protobuf strings are UTF-8 bytes: put a 0xFF byte where '~' was encoded.
    const bytes = Buffer.from(protobuf("traces", body("utf-pb", "~")));
    for (const text of ["bad~name", "key~", "value~"]) {
      const at = bytes.indexOf(text);
      expect(at).toBeGreaterThan(0);
      bytes[at + text.indexOf("~")] = 0xff;
    }
    expect(
      await partial(await send(attacker.key, "traces", new Uint8Array(bytes))),
    ).toBeUndefined();

    const rows = await query<{
      service_name: string;
      operation_name: string;
      attributes: Record<string, string>;
    }>(
      `SELECT service_name, operation_name, attributes FROM vigil.traces
       WHERE project_id = {p:String} AND service_name IN ('utf-json', 'utf-pb') ORDER BY service_name`,
      { p: attacker.projectId },
    );
    expect(rows).toEqual([
      {
        service_name: "utf-json",
        operation_name: "bad\ufffdname",
        attributes: { "key\ufffd": "value\ufffd" },
      },
      {
        service_name: "utf-pb",
        operation_name: "bad\ufffdname",
        attributes: { "key\ufffd": "value\ufffd" },
      },
    ]);
  });

  it("cuts a 10 MiB attribute key and span name to the attribute length limit", async () => {
    const big = "n".repeat(10 * 1024 * 1024);
    const response = await send(
      attacker.key,
      "traces",
      traces("big", [span(40, { name: big, attributes: [{ key: big, value: str("v") }] })]),
    );
    expect(await partial(response)).toBeUndefined();
    const [row] = await query<{ name: string; keys: string }>(
      `SELECT length(operation_name) AS name, toString(arrayMap(k -> length(k), mapKeys(attributes))) AS keys
       FROM vigil.traces WHERE project_id = {p:String} AND service_name = 'big'`,
      { p: attacker.projectId },
    );
    expect({ name: Number(row?.name), keys: row?.keys }).toEqual({
      name: MAX_ATTRIBUTE_LENGTH,
      keys: `[${MAX_ATTRIBUTE_LENGTH}]`,
    });
  });

  it.each([
    ['{"resourceSpans":"x"}', "resourceSpans"],
    ['{"resourceSpans":[3]}', "resourceSpans[0]"],
    ['{"resourceSpans":[{"scopeSpans":{}}]}', "resourceSpans[0].scopeSpans"],
    ['{"resourceSpans":[{"resource":7,"scopeSpans":[]}]}', "resourceSpans[0].resource"],
    ['{"resourceSpans":[{"scopeSpans":[{"spans":"y"}]}]}', "resourceSpans[0].scopeSpans[0].spans"],
    ['{"resourceSpans":[{"resource":{"attributes":"z"}}]}', "resourceSpans[0].resource"],
  ])("answers %s with 400 problem+json naming %s", async (body, field) => {
    const response = await send(attacker.key, "traces", body);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    const problem = (await response.json()) as { errors?: { field: string }[] };
    expect(problem.errors?.[0]?.field).toBe(field);
  });

  it("treats nesting the same in JSON and protobuf: 16 levels stored, deeper rejected, far deeper 400", async () => {
    const body = (depth: number) =>
      traces("deep", [span(500 + depth, { attributes: [{ key: "deep", value: nested(depth) }] })]);
    const both = async (depth: number) => {
      const json = await send(attacker.key, "traces", body(depth));
      const pb = await send(attacker.key, "traces", protobuf("traces", body(depth)));
      return { json, pb };
    };
    const ok = await both(16);
    expect(await partial(ok.json)).toBeUndefined();
    expect(ok.pb.status).toBe(200);
    expect((await ok.pb.arrayBuffer()).byteLength).toBe(0);

    // 31 map levels in a span attribute are 98 nested messages: decoded, the span rejected.
    for (const depth of [17, 31]) {
      const deeper = await both(depth);
      expect(await partial(deeper.json)).toEqual({
        rejectedSpans: "1",
        errorMessage: "1 rejected: an attribute value nests deeper than 16 levels",
      });
      expect(deeper.pb.status).toBe(200);
      expect(Buffer.from(await deeper.pb.arrayBuffer()).toString()).toContain(
        "an attribute value nests deeper than 16 levels",
      );
    }

    // 32 levels are 101 nested messages, past protobufjs's limit: the same 400 in both.
    for (const depth of [32, 200]) {
      const far = await both(depth);
      for (const response of [far.json, far.pb]) {
        expect(response.status).toBe(400);
        expect(((await response.json()) as { detail: string }).detail).toBe(
          "body: nests too deeply (attribute values may nest 16 levels)",
        );
      }
    }
    const [stored] = await query<{ n: string }>(
      "SELECT count() AS n FROM vigil.traces WHERE project_id = {p:String} AND service_name = 'deep'",
      { p: attacker.projectId },
    );
    expect(Number(stored?.n)).toBe(2);
  });
});
