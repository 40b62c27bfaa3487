import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import SQLite from "better-sqlite3";
import { createWebhooks } from "../../src/composition/webhooks.js";
import { loadConfig } from "../../src/config/load-config.js";
import type { DomainEvent } from "../../src/events/event-bus.js";
import { newId } from "../../src/lib/ids.js";
import { createLogger } from "../../src/lib/logger.js";
import { createMetrics } from "../../src/lib/metrics.js";
import { createSecretBox } from "../../src/lib/secret-box.js";
import { generateSecret, signingKey } from "../../src/webhooks/signing.js";
import { openBenchMeta } from "../harness/bench-meta.js";
import { type Cleanups, log, sleep } from "../harness/run.js";
import type { Sequence } from "./baseline.js";
import type { QueryCounter } from "./measure.js";
import type { Receiver } from "./receiver.js";
import {
  ARRIVAL_TIMEOUT_MS,
  args,
  CHUNK,
  ENDPOINTS,
  EVENT_TYPE,
  eventData,
  now,
  TLS_DIR,
  yieldToLoop,
} from "./settings.js";

/**
 * Vigil's side, as the service builds it (src/composition/): the metadata store counting its
 * queries, one project, the webhook service (its guarded agent trusting the test CA, private
 * targets allowed, the configured concurrency) and --endpoints endpoints subscribed to
 * monitor.down with sealed secrets (a random 32-byte server key).
 */
export async function startVigil(dataDir: string, receiver: Receiver, cleanups: Cleanups) {
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
  const { meta, domain, projectId } = await openBenchMeta(config, cleanups, {
    metrics,
    onQuery: (seconds) => {
      queries.queries++;
      queries.seconds += seconds;
    },
  });
  const secretBox = createSecretBox(randomBytes(32));
  const service = createWebhooks(config, { ...domain, meta, logger, metrics, secretBox });
  cleanups.push(() => service.close());
  const { deliverer, publish } = service;
  cleanups.push(() => deliverer.stop());

  // The endpoints, stored as createEndpoint stores them (without the verification request).
  const secrets = Array.from({ length: ENDPOINTS }, () => generateSecret());
  const at = new Date().toISOString();
  for (const [i, secret] of secrets.entries())
    await meta.repos.webhookEndpoints.insert({
      id: newId("whe"),
      projectId,
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

  const event = (n: number): DomainEvent => ({
    id: `evt_bench_${n}`,
    type: EVENT_TYPE,
    projectId,
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

  return {
    receiver,
    queries,
    concurrency,
    keys,
    ca: readFileSync(caFile, "utf8"),
    deliverer,
    publish,
    event,
    seq: { next: 0 } as Sequence,
    metaPath,
    reader,
    /** Resolves when nothing is pending any more: every attempt is recorded; returns when. */
    async drained(timeoutMs = ARRIVAL_TIMEOUT_MS) {
      const since = Date.now();
      while (pendingCount() > 0) {
        if (Date.now() - since > timeoutMs) return Number.NaN;
        await sleep(10);
      }
      return now();
    },
    /** Publishes events [from, from + count) in chunks, awaiting each, yielding between chunks. */
    async publishAll(from: number, count: number) {
      for (let i = 0; i < count; i += CHUNK) {
        for (let j = i; j < Math.min(count, i + CHUNK); j++) await publish(event(from + j));
        await yieldToLoop();
      }
    },
  };
}
export type Vigil = Awaited<ReturnType<typeof startVigil>>;
