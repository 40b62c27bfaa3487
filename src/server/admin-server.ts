import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { AppDeps } from "../composition/app-deps.js";
import { limitConnections } from "./connection-limits.js";
import { useCompression } from "./plugins/compression.js";
import { registerErrorHandling } from "./plugins/error-handling.js";
import { noSniff, useSecurityHeaders } from "./plugins/security-headers.js";
import { sendProblem } from "./problem.js";
import type { RateLimitCounter } from "./rate-limit-counter.js";
import { healthRoutes } from "./routes/health-routes.js";
import { connectionEvents } from "./server.js";

/**
 * Probes and a scraper or two need few connections: these caps are the admin port's own, so
 * whatever holds the main port's connections, /healthz, /readyz and /metrics answer here.
 */
export const ADMIN_MAX_CONNECTIONS = 128;
export const ADMIN_MAX_CONNECTIONS_PER_ADDRESS = 32;

/** The admin listener (`VIGIL_ADMIN_PORT`): /healthz, /readyz and /metrics only; not yet listening. */
export async function buildAdminServer(
  deps: AppDeps,
  rateLimits?: Pick<RateLimitCounter, "ping">,
): Promise<FastifyInstance> {
  const { http } = deps.config;
  // No route takes a body: a request is its headers, and gets their deadline.
  const headersTimeout = http.headersTimeoutSeconds * 1000;
  const app = Fastify({
    http: {
      requestTimeout: headersTimeout,
      headersTimeout,
      connectionsCheckingInterval: Math.max(100, Math.min(1000, headersTimeout / 4)),
    },
    requestTimeout: headersTimeout,
    keepAliveTimeout: http.keepAliveTimeoutSeconds * 1000,
    connectionTimeout: http.idleTimeoutSeconds * 1000,
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Probes every few seconds would drown the log; failed readiness checks log themselves.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024,
    frameworkErrors: (error, request, reply) =>
      sendProblem(request, noSniff(reply), {
        status: error.statusCode ?? 400,
        detail: error.message,
      }),
  });
  limitConnections(
    app.server,
    { max: ADMIN_MAX_CONNECTIONS, perAddress: ADMIN_MAX_CONNECTIONS_PER_ADDRESS },
    connectionEvents(deps),
  );
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  useSecurityHeaders(app);
  await useCompression(app);
  await app.register(
    healthRoutes({
      ...deps,
      ...(rateLimits ? { rateLimits } : {}),
      metricsAccess: { token: http.metricsToken },
    }),
  );
  return app;
}
