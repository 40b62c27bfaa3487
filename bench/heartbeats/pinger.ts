import { Agent, request } from "node:http";
import { round, spread } from "../harness/stats.js";

// The jobs' side: HTTP pings over keep-alive connections from this process (the server is
// another one), with each answer's status and time.

export interface Pinger {
  /** GET `/ping/<token>`: resolves with the status (0 for a network error) and the time taken. */
  ping(token: string): Promise<{ status: number; ms: number }>;
  close(): void;
}

export function createPinger(url: string, maxSockets = 64): Pinger {
  const { hostname, port } = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets });
  return {
    ping: (token) =>
      new Promise((resolve) => {
        const started = performance.now();
        const done = (status: number) => resolve({ status, ms: performance.now() - started });
        const req = request({ agent, host: hostname, port, path: `/ping/${token}` }, (res) => {
          res.resume();
          res.on("end", () => done(res.statusCode ?? 0));
          res.on("error", () => done(0));
        });
        req.on("error", () => done(0));
        req.end();
      }),
    close: () => agent.destroy(),
  };
}

const count = (statuses: Record<string, number>, status: number) => {
  statuses[status] = (statuses[status] ?? 0) + 1;
};

/** The tokens pinged in turn, `connections` at a time, as fast as the server answers, for `seconds`. */
export async function burst(
  pinger: Pinger,
  tokens: readonly string[],
  connections: number,
  seconds: number,
) {
  const statuses: Record<string, number> = {};
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const token = tokens[next++ % tokens.length] ?? "";
        const { status, ms } = await pinger.ping(token);
        count(statuses, status);
        times.push(ms);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return {
    pings: times.length,
    seconds: round(elapsed, 1),
    pingsPerSecond: round(times.length / elapsed, 1),
    latencyMs: spread(times),
    statuses,
  };
}

/**
 * Each token pinged at its own offset of the period (token i at i/N of it), every period, from
 * now for `ms`; the tokens of `stopped` are no longer pinged from `stopAtMs` (epoch ms) on. The
 * latency of a ping runs from its scheduled time (no coordinated omission). Resolves with the
 * figures and, per stopped token, the epoch ms of its last ping's answer.
 */
export function pingOnSchedule(
  pinger: Pinger,
  plan: {
    tokens: readonly string[];
    periodMs: number;
    ms: number;
    stopped: ReadonlySet<number>;
    stopAtMs: number;
  },
) {
  const { tokens, periodMs } = plan;
  const interval = periodMs / tokens.length;
  const total = Math.floor(plan.ms / interval);
  const start = performance.now() + 5;
  const epochStart = Date.now() + 5;
  const statuses: Record<string, number> = {};
  const late: number[] = [];
  const lastAnswer = new Map<number, number>();
  let sent = 0;
  let next = 0;
  let pending = 0;
  return new Promise<{
    pings: number;
    pingsPerSecond: number;
    latencyMs: ReturnType<typeof spread>;
    statuses: Record<string, number>;
    lastAnswer: Map<number, number>;
  }>((resolve) => {
    const finish = () =>
      resolve({
        pings: sent,
        pingsPerSecond: round(sent / (plan.ms / 1000), 1),
        latencyMs: spread(late),
        statuses,
        lastAnswer,
      });
    const fire = (k: number) => {
      const i = k % tokens.length;
      const scheduledEpoch = epochStart + k * interval;
      if (plan.stopped.has(i) && scheduledEpoch >= plan.stopAtMs) return;
      const scheduled = start + k * interval;
      sent++;
      pending++;
      void pinger.ping(tokens[i] ?? "").then(({ status }) => {
        count(statuses, status);
        late.push(performance.now() - scheduled);
        if (plan.stopped.has(i) && status === 200) lastAnswer.set(i, Date.now());
        if (--pending === 0 && next >= total) finish();
      });
    };
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) fire(next++);
      if (next < total) setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
      else if (pending === 0) finish();
    };
    setTimeout(tick, 5);
  });
}
