import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Config } from "../../config/config-schema.js";
import type { IngestService } from "../../ingest/ingest.js";
import { assessWriteHealth } from "../../ingest/write-health.js";
import type { Metrics } from "../../lib/metrics.js";
import type { MetaStore } from "../../meta/meta-store.js";
import type { TelemetryExecutor } from "../../telemetry/executor.js";
import { sendProblem } from "../problem.js";
import type { RateLimitCounter } from "../rate-limit-counter.js";

const READY_TIMEOUT_MS = 2_000;
const REDIS_DOWN = "Redis does not answer: rate limits count per node until it does";

const Check = z.object({
  ok: z.boolean(),
  degraded: z.boolean().optional(),
  writeWaitMs: z.number().int().optional(),
  ingestWaitMs: z.number().int().optional(),
  ingestQueuedRows: z.number().int().optional(),
  reason: z.string().optional(),
});

const Readiness = z.object({
  status: z.enum(["ready", "unavailable"]),
  checks: z.record(z.string(), Check),
});

/**
 * Runs one probe; the failure's text goes to the log only (it may name hosts or paths). Without
 * a log the failure is left to its owner's own (rate-limited) logging.
 */
async function check(
  name: string,
  log: FastifyBaseLogger | undefined,
  work: () => Promise<void>,
): Promise<{ ok: boolean }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([work(), timeout]);
    return { ok: true };
  } catch (error) {
    log?.warn({ err: error, store: name }, "readiness check failed");
    return { ok: false };
  } finally {
    clearTimeout(timer);
  }
}

const digest = (text: string): Buffer => createHash("sha256").update(text).digest();

/** Whether an Authorization header carries the token; hashed first so the compare takes one time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? "");
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token));
}

export const healthRoutes =
  (stores: {
    meta: MetaStore;
    telemetry: TelemetryExecutor;
    ingest: Pick<IngestService, "queue">;
    config: Pick<Config, "telemetry">;
    metrics: Metrics;
    /** The rate-limit counter; with a shared store (Redis) its state is reported, not required. */
    rateLimits?: Pick<RateLimitCounter, "ping">;
    /**
     * /metrics: not served (`false`, when the admin port has it), or served, to any caller or
     * only with `Authorization: Bearer <token>`. Served to any caller when not given.
     */
    metricsAccess?: false | { token?: string | undefined };
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/healthz",
      {
        schema: {
          tags: ["operations"],
          summary: "Liveness: the process is up",
          response: { 200: z.object({ status: z.literal("ok") }) },
        },
      },
      async () => ({ status: "ok" as const }),
    );

    app.get(
      "/readyz",
      {
        schema: {
          tags: ["operations"],
          summary: "Readiness: both stores answer and ingestion is acknowledged in time",
          description:
            "503 when a store does not answer, or when telemetry writes wait longer than `telemetry.maxWriteWaitMs` (`checks.telemetry.degraded`, with the waits and the reason): a load balancer then sends ingestion elsewhere. /healthz stays 200. With Redis for rate limits (`VIGIL_REDIS_URL`), `checks.redis` reports it; Redis not answering is `degraded` but keeps the node ready (200): limits then count per node (fail open), and taking every node out of the pool over a shared Redis would stop the whole service.",
          response: { 200: Readiness, 503: Readiness },
        },
      },
      async (request, reply) => {
        // Taken as the probe arrives: the pings below may wait behind the very writes it measures.
        const writes = assessWriteHealth({
          engine: stores.telemetry.stats?.(),
          ingest: stores.ingest.queue(),
          maxWriteWaitMs: stores.config.telemetry.maxWriteWaitMs,
        });
        const ping = stores.rateLimits?.ping?.bind(stores.rateLimits);
        const [meta, engine, redis] = await Promise.all([
          check("meta", request.log, () => stores.meta.ping()),
          check("telemetry", request.log, () => stores.telemetry.ping()),
          // The counter logs Redis outages itself, at most every 30 s, not once per probe.
          ping ? check("redis", undefined, ping) : undefined,
        ]);
        if (writes.degraded) request.log.warn({ writes }, "telemetry writes degraded");
        const telemetryCheck = { ...writes, ok: engine.ok && writes.ok };
        // Not part of `ready`: rate limits fail open to per-node counting while Redis is away.
        const redisCheck =
          redis && (redis.ok ? redis : { ...redis, degraded: true, reason: REDIS_DOWN });
        const ready = meta.ok && telemetryCheck.ok;
        return reply.code(ready ? 200 : 503).send({
          status: ready ? "ready" : "unavailable",
          checks: { meta, telemetry: telemetryCheck, ...(redisCheck ? { redis: redisCheck } : {}) },
        });
      },
    );

    const access = stores.metricsAccess ?? {};
    if (access === false) return;
    const { token } = access;
    app.get("/metrics", { schema: { hide: true } }, async (request, reply) => {
      if (token !== undefined && !bearerMatches(request.headers.authorization, token)) {
        reply.header("www-authenticate", 'Bearer realm="metrics"');
        return sendProblem(request, reply, {
          status: 401,
          code: "unauthorized",
          detail: "Send the metrics token (VIGIL_METRICS_TOKEN) as Authorization: Bearer <token>",
        });
      }
      reply.type(stores.metrics.registry.contentType);
      return stores.metrics.registry.metrics();
    });
  };
