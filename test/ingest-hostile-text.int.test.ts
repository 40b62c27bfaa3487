// Hostile text and nesting: invalid UTF-8, oversized keys and names, deep values (the rest:
// ingest-hostile.int.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Json,
  MAX_ATTRIBUTE_LENGTH,
  nested,
  protobuf,
  span,
  startHostileService,
  str,
  traces,
} from "./helpers/hostile-otlp.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

/**
 * One tenant's hostile input against another's normal traffic on the real service: values the
 * engine would refuse are rejected or replaced before they are batched, so the victim's
 * requests, coalesced into the same engine writes, all succeed.
 */
describe("hostile ingest input", () => {
  const dir = makeTempDir();
  let h: Awaited<ReturnType<typeof startHostileService>>;
  let service: TestService;
  let attacker: { projectId: string; key: string };
  beforeAll(async () => {
    h = await startHostileService(dir.path);
    ({ service, attacker } = h);
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });
  const send: typeof h.send = (...args) => h.send(...args);
  const query = <T>(sql: string, params: Json) => h.query<T>(sql, params);
  const partial = (response: Response) => h.partial(response);

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
