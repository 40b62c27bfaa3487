/**
 * npm run bench:ingest-cadence — what the batch writer's write interval (ADR 0017) trades: the
 * server's CPU per span against acknowledgment latency, and the rate one sequential sender gets.
 *
 * For each write interval (BENCH_INTERVALS, ms: 0,250,1000), `vigil serve` is started as its own
 * process on a fresh data dir with VIGIL_INGEST_WRITE_INTERVAL_MS set, then:
 * - open loop: for each rate (BENCH_RATES, spans/s: 2000,10000), 100-span OTLP/HTTP protobuf
 *   exports of the demo dataset sent at their scheduled times (many requests at once, as from
 *   many processes or a Collector), 5 s of warm-up then BENCH_SECONDS (20): server CPU per span,
 *   all threads and the event loop alone (/proc), and acknowledgment latency p50/p99 from each
 *   export's scheduled time;
 * - one sender: 512-span exports (an SDK batch span processor's default) under one process's
 *   resource, sent one after the other, each when the last was answered, for 10 s: spans/s and
 *   latency p50.
 * Baseline: the interval 0 rows (a write as soon as the engine is free, the behaviour before).
 * The last line is one JSON object.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeRequest, encodeRequest } from "../src/ingest/otlp/codec.js";
import { traceExportBodies } from "./api/distinct.js";
import { latencies, openLoop, round } from "./harness/http-load.js";
import {
  benchEnv,
  cpuSeconds,
  initDataDir,
  postTraces,
  startServer,
} from "./harness/serve-process.js";
import { printTable } from "./harness/table.js";

const INTERVALS = (process.env.BENCH_INTERVALS ?? "0,250,1000").split(",").map(Number);
const RATES = (process.env.BENCH_RATES ?? "2000,10000").split(",").map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const SPANS_PER_EXPORT = 100;
const SEQUENTIAL_SPANS = 512;
const SEQUENTIAL_SECONDS = 10;

interface OpenFigures {
  intervalMs: number;
  spansPerSecond: number;
  cpuMicrosPerSpan: number;
  eventLoopMicrosPerSpan: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

interface SequentialFigures {
  intervalMs: number;
  spansPerSecond: number;
  p50Ms: number;
}

const openBodies = await traceExportBodies(Math.max(...RATES) * 5, SPANS_PER_EXPORT, 7);
const sequentialBodies = oneProcess(
  await traceExportBodies(SEQUENTIAL_SPANS * 20, SEQUENTIAL_SPANS, 11),
);

/**
 * The demo's exports, each as one SDK process would send it: every resource of the export (its
 * services) sent under one process's resource, so the server sees one sender throughout.
 */
function oneProcess(bodies: Uint8Array[]): Uint8Array[] {
  const resource = {
    attributes: [
      { key: "service.name", value: { stringValue: "bench-sender" } },
      { key: "service.instance.id", value: { stringValue: "bench-sender-1" } },
    ],
  };
  return bodies.map((body) => {
    const request = decodeRequest("traces", "protobuf", Buffer.from(body));
    const spans = (request.resourceSpans ?? []).flatMap((r) => r.scopeSpans ?? []);
    return encodeRequest("traces", { resourceSpans: [{ resource, scopeSpans: spans }] });
  });
}

async function withServer<T>(
  intervalMs: number,
  run: (post: (body: Uint8Array) => Promise<boolean>, pid: number) => Promise<T>,
): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), "vigil-bench-cadence-"));
  const env = benchEnv({ VIGIL_INGEST_WRITE_INTERVAL_MS: String(intervalMs) });
  try {
    const { apiKey } = initDataDir(dataDir, env);
    const server = await startServer(dataDir, env);
    try {
      const post = async (body: Uint8Array) => (await postTraces(server.url, apiKey, body)) === 200;
      return await run(post, server.pid);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const open: OpenFigures[] = [];
const sequential: SequentialFigures[] = [];
for (const intervalMs of INTERVALS) {
  for (const rate of RATES)
    open.push(
      await withServer(intervalMs, async (post, pid) => {
        const send = (i: number) => post(openBodies[i % openBodies.length] as Uint8Array);
        await openLoop(rate / SPANS_PER_EXPORT, 5, send);
        const cpuBefore = cpuSeconds(pid);
        const loopBefore = cpuSeconds(pid, pid);
        const result = await openLoop(rate / SPANS_PER_EXPORT, SECONDS, send);
        const spans = result.requests * SPANS_PER_EXPORT;
        return {
          intervalMs,
          spansPerSecond: rate,
          cpuMicrosPerSpan: Math.round(((cpuSeconds(pid) - cpuBefore) * 1e6) / spans),
          eventLoopMicrosPerSpan: Math.round(((cpuSeconds(pid, pid) - loopBefore) * 1e6) / spans),
          p50Ms: result.p50,
          p99Ms: result.p99,
          errors: result.errors,
        };
      }),
    );
  sequential.push(
    await withServer(intervalMs, async (post) => {
      const taken: number[] = [];
      const started = performance.now();
      while (performance.now() - started < SEQUENTIAL_SECONDS * 1000) {
        const sent = performance.now();
        if (!(await post(sequentialBodies[taken.length % sequentialBodies.length] as Uint8Array)))
          throw new Error("an export was refused");
        taken.push(performance.now() - sent);
      }
      const seconds = (performance.now() - started) / 1000;
      return {
        intervalMs,
        spansPerSecond: Math.round((taken.length * SEQUENTIAL_SPANS) / seconds),
        p50Ms: latencies(Float64Array.from(taken)).p50,
      };
    }),
  );
}

console.log(`write interval: open loop of ${SPANS_PER_EXPORT}-span exports, ${SECONDS} s each`);
printTable(
  ["interval ms", "spans/s", "CPU µs/span", "event loop µs/span", "p50 / p99 ms", "errors"],
  open.map((f) => [
    String(f.intervalMs),
    String(f.spansPerSecond),
    String(f.cpuMicrosPerSpan),
    String(f.eventLoopMicrosPerSpan),
    `${round(f.p50Ms, 0)} / ${round(f.p99Ms, 0)}`,
    String(f.errors),
  ]),
);
console.log(
  `one sender, ${SEQUENTIAL_SPANS}-span exports one after the other, ${SEQUENTIAL_SECONDS} s`,
);
printTable(
  ["interval ms", "spans/s", "p50 ms"],
  sequential.map((f) => [
    String(f.intervalMs),
    String(f.spansPerSecond),
    String(round(f.p50Ms, 0)),
  ]),
);
console.log(JSON.stringify({ bench: "ingest-cadence", open, sequential }));
