import { readFileSync } from "node:fs";
import cookie from "@fastify/cookie";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from "fastify";
import {
  type FastifyPluginAsyncZod,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { AppDeps } from "../composition/app-deps.js";
import { newId } from "../lib/ids.js";
import { useBodyTimeout } from "./body-timeout.js";
import { limitConnections } from "./connection-limits.js";
import { KeyLimiter } from "./key-limiter.js";
import { sessionCookieOptions, useApiKeyAuth, useSessionAuth } from "./plugins/auth.js";
import { useCompression } from "./plugins/compression.js";
import { registerErrorHandling, registerNotFound } from "./plugins/error-handling.js";
import { useOpenApi } from "./plugins/openapi.js";
import { sessionRateLimiter, useProjectSession } from "./plugins/project-session.js";
import { keyRateLimiter, useRateLimits } from "./plugins/rate-limit.js";
import { noSniff, useSecurityHeaders } from "./plugins/security-headers.js";
import { useStrictQueries } from "./plugins/strict-query.js";
import { sendProblem } from "./problem.js";
import { ackRoutes } from "./routes/ack/ack-routes.js";
import { alertRuleRoutes } from "./routes/api/alert-rule-routes.js";
import { apiKeyRoutes } from "./routes/api/api-key-routes.js";
import { authRoutes } from "./routes/api/auth-routes.js";
import { channelRoutes } from "./routes/api/channel-routes.js";
import { dashboardRoutes as projectDashboardRoutes } from "./routes/api/dashboard-routes.js";
import { dashboardTemplateRoutes } from "./routes/api/dashboard-template-routes.js";
import { errorRoutes } from "./routes/api/error-routes.js";
import { escalationRoutes } from "./routes/api/escalation-routes.js";
import { incidentRoutes } from "./routes/api/incident-routes.js";
import { inviteRoutes } from "./routes/api/invite-routes.js";
import { memberRoutes } from "./routes/api/member-routes.js";
import { monitorRoutes } from "./routes/api/monitor-routes.js";
import { projectRoutes } from "./routes/api/project-routes.js";
import { savedQueryRoutes } from "./routes/api/saved-query-routes.js";
import { savedViewRoutes } from "./routes/api/saved-view-routes.js";
import { statusPageRoutes } from "./routes/api/status-page-routes.js";
import { statusPageSubscriberRoutes } from "./routes/api/status-page-subscriber-routes.js";
import { healthRoutes } from "./routes/health-routes.js";
import { pingRoutes } from "./routes/ping/ping-routes.js";
import { publicStatusRoutes } from "./routes/status/public-status-routes.js";
import { subscribeRoutes } from "./routes/status/subscribe-routes.js";
import { aiRoutes } from "./routes/v1/ai-routes.js";
import { alertsRoutes } from "./routes/v1/alerts-routes.js";
import { attributeRoutes } from "./routes/v1/attribute-routes.js";
import { dashboardQueryRoutes } from "./routes/v1/dashboard-query-routes.js";
import { errorsRoutes } from "./routes/v1/errors-routes.js";
import { httpMetricsRoutes } from "./routes/v1/http-metrics-routes.js";
import { incidentsRoutes } from "./routes/v1/incidents-routes.js";
import { infraRoutes } from "./routes/v1/infra-routes.js";
import { keyRoutes } from "./routes/v1/key-routes.js";
import { logsRoutes } from "./routes/v1/logs-routes.js";
import { metricsRoutes } from "./routes/v1/metrics-routes.js";
import { otlpRoutes } from "./routes/v1/otlp-routes.js";
import { servicesRoutes } from "./routes/v1/services-routes.js";
import { sessionsRoutes } from "./routes/v1/sessions-routes.js";
import { statusPagesRoutes } from "./routes/v1/status-pages-routes.js";
import { tqlRoutes } from "./routes/v1/tql-routes.js";
import { tracesRoutes } from "./routes/v1/traces-routes.js";
import { DEFAULT_WEB_DIR, dashboardRoutes } from "./routes/web/dashboard-routes.js";
import { webhookRoutes } from "./routes/webhooks/webhook-routes.js";

/** Builds the routes of one area from the app's dependencies; areas list these, one entry per module. */
export type RouteModule = (deps: AppDeps) => FastifyPluginAsyncZod;

/** The /v1 read verbs: under /v1 with an API key, and for the dashboard under a project with a session. */
export const READ_ROUTES: readonly RouteModule[] = [
  tqlRoutes,
  dashboardQueryRoutes,
  logsRoutes,
  tracesRoutes,
  errorsRoutes,
  httpMetricsRoutes,
  sessionsRoutes,
  infraRoutes,
  metricsRoutes,
  aiRoutes,
  incidentsRoutes,
  alertsRoutes,
  statusPagesRoutes,
  attributeRoutes,
  servicesRoutes,
];

/** Everything under /v1: X-API-Key authentication and the per-key rate limit apply to each. */
export const V1_ROUTES: readonly RouteModule[] = [(deps) => keyRoutes(deps.domain), ...READ_ROUTES];

/** Everything under /api: session cookies with the CSRF rule. */
export const API_ROUTES: readonly RouteModule[] = [
  (deps) => authRoutes(deps.domain, sessionCookieOptions(deps.config.publicUrl)),
  (deps) => projectRoutes(deps.domain),
  (deps) => apiKeyRoutes(deps.domain),
  errorRoutes,
  monitorRoutes,
  (deps) => channelRoutes(deps.domain),
  incidentRoutes,
  (deps) => alertRuleRoutes(deps),
  (deps) => statusPageRoutes(deps.domain),
  (deps) => statusPageSubscriberRoutes(deps.domain),
  (deps) => savedQueryRoutes(deps.domain),
  (deps) => savedViewRoutes(deps.domain),
  (deps) => escalationRoutes(deps.domain),
  (deps) => projectDashboardRoutes(deps.domain),
  (deps) => dashboardTemplateRoutes(deps.domain),
  (deps) => memberRoutes(deps.domain),
  (deps) => inviteRoutes(deps.domain, sessionCookieOptions(deps.config.publicUrl)),
];

export interface ServerOptions {
  v1Routes?: readonly RouteModule[];
  apiRoutes?: readonly RouteModule[];
  /**
   * The per-key OTLP budget, shared with the gRPC receiver; its counter is where every rate limit
   * counts (in memory, or Redis shared by the API nodes). A fresh in-memory one when not given.
   */
  ingestLimiter?: KeyLimiter;
  /** The built dashboard (index.html and assets/); `dist/web` of this package when not given. */
  webDir?: string;
}

/** The main port's connection caps, from the config. */
const connectionLimits = ({ config }: AppDeps) => ({
  max: config.http.maxConnections,
  perAddress: config.http.maxConnectionsPerAddress,
});

/** Counts and logs the connections a listener's caps close. */
export const connectionEvents = (deps: Pick<AppDeps, "metrics" | "logger">) => ({
  refused: (address: string) => {
    deps.metrics.connectionsRefused.inc();
    deps.logger.debug({ address }, "Closed a connection over the per-address limit");
  },
  shed: () => {
    deps.metrics.connectionsShed.inc();
    deps.logger.debug("Closed the connection waiting longest, near the connection limit");
  },
});

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const VERSION = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

/** The HTTP application over the given dependencies; not yet listening. */
export async function buildServer(
  deps: AppDeps,
  options: ServerOptions = {},
): Promise<FastifyInstance> {
  const { config } = deps;
  const hops = config.trustProxy;
  const timeouts = config.http;
  const requestTimeout = timeouts.requestTimeoutSeconds * 1000;
  const headersTimeout = timeouts.headersTimeoutSeconds * 1000;
  const app = Fastify({
    // Node checks both timeouts on a timer (30 s by default): a quarter of the shorter, ≤ 1 s,
    // so a slow request is cut close to its deadline.
    http: {
      requestTimeout,
      headersTimeout,
      connectionsCheckingInterval: Math.max(100, Math.min(1000, headersTimeout / 4)),
    },
    requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeoutSeconds * 1000,
    connectionTimeout: timeouts.idleTimeoutSeconds * 1000,
    // Widened to Fastify's logger interface so the app keeps Fastify's default instance type.
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Fastify's two lines per request are replaced by the one written in onResponse below.
    logController: new LogController({ disableRequestLogging: true }),
    // A hop count trusts that many proxies nearest to us (Fastify's typed options take a function).
    trustProxy: typeof hops === "number" ? (_address: string, hop: number) => hop < hops : hops,
    bodyLimit: 1024 * 1024,
    // Path ids are short (the longest are 32-hex trace and error ids); longer ones get a 414 problem.
    routerOptions: { maxParamLength: 200 },
    // Errors the router raises before any route runs (a malformed URL, an over-long id).
    frameworkErrors: (error, request, reply) =>
      sendProblem(request, noSniff(reply), {
        status: error.statusCode ?? 400,
        detail: error.message,
      }),
    // genReqId reads X-Request-Id itself so a malformed incoming id is replaced, not trusted.
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers["x-request-id"];
      return typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : newId("req");
    },
  }).withTypeProvider<ZodTypeProvider>();
  limitConnections(app.server, connectionLimits(deps), connectionEvents(deps));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  useSecurityHeaders(app);
  // Small bodies (everything but OTLP batches) get a short deadline: trickling one holds a socket.
  useBodyTimeout(app, timeouts.bodyTimeoutSeconds);
  // An action POST (…/test, …/run, logout) sent with `Content-Type: application/json` and no
  // body is a request without a body, not malformed JSON; anything else parses as before.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text === "") done(null, undefined);
    else parseJson(request, text, done);
  });

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  app.addHook("onResponse", async (request, reply) => {
    const route = request.routeOptions.url ?? "unmatched";
    const seconds = reply.elapsedTime / 1000;
    deps.metrics.observeHttp({ method: request.method, route, status: reply.statusCode }, seconds);
    // One line per request; headers and bodies are never logged.
    request.log.info(
      {
        method: request.method,
        url: request.routeOptions.config.secretPath ? route : loggedPath(request.url),
        route,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        keyId: request.apiKey?.keyId,
        userId: request.auth?.user.id,
      },
      "request",
    );
  });

  // One counter for every limit of this node (one failure policy and key space with Redis).
  const ingestLimiter = options.ingestLimiter ?? new KeyLimiter(config.ingest.perMinute);
  const rateLimits = ingestLimiter.counter;
  // Before any route: text answers compressed as the client accepts (docs/deploy.md).
  await useCompression(app);
  await app.register(cookie);
  await useOpenApi(app, VERSION);
  // With an admin port, /metrics is served there only (docs/deploy.md).
  const metricsAccess =
    config.http.adminPort === undefined ? { token: config.http.metricsToken } : false;
  await app.register(healthRoutes({ ...deps, rateLimits, metricsAccess }));
  // A worker node serves health and metrics only; the API, ingestion and pages are API nodes'.
  if (config.role === "worker") return app;
  // Public status pages: no authentication, cached per data version.
  await app.register(publicStatusRoutes(deps));
  // Heartbeat pings: unauthenticated by the URL's token, rate limited per token and address.
  await app.register(pingRoutes(deps, rateLimits));
  await app.register(subscribeRoutes(deps, rateLimits));
  // One-click acknowledge links of notifications: unauthenticated by the token, rate limited.
  await app.register(ackRoutes(deps, rateLimits));

  const publicOrigin = config.publicUrl ? new URL(config.publicUrl).origin : undefined;
  await app.register(
    async (api) => {
      useSessionAuth(api, deps.domain, { publicOrigin, ...sessionCookieOptions(config.publicUrl) });
      await useRateLimits(api, rateLimits);
      useStrictQueries(api);
      for (const module of options.apiRoutes ?? API_ROUTES) await api.register(module(deps));
    },
    { prefix: "/api" },
  );
  // The dashboard reads a project through the same verbs as /v1, signed in instead of keyed.
  await app.register(
    async (scope) => {
      useSessionAuth(scope, deps.domain, {
        publicOrigin,
        ...sessionCookieOptions(config.publicUrl),
      });
      await useRateLimits(scope, rateLimits);
      useProjectSession(scope, deps.domain, sessionRateLimiter(scope));
      registerNotFound(scope);
      useStrictQueries(scope);
      // Documented once, under /v1; these are the same routes (docs/dashboard.md).
      scope.addHook("onRoute", (route) => {
        if (route.schema) route.schema.hide = true;
      });
      for (const module of READ_ROUTES) await scope.register(module(deps));
    },
    { prefix: "/api/projects/:projectId/v1" },
  );
  // Webhook management: session auth like /api, without a version prefix (spec).
  await app.register(
    async (scope) => {
      useSessionAuth(scope, deps.domain, {
        publicOrigin,
        ...sessionCookieOptions(config.publicUrl),
      });
      await useRateLimits(scope, rateLimits);
      useStrictQueries(scope);
      await scope.register(
        webhookRoutes({
          domain: deps.domain,
          writesPerMinute: config.webhooks.writesPerMinute,
        }),
      );
    },
    { prefix: "/webhooks" },
  );
  await app.register(
    async (v1) => {
      await useRateLimits(v1, rateLimits);
      useApiKeyAuth(v1, deps.domain, keyRateLimiter(v1, config.rateLimit.perMinute, "api"));
      // Scoped so unknown /v1 paths are authenticated and limited like known ones.
      registerNotFound(v1);
      useStrictQueries(v1);
      for (const module of options.v1Routes ?? V1_ROUTES) await v1.register(module(deps));
    },
    { prefix: "/v1" },
  );
  // OTLP ingestion: same keys, its own (higher) per-key budget, bodies read as bytes.
  await app.register(
    async (otlp) => {
      await useRateLimits(otlp, ingestLimiter.counter);
      useApiKeyAuth(otlp, deps.domain, keyRateLimiter(otlp, ingestLimiter.perMinute, "ingest"));
      await otlp.register(otlpRoutes(deps));
    },
    { prefix: "/v1" },
  );
  await app.register(async (scope) => dashboardRoutes(scope, options.webDir ?? DEFAULT_WEB_DIR));
  return app;
}

/**
 * A request's path as the log shows it: without its query, and with the token of a link that
 * carries one (a ping, acknowledge, invitation or subscription link) masked even when the path
 * matched no route (a trailing slash, an extra segment), since no route's secretPath applies then.
 */
export function loggedPath(url: string): string {
  const [path = ""] = url.split("?");
  return path
    .replace(/^(\/(?:ping|ack|invite)\/)[^/]+/, "$1:token")
    .replace(/(\/(?:confirm|unsubscribe)\/)[^/]+/, "$1:token");
}
