import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { purgeClosedInvites } from "../auth/invites.js";
import { purgeExpiredSessions } from "../auth/sign-in-sessions.js";
import { type AppDeps, createDeps, type DepsOptions } from "../composition/app-deps.js";
import { closeDeps, startBackgroundWork } from "../composition/background-work.js";
import { DEFAULT_GRPC_PORT } from "../config/config-fields.js";
import type { Config } from "../config/config-schema.js";
import { systemCtx } from "../context.js";
import { isLoopbackHost } from "../lib/http/address-policy.js";
import { createLogger } from "../lib/logger.js";
import { createMetrics } from "../lib/metrics.js";
import { buildAdminServer } from "../server/admin-server.js";
import {
  createOtlpGrpcServer,
  GrpcListenError,
  type OtlpGrpcServer,
} from "../server/grpc/otlp-grpc-server.js";
import { KeyLimiter } from "../server/key-limiter.js";
import { type RateLimitStore, rateLimitCounterFor } from "../server/plugins/rate-limit.js";
import { closeRateLimitRedis, connectRateLimitRedis } from "../server/rate-limit-redis.js";
import { buildServer, type ServerOptions } from "../server/server.js";
import { initialize, needsInitialization } from "../setup/initialize.js";

/** A started service and the one way to stop it cleanly. */
export interface RunningService {
  url: string;
  /** The OTLP/gRPC endpoint (`http://host:port`), unless grpc.enabled is off. */
  grpcUrl: string | undefined;
  /** The admin port's URL (/healthz, /readyz, /metrics), when http.adminPort is set. */
  adminUrl: string | undefined;
  deps: AppDeps;
  app: FastifyInstance;
  admin: FastifyInstance | undefined;
  grpc: OtlpGrpcServer | undefined;
  /** Stops accepting, drains in-flight requests, then closes the stores (chDB last). */
  stop(): Promise<void>;
}

/** First start on an empty data dir: create the admin from env, or say how to. */
async function bootstrap(deps: AppDeps, logger: Logger): Promise<void> {
  const ctx = systemCtx(deps.domain);
  const expired = await purgeExpiredSessions({ ctx });
  if (expired > 0) logger.info({ expired }, "Removed expired sessions");
  const invites = await purgeClosedInvites({ ctx });
  if (invites > 0) logger.info({ invites }, "Removed invitations closed over 30 days ago");
  if (!(await needsInitialization({ ctx }))) return;
  const { adminEmail, adminPassword } = deps.config.auth;
  if (adminEmail && adminPassword) {
    const result = await initialize({
      ctx,
      input: {
        email: adminEmail,
        password: adminPassword,
        withApiKey: false,
      },
    });
    logger.info(
      { orgId: result.orgId, projectId: result.projectId, userId: result.userId },
      `Created the first admin, ${adminEmail}`,
    );
    // The admin has no API key yet, and OTLP and the read API need one.
    logger.info(
      `Create an API key with: vigil keys create --data-dir ${deps.config.dataDir} --project ${result.projectId} --role full ` +
        "(from a checkout run `node bin/vigil.js keys create …`; it works while the server runs), " +
        `or sign in (POST /api/auth/login) and POST /api/projects/${result.projectId}/api-keys`,
    );
    return;
  }
  logger.warn(
    `No users yet. Create the first admin with: vigil init --data-dir ${deps.config.dataDir} --email you@example.com --password-stdin ` +
      "(type the password, then Enter; from a checkout run `node bin/vigil.js init …`), " +
      "or set VIGIL_ADMIN_EMAIL and VIGIL_ADMIN_PASSWORD and restart",
  );
}

export async function startService(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
  serverOptions: ServerOptions = {},
  /** The clock and id source (tests drive time with them); the system's by default. */
  depsOptions: Pick<DepsOptions, "clock" | "newId"> = {},
): Promise<RunningService> {
  const metrics = createMetrics();
  // Several API nodes share their rate-limit counters through Redis (closed last, on stop);
  // a worker serves no limited routes, so it does not connect.
  const redisUrl =
    serverOptions.ingestLimiter || config.role === "worker" ? undefined : config.redis.url;
  const redis = redisUrl ? await connectRateLimitRedis(redisUrl, { logger, metrics }) : undefined;
  const rateLimitStore: RateLimitStore = redis
    ? { kind: "redis", client: redis }
    : { kind: "memory" };
  // One per-key OTLP budget for both transports, over the one counter every limit counts in.
  const ingestLimiter =
    serverOptions.ingestLimiter ??
    new KeyLimiter(
      config.ingest.perMinute,
      rateLimitCounterFor(rateLimitStore, { logger, metrics }),
    );
  let deps: AppDeps;
  try {
    // The sign-in limits count in that counter too, so they hold across the API nodes.
    deps = await createDeps(config, {
      ...depsOptions,
      logger,
      metrics,
      rateLimits: ingestLimiter.counter,
    });
  } catch (error) {
    if (redis) await closeRateLimitRedis(redis);
    throw error;
  }
  // OTLP/gRPC is ingestion: an API node's (or a one-process install's) job, not a worker's.
  let grpc =
    config.grpc.enabled && config.role !== "worker"
      ? createOtlpGrpcServer(deps, ingestLimiter)
      : undefined;
  // In-flight exports get half the shutdown time; the rest is left for the stores to flush.
  const grpcDrainMs = (config.shutdownTimeoutSeconds * 1000) / 2;
  let app: FastifyInstance | undefined;
  let admin: FastifyInstance | undefined;
  let grpcUrl: string | undefined;
  let adminUrl: string | undefined;
  try {
    await bootstrap(deps, logger);
    app = await buildServer(deps, { ...serverOptions, ingestLimiter });
    await app.listen({ host: config.host, port: config.port });
    deps.domain.appUrl.listeningAt(
      `http://${bracketed(config.host)}:${listeningPort(app, config.port)}`,
    );
    // Links that leave the server (acknowledge links, invitations, subscription emails) need an
    // address people can open: where this node listens is one only on a laptop.
    if (
      !config.publicUrl &&
      (config.smtp.url || config.role !== "all" || !isLoopbackHost(config.host))
    )
      logger.warn(
        `VIGIL_PUBLIC_URL is not set: links in notifications and emails will point at ${deps.domain.appUrl.base()}; set it to the address people open (docs/deploy.md)`,
      );
    const { adminPort, adminHost = config.host, metricsToken } = config.http;
    if (adminPort !== undefined) {
      admin = await buildAdminServer(deps, ingestLimiter.counter);
      await admin.listen({ host: adminHost, port: adminPort });
      adminUrl = `http://${bracketed(adminHost)}:${listeningPort(admin, adminPort)}`;
      logger.info({ url: adminUrl }, `Health and metrics listening at ${adminUrl}`);
      if (metricsToken === undefined && !isLoopbackHost(adminHost))
        logger.warn(
          `/metrics on the admin port is open to anyone who reaches ${adminHost}: set VIGIL_METRICS_TOKEN, or VIGIL_ADMIN_HOST=127.0.0.1 (docs/deploy.md)`,
        );
    } else if (metricsToken === undefined) {
      logger.warn(
        "/metrics is open to anyone who reaches the HTTP port: set VIGIL_METRICS_TOKEN, or VIGIL_ADMIN_PORT to serve it on a port of its own (docs/deploy.md)",
      );
    }
    if (grpc) {
      grpcUrl = await listenGrpc(grpc, config, logger);
      if (grpcUrl === undefined) grpc = undefined;
    }
    await startBackgroundWork(deps);
  } catch (error) {
    await admin?.close();
    await app?.close();
    await grpc?.close(0);
    await closeDeps(deps);
    if (redis) await closeRateLimitRedis(redis);
    throw error;
  }
  const server = app;
  const adminServer = admin;
  let stopping: Promise<void> | undefined;
  return {
    url: `http://${bracketed(config.host)}:${listeningPort(server, config.port)}`,
    grpcUrl,
    adminUrl,
    deps,
    app: server,
    admin: adminServer,
    grpc,
    stop() {
      stopping ??= (async () => {
        try {
          // Both transports stop accepting and drain at once; the stores close after both.
          if (grpc?.inFlight) logger.info({ inFlight: grpc.inFlight }, "Draining OTLP/gRPC calls");
          const closed = await Promise.allSettled([
            server.close(),
            adminServer?.close(),
            grpc?.close(grpcDrainMs),
          ]);
          for (const result of closed) if (result.status === "rejected") throw result.reason;
        } finally {
          try {
            await closeDeps(deps);
          } finally {
            if (redis) await closeRateLimitRedis(redis);
          }
        }
      })();
      return stopping;
    },
  };
}

/**
 * Binds OTLP/gRPC. A port the operator chose must bind (the error stops the service); the
 * default one may be taken by a second instance or a local Collector, which only costs gRPC
 * ingestion: then (EADDRINUSE only) the service runs without it and the warning names the
 * setting. Any other failure (a host this machine lacks, a port it may not bind) stops it.
 */
async function listenGrpc(
  grpc: OtlpGrpcServer,
  config: Config,
  logger: Logger,
): Promise<string | undefined> {
  const host = config.grpc.host ?? config.host;
  let port: number;
  try {
    port = await grpc.listen(host, config.grpc.port ?? DEFAULT_GRPC_PORT);
  } catch (error) {
    const busy = error instanceof GrpcListenError && error.code === "EADDRINUSE";
    if (config.grpc.port !== undefined || !busy) throw error;
    await grpc.close(0);
    logger.warn(
      `OTLP/gRPC is off: the default port ${DEFAULT_GRPC_PORT} on ${host} is busy (a second Vigil, or a local OpenTelemetry Collector?). ` +
        "OTLP/HTTP is unaffected. Set VIGIL_GRPC_PORT (grpc.port, --grpc-port) to a free port to serve it, or VIGIL_GRPC_ENABLED=false to silence this. " +
        `(${(error as Error).message})`,
    );
    return undefined;
  }
  const url = `http://${bracketed(host)}:${port}`;
  logger.info({ url }, `OTLP/gRPC listening at ${url}`);
  return url;
}

const bracketed = (host: string): string => (host.includes(":") ? `[${host}]` : host);

/** The port a listening server got (an ephemeral one when 0 was asked for). */
function listeningPort(app: FastifyInstance, asked: number): number {
  const address = app.server.address();
  return typeof address === "object" && address ? address.port : asked;
}

/** Runs until SIGTERM/SIGINT, then shuts down gracefully within the configured timeout. */
export async function serveUntilSignalled(
  service: RunningService,
  logger: Logger,
  timeoutSeconds: number,
): Promise<number> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
      logger.info({ signal }, "Shutting down: draining in-flight requests");
      const timer = setTimeout(() => {
        logger.error(`Shutdown did not finish within ${timeoutSeconds} s; exiting`);
        resolve(1);
      }, timeoutSeconds * 1000);
      timer.unref();
      service.stop().then(
        () => {
          clearTimeout(timer);
          logger.info("Stopped");
          resolve(0);
        },
        (error: unknown) => {
          clearTimeout(timer);
          logger.error({ err: error }, "Shutdown failed");
          resolve(1);
        },
      );
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  });
}
