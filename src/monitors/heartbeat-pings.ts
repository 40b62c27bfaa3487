import { randomBytes } from "node:crypto";
import type { Clock } from "../lib/clock.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { LockedMonitor } from "../meta/repositories/monitors.js";
import type { RecordedCheck } from "./check-recording.js";
import type { CheckResult } from "./check-result.js";
import {
  firstDeadline,
  heartbeatTarget,
  heartbeatTiming,
  type PingSignal,
  pingResult,
} from "./heartbeat-results.js";
import { hashPingToken, PING_TOKEN } from "./heartbeat-tokens.js";

/**
 * Records a check a heartbeat made outside the runner (a ping, a missed deadline) through the
 * engine's recording: the state machine, incidents, notifications, status pages and metrics.
 * `guard` runs in the record's transaction after the monitor's row lock, with the monitor as it
 * is then; false records nothing (resolves undefined).
 */
export type RecordHeartbeatCheck = (check: {
  monitorId: string;
  trigger: "ping" | "missed";
  result: CheckResult;
  guard: (tx: MetaAccess, monitor: LockedMonitor) => Promise<boolean>;
}) => Promise<RecordedCheck | undefined>;

/** What receiving a ping needs. */
export interface PingDeps {
  meta: MetaAccess;
  clock: Clock;
  record: RecordHeartbeatCheck;
}

/**
 * What became of a ping: `unknown` (no such token: the route answers the same 404 as for any
 * unknown path), `ignored` (the monitor is paused), `started` (a /start) or `recorded`.
 */
export type PingOutcome = "unknown" | "ignored" | "started" | "recorded";

/** A ping as the route read it; the token is the URL's secret, never logged. */
export interface Ping {
  token: string;
  signal: PingSignal;
  /** The request's body for a failure or exit-code ping, cut to MAX_PING_BODY_BYTES. */
  body: string | null;
  bodyTruncated: boolean;
}

const newTraceId = () => randomBytes(16).toString("hex");

/**
 * Receives a heartbeat's ping (docs/heartbeats.md): the token's digest finds the monitor; a
 * /start notes when the job began; a success, failure or exit code records a check (trigger
 * `ping`) and moves the deadline to a period and the grace from now. A paused monitor ignores
 * pings. Unknown tokens and paused monitors leave no trace.
 */
export async function receivePing(deps: PingDeps, ping: Ping): Promise<PingOutcome> {
  if (!PING_TOKEN.test(ping.token)) return "unknown";
  const heartbeat = await deps.meta.repos.heartbeats.findByTokenHash(hashPingToken(ping.token));
  if (!heartbeat) return "unknown";
  if (heartbeat.status !== "active") return "ignored";
  const { monitorId } = heartbeat;
  const nowMs = deps.clock.now().getTime();
  const { signal } = ping;
  if (signal.kind === "start") {
    await deps.meta.repos.heartbeats.recordStart(monitorId, new Date(nowMs).toISOString());
    return "started";
  }
  const result = pingResult({
    signal,
    target: heartbeatTarget(heartbeatTiming(heartbeat.definition)),
    nowMs,
    startedAt: heartbeat.startedAt,
    body: ping.body,
    bodyTruncated: ping.bodyTruncated,
    traceId: newTraceId(),
  });
  const recorded = await deps.record({
    monitorId,
    trigger: "ping",
    result,
    guard: async (tx, current) => {
      // Paused while the ping was on its way: ignored like any ping to a paused monitor.
      if (current.status !== "active") return false;
      const timing = heartbeatTiming(current.definition);
      await tx.repos.heartbeats.recordPing(
        monitorId,
        new Date(nowMs).toISOString(),
        firstDeadline(nowMs, timing),
      );
      return true;
    },
  });
  return recorded ? "recorded" : "ignored";
}
