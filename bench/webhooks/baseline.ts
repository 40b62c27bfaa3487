import { Agent, request } from "undici";
import { newId } from "../../src/lib/ids.js";
import { signatureHeaders } from "../../src/webhooks/signing.js";
import { WEBHOOK_USER_AGENT } from "../../src/webhooks/transport.js";
import { round } from "../harness/stats.js";
import {
  firstArrivals,
  latencies,
  progressBar,
  type QueryCounter,
  startWindow,
} from "./measure.js";
import type { Receiver } from "./receiver.js";
import { BURST, ENDPOINTS, EVENT_TYPE, EVENTS, eventData, now } from "./settings.js";

// The baseline: the same signed POSTs from a bare undici loop with the same concurrency.

export interface BareTarget {
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

export interface Sequence {
  next: number;
}

export const itemsOf = (seq: Sequence, events: number) =>
  Array.from({ length: events * ENDPOINTS }, (_, i) => ({
    seq: seq.next + Math.floor(i / ENDPOINTS),
    endpoint: i % ENDPOINTS,
  }));

export async function baseline(
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
