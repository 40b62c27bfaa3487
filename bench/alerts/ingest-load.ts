import { demoRequests } from "../../src/demo/generator.js";
import { encodeRequest } from "../../src/ingest/otlp/codec.js";
import { BATCH, INGEST_RATE } from "./settings.js";

/**
 * Ingest running throughout: demo OTLP exports of BATCH spans, INGEST_RATE a second, open loop,
 * each timed until acknowledged. `stop()` ends the loop and waits for the exports in flight.
 */
export function startIngest(url: string, key: string) {
  const bodies: Uint8Array[] = [];
  for (const request of demoRequests({
    spans: 20 * BATCH,
    batchSpans: BATCH,
    windowMs: 60_000,
    nowMs: Date.now(),
    seed: 7,
  }))
    if (request.signal === "traces") bodies.push(encodeRequest("traces", request.body));
  let ingesting = true;
  const ingestMs: number[] = [];
  let ingestErrors = 0;
  const inflight = new Set<Promise<void>>();
  const ingestLoop = (async () => {
    let n = 0;
    const t0 = performance.now();
    while (ingesting) {
      const due = t0 + (n * 1000) / INGEST_RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const body = bodies[n % bodies.length] as Uint8Array;
      n++;
      const sent = (async () => {
        const response = await fetch(`${url}/v1/traces`, {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/x-protobuf" },
          body,
        });
        await response.arrayBuffer();
        if (response.status === 200) ingestMs.push(performance.now() - due);
        else ingestErrors++;
      })().catch(() => {
        ingestErrors++;
      });
      inflight.add(sent);
      void sent.finally(() => inflight.delete(sent));
    }
  })();

  return {
    ingestMs,
    errors: () => ingestErrors,
    async stop() {
      ingesting = false;
      await ingestLoop;
      await Promise.allSettled([...inflight]);
    },
  };
}
