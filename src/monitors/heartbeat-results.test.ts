import { describe, expect, it } from "vitest";
import { createSecretBox } from "../lib/secret-box.js";
import {
  firstDeadline,
  heartbeatTarget,
  heartbeatTiming,
  missedResult,
  nextMissedDeadline,
  pingResult,
} from "./heartbeat-results.js";
import {
  hashPingToken,
  mintPingToken,
  openPingToken,
  PING_TOKEN,
  pingTokenMatches,
} from "./heartbeat-tokens.js";

const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

describe("heartbeat timing", () => {
  it("reads period and grace from the definition and names the target", () => {
    const timing = heartbeatTiming({ type: "heartbeat", period: "1h", grace: "5m" });
    expect(timing).toEqual({ periodMs: 3_600_000, graceMs: 300_000 });
    expect(heartbeatTarget(timing)).toBe("heartbeat every 1h (+5m)");
    expect(heartbeatTiming({ period: "90s", grace: "0s" })).toEqual({
      periodMs: 90_000,
      graceMs: 0,
    });
  });

  it("waits a period and the grace, then one period per miss, never a backlog", () => {
    const timing = { periodMs: 60_000, graceMs: 10_000 };
    expect(firstDeadline(t0, timing)).toBe(iso(t0 + 70_000));
    // Recorded on time: the next one period later.
    expect(nextMissedDeadline(t0, 60_000, t0 + 500)).toBe(iso(t0 + 60_000));
    // Recorded after a long stop: one miss, the next deadline ahead of now on the same grid.
    expect(nextMissedDeadline(t0, 60_000, t0 + 1000 * 60_000 + 5)).toBe(iso(t0 + 1001 * 60_000));
  });
});

describe("heartbeat results", () => {
  const target = "heartbeat every 1m (+0s)";
  it("a success ping after /start lasts from the start and passes", () => {
    const result = pingResult({
      signal: { kind: "success" },
      target,
      nowMs: t0 + 4200,
      startedAt: iso(t0),
      body: null,
      bodyTruncated: false,
      traceId: "t",
    });
    expect(result).toMatchObject({ passed: true, startedAt: iso(t0), durationMs: 4200 });
    expect(result.steps[0]).toMatchObject({
      method: "PING",
      url: target,
      status: "passed",
      statusCode: null,
      assertions: [{ type: "heartbeat", passed: true, actual: "success" }],
    });
  });

  it("a failure or a non-zero exit code fails and keeps the body; exit 0 passes", () => {
    const fail = pingResult({
      signal: { kind: "fail" },
      target,
      nowMs: t0,
      startedAt: null,
      body: "disk full",
      bodyTruncated: false,
      traceId: "t",
    });
    expect(fail).toMatchObject({ passed: false, durationMs: 0, startedAt: iso(t0) });
    expect(fail.steps[0]).toMatchObject({ status: "failed", responseBody: "disk full" });
    const exit3 = pingResult({
      signal: { kind: "exit", code: 3 },
      target,
      nowMs: t0,
      startedAt: null,
      body: null,
      bodyTruncated: false,
      traceId: "t",
    });
    expect(exit3.passed).toBe(false);
    expect(exit3.steps[0]?.assertions[0]?.actual).toBe("exit code 3");
    const exit0 = pingResult({
      ...{ target, nowMs: t0, startedAt: null, body: null },
      signal: { kind: "exit", code: 0 },
      bodyTruncated: false,
      traceId: "t",
    });
    expect(exit0.passed).toBe(true);
  });

  it("a missed deadline fails saying since when nothing came", () => {
    const missed = missedResult({
      target,
      nowMs: t0 + 61_000,
      deadline: iso(t0 + 60_000),
      lastPingAt: iso(t0),
      createdAt: iso(t0 - 5000),
      traceId: "t",
    });
    expect(missed).toMatchObject({ passed: false, startedAt: iso(t0 + 61_000) });
    expect(missed.steps[0]?.assertions[0]?.message).toContain(`no ping since ${iso(t0)}`);
  });
});

describe("ping tokens", () => {
  it("are 32 random bytes, found by digest, sealed to show again", () => {
    const box = createSecretBox(Buffer.alloc(32, 7));
    const minted = mintPingToken(box);
    expect(minted.token).toMatch(PING_TOKEN);
    expect(minted.tokenHash).toBe(hashPingToken(minted.token));
    expect(minted.tokenSealed).not.toContain(minted.token);
    expect(openPingToken(box, minted.tokenSealed)).toBe(minted.token);
    expect(openPingToken(createSecretBox(Buffer.alloc(32, 8)), minted.tokenSealed)).toBeUndefined();
    expect(pingTokenMatches(minted.token, minted.tokenHash)).toBe(true);
    expect(pingTokenMatches(mintPingToken(box).token, minted.tokenHash)).toBe(false);
  });
});
