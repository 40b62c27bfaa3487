/**
 * npm run bench:webhooks — webhook deliveries per second to a local HTTPS receiver, and the
 * latency from publishing an event to the arrival of its attempt 1.
 *
 * 1. The receiver: a node:https keep-alive server (test/fixtures/tls: receiver.pem, signed by
 *    the test CA) in a child process, so it has its own event loop and core. It answers 200
 *    "ok" as soon as a body has arrived, verifies every Standard Webhooks signature, and keeps,
 *    per request, its arrival time (performance.timeOrigin + performance.now(), comparable
 *    across processes on one machine), the event's sequence number (in its data), the
 *    endpoint (from the path) and the attempt number. The parent reads counts and arrivals
 *    over IPC only between and at the end of phases, so recording costs the parent nothing.
 * 2. In this process, as src/deps.ts builds them: a temporary data dir, the real SQLite
 *    metadata store (migrated), one org/project from initialize(), --endpoints (1) endpoints
 *    subscribed to monitor.down with sealed secrets (a random 32-byte server key), the
 *    webhook service from createWebhookService exactly as createDeps builds it (its guarded
 *    agent trusting the test CA with private targets allowed, the deliverer with the
 *    configured concurrency, 64 unless --concurrency, and the publisher). Each event carries a monitor.down
 *    payload (~0.8 kB body) and fans out to every endpoint.
 * 3. Baseline, same run, same receiver, before Vigil starts: a bare undici loop with the same
 *    concurrency POSTing the same bodies with the same headers, each signed (JSON + HMAC) as
 *    it is sent — no queue, no store, no lease, no recording: requests/s and CPU per request;
 *    and the same 1,000-item burst drained from memory, for a latency floor.
 * 4. Vigil, after a warm-up (connections open, code hot):
 *    - drain: --events (20,000) events enqueued with the deliverer stopped, then started: the
 *      queue's drain rate on its own, and the enqueue cost on its own;
 *    - throughput (the issue's figure): --events events published as fast as one producer can
 *      (chunks of --chunk, each publish awaited, the event loop yielded between chunks) while
 *      the deliverer runs; deliveries/s = attempt-1 arrivals / (last arrival - first publish);
 *    - burst (the issue's latency figure): --burst (1,000) publish() calls fired back to back in
 *      one synchronous loop (as ingest fires error.created for a batch), each one's latency
 *      measured from its own publish() call to its attempt 1's arrival: p50/p95/p99/max; then
 *      the same burst again after the receiver closed its idle keep-alive connections (as one
 *      with a short keep-alive would between bursts), so its connections are opened anew;
 *    - steady: --steady-rate (1,000) events/s offered for --steady-seconds (10), open loop
 *      (each publish fired at its scheduled time, not awaited), latency p50/p99.
 *    Each phase reports CPU time per delivery (enqueue, claim or hand-over, sign, POST and
 *    recording together), RSS, event-loop delay and utilization, metadata-store queries and their
 *    time per delivery, and the receiver's CPU; each waits until the store holds nothing
 *    pending before the next begins. At the end the store and receiver are checked: every
 *    delivery succeeded with one attempt, no signature failed, no duplicate arrived.
 *
 * src/deps.ts itself is not imported: importing it loads the chDB engine (~180 MB RSS), which
 * webhook delivery does not use; the few lines it runs for webhooks are repeated here.
 *
 * Target (issue 19, raised from the first issue's 1,000/s): >= 3,000 deliveries/s, and p99 <
 * 250 ms from event to attempt 1 with 1,000 events queued. The last line is one JSON object.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import SQLite from "better-sqlite3";
import { SingleBar } from "cli-progress";
import { Agent, request } from "undici";
import { loadConfig } from "../src/config/load-config.js";
import { createWebhookEventTypes } from "../src/composition/webhooks.js";
import type { DomainDeps } from "../src/context.js";
import type { DomainEvent } from "../src/events/event-bus.js";
import { systemClock } from "../src/lib/clock.js";
import { newId } from "../src/lib/ids.js";
import { createLogger } from "../src/lib/logger.js";
import { createMetrics } from "../src/lib/metrics.js";
import { createSecretBox } from "../src/lib/secret-box.js";
import { openMetaDatabase } from "../src/meta/database.js";
import { createMetaStore } from "../src/meta/meta-store.js";
import { initialize } from "../src/setup/initialize.js";
import { createStatusPageEngine } from "../src/status-pages/engine.js";
import { createWebhookService } from "../src/webhooks/webhook-service.js";
import { generateSecret, signatureHeaders, signingKey } from "../src/webhooks/signing.js";
import { WEBHOOK_USER_AGENT } from "../src/webhooks/transport.js";
import { defaultAuthDeps } from "../test/helpers/auth-deps.js";
import { printTable } from "./harness/table.js";

const { values: args } = parseArgs({
  options: {
    events: { type: "string", default: "20000" },
    concurrency: { type: "string" },
    endpoints: { type: "string", default: "1" },
    burst: { type: "string", default: "1000" },
    "steady-rate": { type: "string", default: "1000" },
    "steady-seconds": { type: "string", default: "10" },
    chunk: { type: "string", default: "100" },
    "skip-baseline": { type: "boolean", default: false },
  },
});
const EVENTS = Number(args.events);
const ENDPOINTS = Number(args.endpoints);
const BURST = Number(args.burst);
const STEADY_RATE = Number(args["steady-rate"]);
const STEADY_SECONDS = Number(args["steady-seconds"]);
const CHUNK = Number(args.chunk);
const SKIP_BASELINE = args["skip-baseline"] === true;
const TARGET_DELIVERIES_PER_SECOND = 3000;
const TARGET_BURST_P99_MS = 250;
const EVENT_TYPE = "monitor.down";
/** Sampling interval of the event-loop delay histograms. */
const DELAY_RESOLUTION_MS = 10;
/** How long a phase may wait for its last arrivals before it is reported incomplete. */
const ARRIVAL_TIMEOUT_MS = 180_000;

const TLS_DIR = new URL("../test/fixtures/tls/", import.meta.url);

const log = (text: string) => process.stderr.write(`${text}\n`);
const fmt = (n: number) => n.toLocaleString("en");
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const yieldToLoop = () => new Promise((resolve) => setImmediate(resolve));
/** Wall-clock milliseconds with sub-ms resolution; the receiver stamps arrivals the same way. */
const now = () => performance.timeOrigin + performance.now();

function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

interface Spread {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function spread(values: readonly number[]): Spread {
  const sorted = Float64Array.from(values).sort();
  return {
    p50: round(percentile(sorted, 50), 1),
    p95: round(percentile(sorted, 95), 1),
    p99: round(percentile(sorted, 99), 1),
    max: round(sorted.at(-1) ?? Number.NaN, 1),
  };
}

const cpuMicros = (since?: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return used.user + used.system;
};

/** The histogram holds whole timer intervals: the delay is what exceeds the sampling interval. */
function delayFigures(delay: ReturnType<typeof monitorEventLoopDelay>) {
  const ms = (ns: number) => round(Math.max(0, ns / 1e6 - DELAY_RESOLUTION_MS));
  return { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) };
}

/** A monitor.down payload of the usual size, tagged with the bench's sequence number. */
function eventData(seq: number) {
  return {
    monitorId: "mon_01kbench000000000000000000",
    incidentId: `inc_01kbench${String(seq).padStart(18, "0")}`,
    projectId: "prj_01kbench000000000000000000",
    monitor: {
      id: "mon_01kbench000000000000000000",
      name: "Checkout API",
      type: "api",
      url: "https://shop.example.com/api/health",
    },
    incident: {
      id: `inc_01kbench${String(seq).padStart(18, "0")}`,
      startedAt: "2026-11-21T09:30:00.000Z",
      endedAt: null,
      durationMs: null,
    },
    check: {
      resultId: "run_01kbench000000000000000000",
      startedAt: "2026-11-21T09:30:00.000Z",
      failedStep: "health",
      reason: "status_code equals 200: got 503",
      statusCode: 503,
    },
    bench: { seq },
  };
}

// ---------------------------------------------------------------------------------------------
// The receiver: an HTTPS keep-alive server in a child process; it exits when our IPC closes.

const RECEIVER_SCRIPT = `
const https = require("node:https");
const fs = require("node:fs");
const { createHmac, timingSafeEqual } = require("node:crypto");
let keys = [];
const seq = [], endpoint = [], attempt = [], at = [];
const firsts = new Set();
let badSignatures = 0, unparsed = 0, lastAt = 0, connections = 0;
let waiters = [];
const answer = (res) => {
  res.writeHead(200, { "content-type": "text/plain", "content-length": "2" });
  res.end("ok");
};
const server = https.createServer(
  { key: fs.readFileSync(process.env.RECEIVER_KEY), cert: fs.readFileSync(process.env.RECEIVER_CERT) },
  (req, res) => {
    const arrived = performance.timeOrigin + performance.now();
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      answer(res);
      const body = Buffer.concat(chunks).toString("utf8");
      const s = /"seq":(\\d+)/.exec(body);
      const a = /"attempt":(\\d+)\\}$/.exec(body);
      const ep = Number((req.url || "").slice("/hook/".length));
      if (!s || !a || !Number.isInteger(ep)) { unparsed++; return; }
      const key = keys[ep];
      if (key) {
        const h = req.headers;
        const expected = Buffer.from("v1," + createHmac("sha256", key)
          .update(h["webhook-id"] + "." + h["webhook-timestamp"] + "." + body).digest("base64"));
        const given = Buffer.from(String(h["webhook-signature"] || ""));
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) badSignatures++;
      }
      const n = Number(s[1]), k = Number(a[1]);
      seq.push(n); endpoint.push(ep); attempt.push(k); at.push(arrived);
      if (k === 1) {
        const id = n * 1024 + ep;
        if (!firsts.has(id)) {
          firsts.add(id);
          lastAt = arrived;
          if (waiters.length > 0) {
            const due = waiters.filter((w) => firsts.size >= w.count);
            waiters = waiters.filter((w) => firsts.size < w.count);
            for (const w of due) process.send({ id: w.id, lastAt, firsts: firsts.size });
          }
        }
      }
    });
  },
);
server.keepAliveTimeout = 30000;
server.headersTimeout = 31000;
server.on("secureConnection", () => connections++);
const stats = () => {
  const cpu = process.cpuUsage();
  return { requests: seq.length, firsts: firsts.size, cpuMicros: cpu.user + cpu.system,
    rss: process.memoryUsage().rss, badSignatures, unparsed, lastAt, connections };
};
process.on("message", (m) => {
  if (m.op === "keys") { keys = m.keys.map((k) => Buffer.from(k, "base64")); process.send({ id: m.id }); }
  else if (m.op === "stats") process.send({ id: m.id, ...stats() });
  else if (m.op === "waitFor") {
    if (firsts.size >= m.count) process.send({ id: m.id, lastAt, firsts: firsts.size });
    else waiters.push({ id: m.id, count: m.count });
  } else if (m.op === "closeIdle") {
    server.closeIdleConnections();
    process.send({ id: m.id });
  } else if (m.op === "collect") {
    const from = m.since;
    process.send({ id: m.id, seq: Float64Array.from(seq.slice(from)),
      endpoint: Float64Array.from(endpoint.slice(from)), attempt: Float64Array.from(attempt.slice(from)),
      at: Float64Array.from(at.slice(from)) });
  }
});
process.on("disconnect", () => process.exit(0));
server.listen(0, "127.0.0.1", () => process.send({ id: 0, port: server.address().port }));
`;

interface ReceiverStats {
  requests: number;
  /** Distinct (event, endpoint) pairs whose attempt 1 arrived. */
  firsts: number;
  cpuMicros: number;
  rss: number;
  badSignatures: number;
  unparsed: number;
  lastAt: number;
  /** TLS connections accepted so far. */
  connections: number;
}

interface Arrivals {
  seq: Float64Array;
  endpoint: Float64Array;
  attempt: Float64Array;
  at: Float64Array;
}

async function startReceiver() {
  const child = spawn(process.execPath, ["-e", RECEIVER_SCRIPT], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    serialization: "advanced",
    env: {
      ...process.env,
      RECEIVER_KEY: fileURLToPath(new URL("receiver.key", TLS_DIR)),
      RECEIVER_CERT: fileURLToPath(new URL("receiver.pem", TLS_DIR)),
    },
  });
  const pending = new Map<number, (reply: Record<string, unknown>) => void>();
  let nextId = 1;
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the receiver exited early (${code})`)));
    child.on("message", (message: Record<string, unknown>) => {
      if (message.id === 0) resolve(message.port as number);
      const waiter = pending.get(message.id as number);
      pending.delete(message.id as number);
      waiter?.(message);
    });
  });
  const call = <T>(op: string, fields: Record<string, unknown> = {}) =>
    new Promise<T>((resolve) => {
      const id = nextId++;
      pending.set(id, (reply) => resolve(reply as T));
      child.send({ id, op, ...fields });
    });
  return {
    origin: `https://localhost:${port}`,
    setKeys: (keys: Buffer[]) =>
      call<void>("keys", { keys: keys.map((key) => key.toString("base64")) }),
    stats: () => call<ReceiverStats>("stats"),
    /** Resolves when `count` distinct attempt 1s have arrived in all, with the last one's arrival. */
    async waitFor(count: number, timeoutMs = ARRIVAL_TIMEOUT_MS) {
      let timer: NodeJS.Timeout | undefined;
      const reached = call<{ lastAt: number; firsts: number }>("waitFor", { count });
      const timeout = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), timeoutMs);
      });
      const result = await Promise.race([reached, timeout]);
      clearTimeout(timer);
      return result;
    },
    collect: (since: number) => call<Arrivals>("collect", { since }),
    /** Closes the receiver's idle keep-alive connections. */
    closeIdle: () => call<void>("closeIdle"),
    stop() {
      child.disconnect();
      child.kill();
    },
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

// ---------------------------------------------------------------------------------------------
// Measuring one phase: CPU, event loop, RSS, store queries and the receiver's CPU.

interface QueryCounter {
  queries: number;
  seconds: number;
}

function startWindow(receiver: Receiver, queries: QueryCounter) {
  const delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
  const rss: number[] = [process.memoryUsage().rss];
  const rssTimer = setInterval(() => rss.push(process.memoryUsage().rss), 250);
  const receiverBefore = receiver.stats();
  const queriesBefore = { ...queries };
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const started = now();
  delay.enable();
  return async (work: number) => {
    delay.disable();
    const cpuUsed = cpuMicros(cpu);
    const ended = now();
    const utilization = performance.eventLoopUtilization(elu).utilization;
    clearInterval(rssTimer);
    rss.push(process.memoryUsage().rss);
    const [before, after] = [await receiverBefore, await receiver.stats()];
    const mib = (bytes: number) => round(bytes / 2 ** 20, 1);
    const seconds = (ended - started) / 1000;
    return {
      cpuMicrosPerItem: round(cpuUsed / Math.max(1, work), 1),
      cpuShareOfOneCore: round(cpuUsed / 1e6 / seconds, 3),
      eventLoopDelayMs: delayFigures(delay),
      eventLoopUtilization: round(utilization, 3),
      rssMiB: { start: mib(rss[0] ?? 0), end: mib(rss.at(-1) ?? 0), max: mib(Math.max(...rss)) },
      storeQueriesPerItem: round((queries.queries - queriesBefore.queries) / Math.max(1, work), 2),
      storeMicrosPerItem: round(
        ((queries.seconds - queriesBefore.seconds) * 1e6) / Math.max(1, work),
        1,
      ),
      receiver: {
        cpuMicrosPerRequest: round(
          (after.cpuMicros - before.cpuMicros) / Math.max(1, after.requests - before.requests),
          1,
        ),
        cpuShareOfOneCore: round((after.cpuMicros - before.cpuMicros) / 1e6 / seconds, 3),
        newConnections: after.connections - before.connections,
      },
    };
  };
}
type WindowFigures = Awaited<ReturnType<ReturnType<typeof startWindow>>>;

/** Polls the receiver while `done` is pending, showing distinct attempt-1 arrivals. */
function progressBar(receiver: Receiver, label: string, base: number, total: number) {
  const bar = new SingleBar({
    format: `${label} [{bar}] {percentage}% | {value}/{total} | {rate}/s`,
    stream: process.stderr,
    hideCursor: true,
  });
  const started = Date.now();
  bar.start(total, 0, { rate: 0 });
  let stopped = false;
  const tick = async () => {
    while (!stopped) {
      const { firsts } = await receiver.stats();
      const value = Math.min(total, firsts - base);
      bar.update(value, {
        rate: fmt(Math.round(value / Math.max(0.001, (Date.now() - started) / 1000))),
      });
      await sleep(250);
    }
  };
  const ticking = tick();
  return async () => {
    stopped = true;
    await ticking;
    bar.stop();
  };
}

/** First arrival of attempt 1 per (seq, endpoint) in `arrivals`, for seqs in [from, to). */
function firstArrivals(arrivals: Arrivals, from: number, to: number) {
  const first = new Map<number, number>();
  let duplicates = 0;
  let laterAttempts = 0;
  for (let i = 0; i < arrivals.seq.length; i++) {
    const seq = arrivals.seq[i] ?? -1;
    if (seq < from || seq >= to) continue;
    if (arrivals.attempt[i] !== 1) {
      laterAttempts++;
      continue;
    }
    const key = seq * 1024 + (arrivals.endpoint[i] ?? 0);
    if (first.has(key)) duplicates++;
    else first.set(key, arrivals.at[i] ?? Number.NaN);
  }
  return { first, duplicates, laterAttempts };
}

/** Latency of each delivery: its attempt 1's arrival minus its event's publish() call. */
function latencies(
  arrivals: Arrivals,
  from: number,
  calledAt: readonly number[],
): { ms: Spread; missing: number; duplicates: number; laterAttempts: number; firstAt: number } {
  const { first, duplicates, laterAttempts } = firstArrivals(
    arrivals,
    from,
    from + calledAt.length,
  );
  const values: number[] = [];
  let missing = 0;
  let firstAt = Number.POSITIVE_INFINITY;
  for (let i = 0; i < calledAt.length; i++)
    for (let ep = 0; ep < ENDPOINTS; ep++) {
      const at = first.get((from + i) * 1024 + ep);
      if (at === undefined) missing++;
      else {
        values.push(at - (calledAt[i] ?? Number.NaN));
        firstAt = Math.min(firstAt, at);
      }
    }
  return { ms: spread(values), missing, duplicates, laterAttempts, firstAt };
}

// ---------------------------------------------------------------------------------------------
// The baseline: the same signed POSTs from a bare undici loop with the same concurrency.

interface BareTarget {
  origin: string;
  keys: Buffer[];
  ca: string;
}

/** POSTs items (a seq and an endpoint each) from `concurrency` workers; counts failures. */
async function bareLoop(
  agent: Agent,
  target: BareTarget,
  items: readonly { seq: number; endpoint: number }[],
  concurrency: number,
) {
  let next = 0;
  let errors = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      if (!item) break;
      const body = JSON.stringify({ event: EVENT_TYPE, data: eventData(item.seq), attempt: 1 });
      const key = target.keys[item.endpoint] ?? Buffer.alloc(32);
      const signature = signatureHeaders(key, newId("msg"), new Date(), body);
      try {
        const res = await request(`${target.origin}/hook/${item.endpoint}`, {
          method: "POST",
          dispatcher: agent,
          headers: {
            "content-type": "application/json",
            "x-service-event": EVENT_TYPE,
            ...signature,
            "user-agent": WEBHOOK_USER_AGENT,
            // As postWebhook asks: the same request on the wire.
            "accept-encoding": "identity",
          },
          body,
        });
        await res.body.text();
        if (res.statusCode !== 200) errors++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { errors };
}

interface Sequence {
  next: number;
}

const itemsOf = (seq: Sequence, events: number) =>
  Array.from({ length: events * ENDPOINTS }, (_, i) => ({
    seq: seq.next + Math.floor(i / ENDPOINTS),
    endpoint: i % ENDPOINTS,
  }));

async function baseline(
  receiver: Receiver,
  target: BareTarget,
  concurrency: number,
  seq: Sequence,
  queries: QueryCounter,
) {
  const agent = new Agent({ keepAliveTimeout: 4000, connect: { ca: target.ca } });
  try {
    // Warm-up: connections open, code hot.
    const warm = itemsOf(seq, Math.min(2000, EVENTS));
    seq.next += warm.length / ENDPOINTS;
    await bareLoop(agent, target, warm, concurrency);

    // Throughput.
    const items = itemsOf(seq, EVENTS);
    const from = seq.next;
    seq.next += EVENTS;
    const { firsts: base, requests: sinceRequest } = await receiver.stats();
    const stopBar = progressBar(receiver, "Baseline       ", base, items.length);
    const measuring = startWindow(receiver, queries);
    const t0 = now();
    const { errors } = await bareLoop(agent, target, items, concurrency);
    const reached = await receiver.waitFor(base + items.length, 10_000);
    const figures = await measuring(items.length);
    await stopBar();
    const lastAt = reached?.lastAt ?? now();
    const seconds = (lastAt - t0) / 1000;
    const arrivals = await receiver.collect(sinceRequest);
    const { first } = firstArrivals(arrivals, from, from + EVENTS);

    // Burst: 1,000 queued in memory at once, drained with the same concurrency.
    const burstItems = itemsOf(seq, BURST);
    const burstFrom = seq.next;
    seq.next += BURST;
    const { firsts: burstBase, requests: before } = await receiver.stats();
    const b0 = now();
    const burstRun = await bareLoop(agent, target, burstItems, concurrency);
    await receiver.waitFor(burstBase + burstItems.length, 10_000);
    const burstArrivals = await receiver.collect(before);
    const burst = latencies(
      burstArrivals,
      burstFrom,
      Array.from({ length: BURST }, () => b0),
    );
    return {
      requests: items.length,
      arrived: first.size,
      errors,
      seconds: round(seconds, 2),
      requestsPerSecond: round(first.size / seconds, 1),
      ...figures,
      burst: {
        events: BURST,
        errors: burstRun.errors,
        missing: burst.missing,
        latencyMs: burst.ms,
      },
    };
  } finally {
    await agent.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The benchmark proper.

async function main() {
  if (!(EVENTS > 0 && ENDPOINTS > 0 && ENDPOINTS < 1024 && BURST > 0 && CHUNK > 0))
    throw new Error("--events, --burst and --chunk must be positive, --endpoints 1 to 1023");
  if (!(STEADY_RATE > 0 && STEADY_SECONDS > 0))
    throw new Error("--steady-rate and --steady-seconds must be positive");
  const dataDir = mkdtempSync(join(tmpdir(), "vigil-bench-webhooks-"));
  const cleanups: (() => Promise<void> | void)[] = [
    () => rmSync(dataDir, { recursive: true, force: true }),
  ];
  try {
    return await run(dataDir, cleanups);
  } finally {
    for (const step of cleanups.reverse()) {
      try {
        await step();
      } catch (error) {
        log(`cleanup: ${(error as Error).message}`);
      }
    }
  }
}

async function run(dataDir: string, cleanups: (() => Promise<void> | void)[]) {
  const receiver = await startReceiver();
  cleanups.push(() => receiver.stop());
  log(`Receiver: ${receiver.origin}/hook/<n> (HTTPS, child process)`);

  const caFile = fileURLToPath(new URL("ca.pem", TLS_DIR));
  const config = loadConfig({
    env: {
      VIGIL_DATA_DIR: dataDir,
      VIGIL_LOG_LEVEL: "warn",
      VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true",
      VIGIL_WEBHOOKS_CA_FILE: caFile,
      ...(args.concurrency ? { VIGIL_WEBHOOKS_CONCURRENCY: args.concurrency } : {}),
    },
  });
  const concurrency = config.webhooks.concurrency;
  const logger = createLogger("warn", process.stderr);
  const metrics = createMetrics();
  const queries: QueryCounter = { queries: 0, seconds: 0 };

  // As openMetaStore does (src/deps.ts), counting the store's queries and their time.
  const database = openMetaDatabase({
    url: config.meta.url,
    dataDir: config.dataDir,
    onQuery: (seconds, failed) => {
      queries.queries++;
      queries.seconds += seconds;
      metrics.observeStore({ store: "meta", operation: "query", failed }, seconds);
    },
  });
  const meta = createMetaStore(database);
  cleanups.push(() => meta.close());
  await meta.migrate();
  const domain: DomainDeps = {
    meta,
    clock: systemClock,
    newId,
    sessionTtlHours: config.auth.sessionTtlHours,
    ...defaultAuthDeps(),
    statusPages: createStatusPageEngine({ clock: systemClock }),
  };
  const setup = await initialize(domain, {
    email: "bench@example.com",
    password: "bench password 1",
    withApiKey: false,
  });

  // The webhook service exactly as createDeps builds it.
  const secretBox = createSecretBox(randomBytes(32));
  const ca = readFileSync(caFile, "utf8");
  const service = createWebhookService(
    { ...config.webhooks, concurrency },
    {
      meta,
      clock: domain.clock,
      newId: domain.newId,
      logger,
      metrics,
      secretBox,
      eventTypes: createWebhookEventTypes(),
      ca,
    },
  );
  cleanups.push(() => service.close());
  const { deliverer, publish } = service;
  cleanups.push(() => deliverer.stop());

  // The endpoints, stored as createEndpoint stores them (without the verification request).
  const secrets = Array.from({ length: ENDPOINTS }, () => generateSecret());
  const at = new Date().toISOString();
  for (const [i, secret] of secrets.entries())
    await meta.repos.webhookEndpoints.insert({
      id: newId("whe"),
      projectId: setup.projectId,
      url: `${receiver.origin}/hook/${i}`,
      events: [EVENT_TYPE],
      isActive: true,
      secret: secretBox.seal(secret),
      createdBy: null,
      createdAt: at,
      updatedAt: at,
    });
  const keys = secrets.map(signingKey);
  await receiver.setKeys(keys);
  log(
    `Vigil: ${ENDPOINTS} endpoint(s) subscribed to ${EVENT_TYPE}, concurrency ${concurrency}, ` +
      `${cpus().length} CPUs`,
  );

  const seq: Sequence = { next: 0 };
  const event = (n: number): DomainEvent => ({
    id: `evt_bench_${n}`,
    type: EVENT_TYPE,
    projectId: setup.projectId,
    data: eventData(n),
    occurredAt: new Date().toISOString(),
  });

  // What the store holds, read on a connection of its own (WAL: it does not block the writer).
  const metaPath = join(dataDir, "meta.sqlite");
  const reader = new SQLite(metaPath, { readonly: true });
  cleanups.push(() => {
    reader.close();
  });
  const pendingQuery = reader.prepare(
    `SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`,
  );
  const pendingCount = () => (pendingQuery.get() as { n: number }).n;
  /** Resolves when nothing is pending any more: every attempt is recorded; returns when. */
  const drained = async (timeoutMs = ARRIVAL_TIMEOUT_MS) => {
    const since = Date.now();
    while (pendingCount() > 0) {
      if (Date.now() - since > timeoutMs) return Number.NaN;
      await sleep(10);
    }
    return now();
  };

  // ---- baseline ----

  let bare: Awaited<ReturnType<typeof baseline>> | undefined;
  if (!SKIP_BASELINE) {
    log(`Baseline: bare undici loop, ${fmt(EVENTS * ENDPOINTS)} POSTs, concurrency ${concurrency}`);
    bare = await baseline(
      receiver,
      { origin: receiver.origin, keys, ca },
      concurrency,
      seq,
      queries,
    );
    log(`  ${bare.requestsPerSecond} requests/s, ${bare.cpuMicrosPerItem} µs CPU per request`);
  }

  /** Publishes events [from, from + count) in chunks, awaiting each, yielding between chunks. */
  const publishAll = async (from: number, count: number) => {
    for (let i = 0; i < count; i += CHUNK) {
      for (let j = i; j < Math.min(count, i + CHUNK); j++) await publish(event(from + j));
      await yieldToLoop();
    }
  };

  // ---- warm-up ----

  deliverer.start();
  const warm = Math.min(2000, EVENTS);
  const warmFrom = seq.next;
  seq.next += warm;
  log(`Warm-up: ${fmt(warm)} events`);
  let base = (await receiver.stats()).firsts;
  await publishAll(warmFrom, warm);
  await receiver.waitFor(base + warm * ENDPOINTS);
  await drained();

  // ---- drain: a full queue, the deliverer started on it ----

  await deliverer.stop();
  const drainFrom = seq.next;
  seq.next += EVENTS;
  log(`Drain: enqueue ${fmt(EVENTS)} events with the deliverer stopped, then start it`);
  const enqueueWindow = startWindow(receiver, queries);
  const e0 = now();
  await publishAll(drainFrom, EVENTS);
  const enqueueSeconds = (now() - e0) / 1000;
  const enqueueFigures = await enqueueWindow(EVENTS);
  base = (await receiver.stats()).firsts;
  let stopBar = progressBar(receiver, "Drain          ", base, EVENTS * ENDPOINTS);
  let measuring = startWindow(receiver, queries);
  const d0 = now();
  deliverer.start();
  let reached = await receiver.waitFor(base + EVENTS * ENDPOINTS);
  let recordedAt = await drained();
  const drainFigures = await measuring(EVENTS * ENDPOINTS);
  await stopBar();
  const drainArrivedSeconds = ((reached?.lastAt ?? Number.NaN) - d0) / 1000;
  const drain = {
    events: EVENTS,
    deliveries: EVENTS * ENDPOINTS,
    enqueue: {
      seconds: round(enqueueSeconds, 2),
      eventsPerSecond: round(EVENTS / enqueueSeconds, 1),
      cpuMicrosPerEvent: enqueueFigures.cpuMicrosPerItem,
      storeQueriesPerEvent: enqueueFigures.storeQueriesPerItem,
      storeMicrosPerEvent: enqueueFigures.storeMicrosPerItem,
    },
    complete: reached !== undefined,
    secondsToLastArrival: round(drainArrivedSeconds, 2),
    secondsToAllRecorded: round((recordedAt - d0) / 1000, 2),
    deliveriesPerSecond: round((EVENTS * ENDPOINTS) / drainArrivedSeconds, 1),
    ...drainFigures,
  };
  log(`  ${drain.deliveriesPerSecond} deliveries/s, ${drain.cpuMicrosPerItem} µs CPU per delivery`);

  // ---- throughput: publishing and delivering at once ----

  const tFrom = seq.next;
  seq.next += EVENTS;
  base = (await receiver.stats()).firsts;
  stopBar = progressBar(receiver, "Throughput     ", base, EVENTS * ENDPOINTS);
  measuring = startWindow(receiver, queries);
  const t0 = now();
  await publishAll(tFrom, EVENTS);
  const publishSeconds = (now() - t0) / 1000;
  reached = await receiver.waitFor(base + EVENTS * ENDPOINTS);
  recordedAt = await drained();
  const throughputFigures = await measuring(EVENTS * ENDPOINTS);
  await stopBar();
  let arrivals = await receiver.collect(0);
  const throughputFirsts = firstArrivals(arrivals, tFrom, tFrom + EVENTS);
  const throughputSeconds = ((reached?.lastAt ?? Number.NaN) - t0) / 1000;
  const throughput = {
    events: EVENTS,
    deliveries: EVENTS * ENDPOINTS,
    arrived: throughputFirsts.first.size,
    complete: reached !== undefined,
    publishSeconds: round(publishSeconds, 2),
    secondsToLastArrival: round(throughputSeconds, 2),
    secondsToAllRecorded: round((recordedAt - t0) / 1000, 2),
    deliveriesPerSecond: round(throughputFirsts.first.size / throughputSeconds, 1),
    ...throughputFigures,
  };
  log(
    `Throughput: ${throughput.deliveriesPerSecond} deliveries/s, ` +
      `${throughput.cpuMicrosPerItem} µs CPU per delivery`,
  );

  // ---- burst: 1,000 publish() calls back to back, on open connections, then on closed ones ----

  /** Fires --burst publish() calls in one synchronous loop; latency from each call to its arrival. */
  const runBurst = async () => {
    const from = seq.next;
    seq.next += BURST;
    const { firsts, requests } = await receiver.stats();
    const measure = startWindow(receiver, queries);
    const calledAt: number[] = [];
    const publishes: Promise<number>[] = [];
    for (let i = 0; i < BURST; i++) {
      calledAt.push(now());
      publishes.push(publish(event(from + i)));
    }
    const b0 = calledAt[0] ?? now();
    await Promise.all(publishes);
    const enqueuedMs = now() - b0;
    const done = await receiver.waitFor(firsts + BURST * ENDPOINTS);
    const allRecorded = await drained();
    const figures = await measure(BURST * ENDPOINTS);
    const got = latencies(await receiver.collect(requests), from, calledAt);
    return {
      events: BURST,
      deliveries: BURST * ENDPOINTS,
      complete: done !== undefined,
      enqueuedMs: round(enqueuedMs, 1),
      firstArrivalMs: round(got.firstAt - b0, 1),
      lastArrivalMs: round((done?.lastAt ?? Number.NaN) - b0, 1),
      allRecordedMs: round(allRecorded - b0, 1),
      missing: got.missing,
      latencyMs: got.ms,
      ...figures,
    };
  };
  await sleep(200);
  const burst = await runBurst();
  log(`Burst of ${fmt(BURST)}: latency p99 ${burst.latencyMs.p99} ms`);
  // The receiver closes its idle keep-alive connections, as one with a short keep-alive would
  // between bursts: the next burst opens its connections again (TCP, TLS, a secure context).
  await receiver.closeIdle();
  await sleep(500);
  const coldBurst = await runBurst();
  log(
    `Burst of ${fmt(BURST)} on closed connections: latency p99 ${coldBurst.latencyMs.p99} ms, ` +
      `${coldBurst.receiver.newConnections} new connections`,
  );

  // ---- steady: an open loop at --steady-rate events/s ----

  await sleep(200);
  const steadyEvents = Math.round(STEADY_RATE * STEADY_SECONDS);
  const sFrom = seq.next;
  seq.next += steadyEvents;
  base = (await receiver.stats()).firsts;
  const requestsBefore = (await receiver.stats()).requests;
  stopBar = progressBar(receiver, "Steady         ", base, steadyEvents * ENDPOINTS);
  measuring = startWindow(receiver, queries);
  const steadyCalledAt: number[] = [];
  const steadyPublishes: Promise<number>[] = [];
  let publishErrors = 0;
  const s0 = now() + 5;
  const interval = 1000 / STEADY_RATE;
  await new Promise<void>((resolve) => {
    let next = 0;
    const tick = () => {
      const t = now();
      while (next < steadyEvents && s0 + next * interval <= t) {
        steadyCalledAt.push(now());
        steadyPublishes.push(
          publish(event(sFrom + next)).catch(() => {
            publishErrors++;
            return 0;
          }),
        );
        next++;
      }
      if (next < steadyEvents) setTimeout(tick, Math.max(0, s0 + next * interval - now()));
      else resolve();
    };
    setTimeout(tick, 5);
  });
  const offeredSeconds = (now() - s0) / 1000;
  await Promise.all(steadyPublishes);
  reached = await receiver.waitFor(base + steadyEvents * ENDPOINTS);
  recordedAt = await drained();
  const steadyFigures = await measuring(steadyEvents * ENDPOINTS);
  await stopBar();
  arrivals = await receiver.collect(requestsBefore);
  const steadyLatency = latencies(arrivals, sFrom, steadyCalledAt);
  const steady = {
    rate: STEADY_RATE,
    seconds: STEADY_SECONDS,
    events: steadyEvents,
    deliveries: steadyEvents * ENDPOINTS,
    offeredRate: round(steadyEvents / offeredSeconds, 1),
    publishErrors,
    complete: reached !== undefined,
    missing: steadyLatency.missing,
    latencyMs: steadyLatency.ms,
    ...steadyFigures,
  };
  log(
    `Steady ${STEADY_RATE}/s: latency p50 ${steady.latencyMs.p50} ms, p99 ${steady.latencyMs.p99} ms`,
  );

  // ---- checks: the store and the receiver ----

  await deliverer.stop();
  const all = await receiver.collect(0);
  const vigilFrom = warmFrom;
  const checked = firstArrivals(all, vigilFrom, seq.next);
  const expected = (seq.next - vigilFrom) * ENDPOINTS;
  const received = await receiver.stats();
  const store = reader
    .prepare(
      `SELECT count(*) AS deliveries,
         sum(status = 'succeeded') AS succeeded,
         sum(status = 'pending') AS pending,
         sum(attempts > 1) AS retried
       FROM webhook_deliveries`,
    )
    .get() as { deliveries: number; succeeded: number; pending: number; retried: number };
  const attempts = (
    reader.prepare(`SELECT count(*) AS n FROM webhook_attempts`).get() as { n: number }
  ).n;
  const fileBytes = ["", "-wal", "-shm"]
    .map((suffix) => `${metaPath}${suffix}`)
    .filter((path) => existsSync(path))
    .reduce((sum, path) => sum + statSync(path).size, 0);
  const checks = {
    deliveriesExpected: expected,
    deliveriesStored: store.deliveries,
    succeeded: store.succeeded,
    pending: store.pending,
    retried: store.retried,
    attemptsStored: attempts,
    distinctArrivals: checked.first.size,
    duplicateArrivals: checked.duplicates,
    laterAttemptArrivals: checked.laterAttempts,
    badSignatures: received.badSignatures,
    unparsedRequests: received.unparsed,
    metaFileMiB: round(fileBytes / 2 ** 20, 1),
  };
  const checksPassed =
    store.deliveries === expected &&
    store.succeeded === expected &&
    attempts === expected &&
    checked.first.size === expected &&
    checked.duplicates === 0 &&
    checked.laterAttempts === 0 &&
    received.badSignatures === 0 &&
    received.unparsed === 0;

  const targetMet =
    throughput.complete &&
    burst.complete &&
    burst.missing === 0 &&
    throughput.deliveriesPerSecond >= TARGET_DELIVERIES_PER_SECOND &&
    burst.latencyMs.p99 < TARGET_BURST_P99_MS;

  return {
    bench: "webhooks",
    events: EVENTS,
    endpoints: ENDPOINTS,
    concurrency,
    chunk: CHUNK,
    transport: "https keep-alive, receiver in a child process",
    machine: { cpus: cpus().length, loadAverage1m: round(loadavg()[0] ?? 0) },
    vigil: { throughput, drain, burst, coldBurst, steady },
    baseline: bare ?? null,
    ratios: bare
      ? {
          throughputToBare: round(throughput.deliveriesPerSecond / bare.requestsPerSecond, 3),
          drainToBare: round(drain.deliveriesPerSecond / bare.requestsPerSecond, 3),
          cpuPerDeliveryToBareRequest: round(
            throughput.cpuMicrosPerItem / bare.cpuMicrosPerItem,
            2,
          ),
          drainCpuPerDeliveryToBareRequest: round(
            drain.cpuMicrosPerItem / bare.cpuMicrosPerItem,
            2,
          ),
          burstP99ToBare: round(burst.latencyMs.p99 / bare.burst.latencyMs.p99, 2),
        }
      : null,
    checks,
    checks_passed: checksPassed,
    target: {
      deliveriesPerSecond: TARGET_DELIVERIES_PER_SECOND,
      burstEvents: BURST,
      burstP99Ms: TARGET_BURST_P99_MS,
    },
    target_met: targetMet,
  };
}

function report(r: Awaited<ReturnType<typeof run>>) {
  const { throughput: t, drain: d, burst: b, coldBurst: c, steady: s } = r.vigil;
  const bare = r.baseline;
  const four = (x: Spread) => `${x.p50} / ${x.p95} / ${x.p99} / ${x.max}`;
  const trio = (x: { p50: number; p99: number; max: number }) => `${x.p50} / ${x.p99} / ${x.max}`;
  const ratio = (a: number, z: number | undefined) => (z ? `x${round(a / z, 2)}` : "");
  console.log(
    `\nWebhooks: ${fmt(r.events)} events x ${r.endpoints} endpoint(s), concurrency ${r.concurrency}, ` +
      `${r.transport}, ${r.machine.cpus} CPUs\n`,
  );
  const phase = (name: string, w: WindowFigures): string[][] => [
    [`${name}: CPU per delivery (µs)`, `${w.cpuMicrosPerItem}`],
    [`${name}: CPU, share of one core`, `${w.cpuShareOfOneCore}`],
    [
      `${name}: store queries / µs per delivery`,
      `${w.storeQueriesPerItem} / ${w.storeMicrosPerItem}`,
    ],
    [`${name}: event-loop delay p50 / p99 / max (ms)`, trio(w.eventLoopDelayMs)],
    [`${name}: event-loop utilization`, `${w.eventLoopUtilization}`],
    [
      `${name}: RSS start / end / max (MiB)`,
      `${w.rssMiB.start} / ${w.rssMiB.end} / ${w.rssMiB.max}`,
    ],
    [
      `${name}: receiver CPU per request (µs), share of a core`,
      `${w.receiver.cpuMicrosPerRequest}, ${w.receiver.cpuShareOfOneCore}`,
    ],
    [`${name}: new TLS connections at the receiver`, `${w.receiver.newConnections}`],
  ];
  printTable(
    ["figure", "Vigil (queue + store + deliverer)", "bare undici loop (baseline)", "ratio"],
    [
      [
        "throughput: deliveries or requests /s",
        `${t.deliveriesPerSecond}`,
        bare ? `${bare.requestsPerSecond}` : "skipped",
        ratio(t.deliveriesPerSecond, bare?.requestsPerSecond),
      ],
      [
        "drain of a full queue: deliveries /s",
        `${d.deliveriesPerSecond}`,
        bare ? `${bare.requestsPerSecond}` : "skipped",
        ratio(d.deliveriesPerSecond, bare?.requestsPerSecond),
      ],
      [
        "CPU per delivery / request (µs), throughput",
        `${t.cpuMicrosPerItem}`,
        bare ? `${bare.cpuMicrosPerItem}` : "skipped",
        ratio(t.cpuMicrosPerItem, bare?.cpuMicrosPerItem),
      ],
      [
        "CPU per delivery / request (µs), drain",
        `${d.cpuMicrosPerItem}`,
        bare ? `${bare.cpuMicrosPerItem}` : "skipped",
        ratio(d.cpuMicrosPerItem, bare?.cpuMicrosPerItem),
      ],
      [
        `burst of ${fmt(b.events)}: latency p50 / p95 / p99 / max (ms)`,
        four(b.latencyMs),
        bare ? four(bare.burst.latencyMs) : "skipped",
        ratio(b.latencyMs.p99, bare?.burst.latencyMs.p99),
      ],
      [`steady ${s.rate}/s: latency p50 / p95 / p99 / max (ms)`, four(s.latencyMs), "", ""],
      [
        "event-loop utilization, throughput",
        `${t.eventLoopUtilization}`,
        bare ? `${bare.eventLoopUtilization}` : "skipped",
        "",
      ],
      [
        "receiver CPU per request (µs)",
        `${t.receiver.cpuMicrosPerRequest}`,
        bare ? `${bare.receiver.cpuMicrosPerRequest}` : "skipped",
        "",
      ],
    ],
  );
  printTable(
    ["Vigil figure", "value"],
    [
      [
        "throughput: publish time / last arrival / all recorded (s)",
        `${t.publishSeconds} / ${t.secondsToLastArrival} / ${t.secondsToAllRecorded}`,
      ],
      ...phase("throughput", t),
      [
        "drain: enqueue events/s, CPU µs, store queries / µs per event",
        `${d.enqueue.eventsPerSecond}, ${d.enqueue.cpuMicrosPerEvent}, ` +
          `${d.enqueue.storeQueriesPerEvent} / ${d.enqueue.storeMicrosPerEvent}`,
      ],
      [
        "drain: last arrival / all recorded (s)",
        `${d.secondsToLastArrival} / ${d.secondsToAllRecorded}`,
      ],
      ...phase("drain", d),
      [
        "burst: all enqueued / first arrival / last arrival / all recorded (ms)",
        `${b.enqueuedMs} / ${b.firstArrivalMs} / ${b.lastArrivalMs} / ${b.allRecordedMs}`,
      ],
      ...phase("burst", b),
      [
        "cold burst: all enqueued / first arrival / last arrival / all recorded (ms)",
        `${c.enqueuedMs} / ${c.firstArrivalMs} / ${c.lastArrivalMs} / ${c.allRecordedMs}`,
      ],
      ...phase("cold burst", c),
      ["steady: offered events/s, publish errors", `${s.offeredRate}, ${s.publishErrors}`],
      ...phase("steady", s),
      [
        "store: deliveries / succeeded / attempts / retried",
        `${fmt(r.checks.deliveriesStored)} / ${fmt(r.checks.succeeded)} / ${fmt(r.checks.attemptsStored)} / ${r.checks.retried}`,
      ],
      [
        "receiver: distinct / duplicate / attempt>1 / bad signatures",
        `${fmt(r.checks.distinctArrivals)} / ${r.checks.duplicateArrivals} / ${r.checks.laterAttemptArrivals} / ${r.checks.badSignatures}`,
      ],
      ["meta.sqlite + WAL (MiB)", `${r.checks.metaFileMiB}`],
      ["checks", r.checks_passed ? "passed" : "FAILED"],
    ],
  );
  console.log(
    `Target: >= ${fmt(TARGET_DELIVERIES_PER_SECOND)} deliveries/s and burst-of-${fmt(BURST)} p99 < ${TARGET_BURST_P99_MS} ms: ` +
      `${r.target_met ? "met" : "NOT met"} (${t.deliveriesPerSecond} deliveries/s, p99 ${b.latencyMs.p99} ms)`,
  );
  console.log(JSON.stringify(r));
}

report(await main());
