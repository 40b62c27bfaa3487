/**
 * npm run bench:ingest-stages — where the event loop's time per span goes on the ingest path,
 * stage by stage, in one process without the engine: protobuf decode, mapping (rows, derived
 * observations), and the Native block of the traces rows. Each stage runs over the same distinct
 * demo requests (~1,000 spans each) for BENCH_ROUNDS rounds after a warm-up; the figure is CPU
 * microseconds per span (process.cpuUsage: the event loop plus V8's GC helpers), and the share
 * the garbage collector took of it (PerformanceObserver "gc" entries). The last line is one JSON
 * object.
 */

import { PerformanceObserver } from "node:perf_hooks";
import { demoRequests } from "../src/demo/generator.js";
import { PriceTable } from "../src/ingest/derive/ai-prices.js";
import type { MappedRequest, MappingOptions } from "../src/ingest/ingest-batch.js";
import { mapTraces } from "../src/ingest/map-traces.js";
import { decodeRequest, encodeRequest } from "../src/ingest/otlp/codec.js";
import type { TracesRequest } from "../src/ingest/otlp/otlp-messages.js";
import { encodeNativeBlock, nativePlan } from "../src/telemetry/native/block.js";
import { TELEMETRY_TABLES } from "../src/telemetry/tables.js";
import { UnixTime } from "../src/telemetry/unix-time.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const DISTINCT = 20;

let gcMillis = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMillis += entry.duration;
}).observe({ entryTypes: ["gc"] });

const bodies: Buffer[] = [];
for (const request of demoRequests({
  spans: DISTINCT * 1000,
  batchSpans: 1000,
  windowMs: 3600_000,
  nowMs: Date.now(),
}))
  if (request.signal === "traces") bodies.push(Buffer.from(encodeRequest("traces", request.body)));

const options: MappingOptions = {
  projectId: "prj_bench",
  limits: { maxValueLength: 8192, maxAttributes: 128 },
  received: UnixTime.fromMillis(Date.now()),
};
const prices = new PriceTable();
const decode = (body: Buffer) => decodeRequest("traces", "protobuf", body) as TracesRequest;
const requests = bodies.map(decode);
const mapped: MappedRequest[] = requests.map((r) => mapTraces(r, options, prices));
const spans = mapped.reduce((n, m) => n + m.batch.traces.length, 0);
const table = TELEMETRY_TABLES.find((t) => t.name === "traces");
const plan = nativePlan(
  Object.keys(mapped[0]?.batch.traces[0] ?? {}),
  new Map(table?.columns.map((c) => [c.name, c.type])),
);
if (!plan) throw new Error("the traces rows have no Native plan");

/** CPU µs per span and the GC's share of one stage run over every request ROUNDS times. */
async function stage(name: string, run: (i: number) => unknown) {
  for (let i = 0; i < bodies.length; i++) run(i); // warm-up
  await new Promise((resolve) => setImmediate(resolve));
  const gcBefore = gcMillis;
  const before = process.cpuUsage();
  let sink = 0;
  for (let round = 0; round < ROUNDS; round++)
    for (let i = 0; i < bodies.length; i++) sink += run(i) ? 1 : 0;
  const used = process.cpuUsage(before);
  await new Promise((resolve) => setImmediate(resolve)); // lets the observer report
  const micros = used.user + used.system;
  const perSpan = micros / (spans * ROUNDS);
  const gcShare = ((gcMillis - gcBefore) * 1000) / micros;
  console.log(
    `  ${name.padEnd(8)} ${perSpan.toFixed(2).padStart(6)} µs/span  (GC ${(gcShare * 100).toFixed(0)}%)`,
  );
  return {
    name,
    microsPerSpan: Number(perSpan.toFixed(2)),
    gcShare: Number(gcShare.toFixed(3)),
    sink,
  };
}

console.log(`ingest stages: ${bodies.length} distinct requests, ${spans} spans, ${ROUNDS} rounds`);
const stages = [
  await stage("decode", (i) => decode(bodies[i] as Buffer)),
  await stage("map", (i) => mapTraces(requests[i] as TracesRequest, options, prices)),
  await stage("encode", (i) => encodeNativeBlock(plan, (mapped[i] as MappedRequest).batch.traces)),
  await stage("all", (i) =>
    encodeNativeBlock(plan, mapTraces(decode(bodies[i] as Buffer), options, prices).batch.traces),
  ),
];
console.log(
  JSON.stringify({
    bench: "ingest-stages",
    spans,
    rounds: ROUNDS,
    stages: Object.fromEntries(
      stages.map(({ name, microsPerSpan, gcShare }) => [name, { microsPerSpan, gcShare }]),
    ),
  }),
);
