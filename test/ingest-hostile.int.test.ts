import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  gauge,
  INT64_MAX,
  type Json,
  logs,
  nested,
  OK,
  protobuf,
  span,
  startHostileService,
  str,
  traces,
  Y2262,
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
  let victim: { projectId: string; key: string };
  let attacker: { projectId: string; key: string };
  beforeAll(async () => {
    h = await startHostileService(dir.path);
    ({ service, victim, attacker } = h);
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });
  const send: typeof h.send = (...args) => h.send(...args);
  const query = <T>(sql: string, params: Json) => h.query<T>(sql, params);
  const partial = (response: Response) => h.partial(response);

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
});
