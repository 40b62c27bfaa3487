import { formatDuration, HEARTBEAT_GRACE, parseDuration } from "../contracts/monitor-catalog.js";
import type { CheckResult, StepResult } from "./check-result.js";

// What a heartbeat records: a ping (success, failure, an exit code) or a missed deadline, each as
// one step with one `heartbeat` assertion, and the deadlines the watcher keeps (docs/heartbeats.md).

/** A heartbeat's period and grace in milliseconds, from its definition's duration strings. */
export interface HeartbeatTiming {
  periodMs: number;
  graceMs: number;
}

/** The period and grace of a stored heartbeat definition ({ period: "1h", grace: "5m" }). */
export function heartbeatTiming(definition: unknown): HeartbeatTiming {
  const { period, grace } = (definition ?? {}) as { period?: unknown; grace?: unknown };
  const seconds = (value: unknown, fallback: string) =>
    parseDuration(typeof value === "string" ? value : fallback) ?? parseDuration(fallback) ?? 0;
  return {
    periodMs: seconds(period, "1h") * 1000,
    graceMs: seconds(grace, HEARTBEAT_GRACE.default) * 1000,
  };
}

/** The one line naming a heartbeat: `heartbeat every 1h (+5m)`. */
export function heartbeatTarget(timing: HeartbeatTiming): string {
  return `heartbeat every ${formatDuration(timing.periodMs / 1000)} (+${formatDuration(timing.graceMs / 1000)})`;
}

/** When a missing ping is first recorded: a period and the grace after `fromMs`. */
export const firstDeadline = (fromMs: number, timing: HeartbeatTiming): string =>
  new Date(fromMs + timing.periodMs + timing.graceMs).toISOString();

/**
 * The deadline after a missed one was recorded at `nowMs`: one period further, and as many more
 * as it takes to be ahead of now (after downtime the watcher records one miss, not a backlog).
 */
export function nextMissedDeadline(seenMs: number, periodMs: number, nowMs: number): string {
  const periods = Math.max(1, Math.floor((nowMs - seenMs) / periodMs) + 1);
  return new Date(seenMs + periods * periodMs).toISOString();
}

/** How a ping reported the job: a success, a failure, an exit code; `start` records no check. */
export type PingSignal =
  | { kind: "success" }
  | { kind: "fail" }
  | { kind: "start" }
  | { kind: "exit"; code: number };

/** Bytes of a ping's body kept as its result's responseBody. */
export const MAX_PING_BODY_BYTES = 10 * 1024;

const describeSignal = (signal: Exclude<PingSignal, { kind: "start" }>): string =>
  signal.kind === "exit" ? `exit code ${signal.code}` : signal.kind;

const pingPassed = (signal: Exclude<PingSignal, { kind: "start" }>): boolean =>
  signal.kind === "success" || (signal.kind === "exit" && signal.code === 0);

function heartbeatStep(
  target: string,
  outcome: {
    passed: boolean;
    durationMs: number | null;
    expected: string;
    actual: string | null;
    message: string;
    body: string | null;
    bodyTruncated: boolean;
  },
): StepResult {
  return {
    name: "Heartbeat",
    status: outcome.passed ? "passed" : "failed",
    method: "PING",
    url: target,
    statusCode: null,
    durationMs: outcome.durationMs,
    transportError: null,
    assertions: [
      {
        type: "heartbeat",
        operator: "equals",
        expected: outcome.expected,
        actual: outcome.actual,
        passed: outcome.passed,
        message: outcome.message,
      },
    ],
    extracted: {},
    responseBody: outcome.body,
    responseBodyTruncated: outcome.bodyTruncated,
  };
}

/**
 * A success or failure ping as a check: its duration runs from the last /start when there is one
 * (the check then starts there), and a body sent with it is kept (cut at MAX_PING_BODY_BYTES).
 */
export function pingResult(ping: {
  signal: Exclude<PingSignal, { kind: "start" }>;
  target: string;
  nowMs: number;
  startedAt: string | null;
  body: string | null;
  bodyTruncated: boolean;
  traceId: string;
}): CheckResult {
  const passed = pingPassed(ping.signal);
  const startMs = ping.startedAt === null ? ping.nowMs : Date.parse(ping.startedAt);
  const durationMs = Math.max(0, ping.nowMs - startMs);
  const what = describeSignal(ping.signal);
  const message = passed
    ? `the job reported success${ping.startedAt === null ? "" : ` after ${durationMs} ms`}`
    : `the job reported ${what === "fail" ? "a failure" : what}`;
  return {
    passed,
    startedAt: new Date(Math.min(startMs, ping.nowMs)).toISOString(),
    durationMs,
    traceId: ping.traceId,
    steps: [
      heartbeatStep(ping.target, {
        passed,
        durationMs,
        expected: "success",
        actual: what,
        message,
        body: ping.body,
        bodyTruncated: ping.bodyTruncated,
      }),
    ],
  };
}

/** A deadline passed without a ping: a failed check saying since when nothing came. */
export function missedResult(missed: {
  target: string;
  nowMs: number;
  deadline: string;
  lastPingAt: string | null;
  createdAt: string;
  traceId: string;
}): CheckResult {
  const message = missed.lastPingAt
    ? `no ping since ${missed.lastPingAt} (expected by ${missed.deadline})`
    : `no ping yet (created ${missed.createdAt}; expected by ${missed.deadline})`;
  return {
    passed: false,
    startedAt: new Date(missed.nowMs).toISOString(),
    durationMs: 0,
    traceId: missed.traceId,
    steps: [
      heartbeatStep(missed.target, {
        passed: false,
        durationMs: null,
        expected: `a ping by ${missed.deadline}`,
        actual: null,
        message,
        body: null,
        bodyTruncated: false,
      }),
    ],
  };
}
