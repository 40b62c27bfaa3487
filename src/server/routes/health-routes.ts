import type { FastifyBaseLogger } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Metrics } from "../../lib/metrics.js";
import type { MetaStore } from "../../meta/meta-store.js";
import type { TelemetryExecutor } from "../../telemetry/executor.js";

const READY_TIMEOUT_MS = 2_000;

const Readiness = z.object({
  status: z.enum(["ready", "unavailable"]),
  checks: z.record(z.string(), z.object({ ok: z.boolean() })),
});

/** Runs one probe; the failure's text goes to the log only (it may name hosts or paths). */
async function check(
  name: string,
  log: FastifyBaseLogger,
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
    log.warn({ err: error, store: name }, "readiness check failed");
    return { ok: false };
  } finally {
    clearTimeout(timer);
  }
}

export const healthRoutes =
  (stores: {
    meta: MetaStore;
    telemetry: TelemetryExecutor;
    metrics: Metrics;
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
          summary: "Readiness: both stores answer",
          response: { 200: Readiness, 503: Readiness },
        },
      },
      async (request, reply) => {
        const [meta, telemetry] = await Promise.all([
          check("meta", request.log, () => stores.meta.ping()),
          check("telemetry", request.log, () => stores.telemetry.ping()),
        ]);
        const ready = meta.ok && telemetry.ok;
        return reply
          .code(ready ? 200 : 503)
          .send({ status: ready ? "ready" : "unavailable", checks: { meta, telemetry } });
      },
    );

    app.get("/metrics", { schema: { hide: true } }, async (_request, reply) => {
      reply.type(stores.metrics.registry.contentType);
      return stores.metrics.registry.metrics();
    });
  };
