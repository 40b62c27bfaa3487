import { log, sleep } from "../harness/run.js";
import { fmt, round } from "../harness/stats.js";
import { firstArrivals, latencies, progressBar, startWindow } from "./measure.js";
import { BURST, ENDPOINTS, EVENTS, now, STEADY_RATE, STEADY_SECONDS } from "./settings.js";
import type { Vigil } from "./vigil.js";

// Vigil's phases, each on the receiver and store the one before left idle (every delivery
// recorded): warm-up, drain, throughput, burst and steady.

/** Connections open, code hot; returns the first sequence number Vigil published. */
export async function warmUp(v: Vigil): Promise<number> {
  v.deliverer.start();
  const warm = Math.min(2000, EVENTS);
  const warmFrom = v.seq.next;
  v.seq.next += warm;
  log(`Warm-up: ${fmt(warm)} events`);
  const base = (await v.receiver.stats()).firsts;
  await v.publishAll(warmFrom, warm);
  await v.receiver.waitFor(base + warm * ENDPOINTS);
  await v.drained();
  return warmFrom;
}

/** A full queue, the deliverer started on it: the drain rate and the enqueue cost on their own. */
export async function drain(v: Vigil) {
  const { receiver, queries } = v;
  await v.deliverer.stop();
  const drainFrom = v.seq.next;
  v.seq.next += EVENTS;
  log(`Drain: enqueue ${fmt(EVENTS)} events with the deliverer stopped, then start it`);
  const enqueueWindow = startWindow(receiver, queries);
  const e0 = now();
  await v.publishAll(drainFrom, EVENTS);
  const enqueueSeconds = (now() - e0) / 1000;
  const enqueueFigures = await enqueueWindow(EVENTS);
  const base = (await receiver.stats()).firsts;
  const stopBar = progressBar(receiver, "Drain          ", base, EVENTS * ENDPOINTS);
  const measuring = startWindow(receiver, queries);
  const d0 = now();
  v.deliverer.start();
  const reached = await receiver.waitFor(base + EVENTS * ENDPOINTS);
  const recordedAt = await v.drained();
  const drainFigures = await measuring(EVENTS * ENDPOINTS);
  await stopBar();
  const drainArrivedSeconds = ((reached?.lastAt ?? Number.NaN) - d0) / 1000;
  const figures = {
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
  log(
    `  ${figures.deliveriesPerSecond} deliveries/s, ${figures.cpuMicrosPerItem} µs CPU per delivery`,
  );
  return figures;
}

/** Publishing and delivering at once: --events published as fast as one producer can. */
export async function throughput(v: Vigil) {
  const { receiver, queries } = v;
  const tFrom = v.seq.next;
  v.seq.next += EVENTS;
  const base = (await receiver.stats()).firsts;
  const stopBar = progressBar(receiver, "Throughput     ", base, EVENTS * ENDPOINTS);
  const measuring = startWindow(receiver, queries);
  const t0 = now();
  await v.publishAll(tFrom, EVENTS);
  const publishSeconds = (now() - t0) / 1000;
  const reached = await receiver.waitFor(base + EVENTS * ENDPOINTS);
  const recordedAt = await v.drained();
  const throughputFigures = await measuring(EVENTS * ENDPOINTS);
  await stopBar();
  const arrivals = await receiver.collect(0);
  const throughputFirsts = firstArrivals(arrivals, tFrom, tFrom + EVENTS);
  const throughputSeconds = ((reached?.lastAt ?? Number.NaN) - t0) / 1000;
  const figures = {
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
    `Throughput: ${figures.deliveriesPerSecond} deliveries/s, ` +
      `${figures.cpuMicrosPerItem} µs CPU per delivery`,
  );
  return figures;
}

/** Fires --burst publish() calls in one synchronous loop; latency from each call to its arrival. */
export async function burst(v: Vigil) {
  const { receiver, queries } = v;
  const from = v.seq.next;
  v.seq.next += BURST;
  const { firsts, requests } = await receiver.stats();
  const measure = startWindow(receiver, queries);
  const calledAt: number[] = [];
  const publishes: Promise<number>[] = [];
  for (let i = 0; i < BURST; i++) {
    calledAt.push(now());
    publishes.push(v.publish(v.event(from + i)));
  }
  const b0 = calledAt[0] ?? now();
  await Promise.all(publishes);
  const enqueuedMs = now() - b0;
  const done = await receiver.waitFor(firsts + BURST * ENDPOINTS);
  const allRecorded = await v.drained();
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
}

/** A burst on open connections, then one after the receiver closed its idle keep-alive ones. */
export async function bursts(v: Vigil) {
  await sleep(200);
  const warm = await burst(v);
  log(`Burst of ${fmt(BURST)}: latency p99 ${warm.latencyMs.p99} ms`);
  // The receiver closes its idle keep-alive connections, as one with a short keep-alive would
  // between bursts: the next burst opens its connections again (TCP, TLS, a secure context).
  await v.receiver.closeIdle();
  await sleep(500);
  const cold = await burst(v);
  log(
    `Burst of ${fmt(BURST)} on closed connections: latency p99 ${cold.latencyMs.p99} ms, ` +
      `${cold.receiver.newConnections} new connections`,
  );
  return { burst: warm, coldBurst: cold };
}

/** Fires publishes at `rate` per second for `events`, each at its scheduled time, not awaited. */
function openLoop(v: Vigil, from: number, events: number, rate: number) {
  const calledAt: number[] = [];
  const publishes: Promise<number>[] = [];
  const counts = { errors: 0 };
  const s0 = now() + 5;
  const interval = 1000 / rate;
  const offered = new Promise<void>((resolve) => {
    let next = 0;
    const tick = () => {
      const t = now();
      while (next < events && s0 + next * interval <= t) {
        calledAt.push(now());
        publishes.push(
          v.publish(v.event(from + next)).catch(() => {
            counts.errors++;
            return 0;
          }),
        );
        next++;
      }
      if (next < events) setTimeout(tick, Math.max(0, s0 + next * interval - now()));
      else resolve();
    };
    setTimeout(tick, 5);
  });
  return { s0, calledAt, publishes, counts, offered };
}

/** --steady-rate events/s offered for --steady-seconds, open loop: latency p50/p99. */
export async function steady(v: Vigil) {
  const { receiver, queries } = v;
  await sleep(200);
  const steadyEvents = Math.round(STEADY_RATE * STEADY_SECONDS);
  const sFrom = v.seq.next;
  v.seq.next += steadyEvents;
  const base = (await receiver.stats()).firsts;
  const requestsBefore = (await receiver.stats()).requests;
  const stopBar = progressBar(receiver, "Steady         ", base, steadyEvents * ENDPOINTS);
  const measuring = startWindow(receiver, queries);
  const loop = openLoop(v, sFrom, steadyEvents, STEADY_RATE);
  await loop.offered;
  const offeredSeconds = (now() - loop.s0) / 1000;
  await Promise.all(loop.publishes);
  const reached = await receiver.waitFor(base + steadyEvents * ENDPOINTS);
  await v.drained();
  const steadyFigures = await measuring(steadyEvents * ENDPOINTS);
  await stopBar();
  const arrivals = await receiver.collect(requestsBefore);
  const steadyLatency = latencies(arrivals, sFrom, loop.calledAt);
  const figures = {
    rate: STEADY_RATE,
    seconds: STEADY_SECONDS,
    events: steadyEvents,
    deliveries: steadyEvents * ENDPOINTS,
    offeredRate: round(steadyEvents / offeredSeconds, 1),
    publishErrors: loop.counts.errors,
    complete: reached !== undefined,
    missing: steadyLatency.missing,
    latencyMs: steadyLatency.ms,
    ...steadyFigures,
  };
  log(
    `Steady ${STEADY_RATE}/s: latency p50 ${figures.latencyMs.p50} ms, p99 ${figures.latencyMs.p99} ms`,
  );
  return figures;
}
