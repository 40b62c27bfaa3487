import { createHmac, randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Logger } from "pino";
import { type AlertEngine, createAlertEngine } from "../alerts/evaluator.js";
import { incidentVerbs } from "../alerts/incidents-port.js";
import type { AlertRuleDeps } from "../alerts/rules.js";
import { createAlertScheduler } from "../alerts/scheduler.js";
import { LoginThrottle } from "../auth/login-throttle.js";
import { type Config, readPemSetting } from "../config.js";
import type { DomainDeps } from "../context.js";
import { createEventBus } from "../events/event-bus.js";
import type { IncidentApiDeps } from "../incidents/manage.js";
import { createIngestService, type IngestService } from "../ingest/ingest.js";
import { ByteBudget } from "../lib/byte-budget.js";
import { type Clock, systemClock } from "../lib/clock.js";
import { createOutboundAgent } from "../lib/http/outbound-agent.js";
import { type IdGenerator, newId } from "../lib/ids.js";
import type { WorkerLeases } from "../lib/leased-scheduler.js";
import { createMetrics, type Metrics } from "../lib/metrics.js";
import { PasswordHasher } from "../lib/password-hasher.js";
import type { PeriodicScheduler } from "../lib/periodic-scheduler.js";
import { createRetentionSweep, type RetentionSweep } from "../lib/retention-sweep.js";
import { createSecretBox, loadSecretKey } from "../lib/secret-box.js";
import { openMetaDatabase } from "../meta/database.js";
import { createMetaStore, type MetaStore } from "../meta/meta-store.js";
import { createMonitorEngine } from "../monitors/engine.js";
import { listScheduleEntries, type MonitorDeps } from "../monitors/monitors.js";
import { createResultRetention, type ResultRetention } from "../monitors/retention.js";
import { createCheckRunner } from "../monitors/runner.js";
import { createMonitorScheduler, type MonitorScheduler } from "../monitors/scheduler.js";
import { createSmtpMailer } from "../notifications/channels/mailer.js";
import type { ChannelService } from "../notifications/channels.js";
import {
  createNotificationDispatcher,
  type NotificationDispatcher,
} from "../notifications/dispatcher.js";
import { createReadDeps, type ReadDeps } from "../read/read-deps.js";
import { MemoryRateLimitCounter, type RateLimitCounter } from "../server/rate-limit-counter.js";
import { createStatusPageEngine } from "../status-pages/engine.js";
import { createStatusPageReader, type StatusPageReader } from "../status-pages/reader.js";
import { createStatusPageTicker, type StatusPageTicker } from "../status-pages/ticker.js";
import { createTelemetryExecutor } from "../telemetry/adapters.js";
import type { OrganizationOf } from "../telemetry/engine-admission.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import { instrumentExecutor } from "../telemetry/instrumented-executor.js";
import { ensureTelemetrySchema } from "../telemetry/schema.js";
import { createTqlService, type TqlService } from "../tql/service.js";
import { errorEventPayload } from "../webhooks/event-types.js";
import { createWebhookService, type WebhookService } from "../webhooks/service.js";

/** Everything the service runs on, built once at start-up and passed down. */
export interface AppDeps {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  meta: MetaStore;
  telemetry: TelemetryExecutor;
  /** OTLP ingestion: mapping, derived data and the batch writer. */
  ingest: IngestService;
  /** OTLP body bytes held at once, received and decompressed, by OTLP/HTTP and OTLP/gRPC alike. */
  bodyBudget: ByteBudget;
  /** TQL: project-confined SELECTs over the telemetry tables. */
  tql: TqlService;
  /** What the /v1 read API's verbs run on. */
  read: ReadDeps;
  /** What every domain verb's `ctx.deps` holds: the base and each domain's section. */
  domain: AppDomainDeps;
  /** HTTP monitors: the check engine and, when this process runs them, the scheduler. */
  monitors: MonitorDeps & { scheduler?: MonitorScheduler | undefined; retention: ResultRetention };
  /** Notification channels (secrets sealed with the server key) and the outbox dispatcher. */
  channels: ChannelService;
  notifier: NotificationDispatcher;
  /**
   * Alert rule evaluation and, when this process runs it, the scheduler: rule create, update,
   * mute and delete call `scheduler?.schedule/unschedule`; its periodic sync catches the rest.
   */
  alerts: { engine: AlertEngine; scheduler?: PeriodicScheduler | undefined };
  /** Webhook endpoints' delivery: the guarded transport, the deliverer and log retention. */
  webhooks: WebhookService & {
    retention: RetentionSweep;
    /** Resolves once the error events ingestion published so far are enqueued. */
    settled(): Promise<void>;
  };
  /** Status pages: cached public reads and the ticker (maintenance edges, reconciliation). */
  statusPages: { reader: StatusPageReader; ticker: StatusPageTicker };
  /** Closes the outbound HTTP pools and the SMTP transport. */
  closeOutbound(): Promise<void>;
}

/** The base domain deps and the section each domain's verbs need, under the domain's name. */
export interface AppDomainDeps extends DomainDeps {
  monitors: AppDeps["monitors"];
  alertRules: AlertRuleDeps;
  incidents: IncidentApiDeps;
  channels: ChannelService;
  webhooks: WebhookService;
  tql: TqlService;
  read: ReadDeps;
}

export interface DepsOptions {
  logger: Logger;
  metrics?: Metrics;
  clock?: Clock;
  newId?: IdGenerator;
  /** Where the sign-in limits count: the server's rate-limit counter; in memory when not given. */
  rateLimits?: RateLimitCounter;
}

/** Opens and migrates the metadata store (SQLite under the data dir, or PostgreSQL). */
export async function openMetaStore(
  config: Config,
  metrics?: Metrics,
  logger?: Logger,
): Promise<MetaStore> {
  const database = openMetaDatabase({
    url: config.meta.url,
    dataDir: config.dataDir,
    onConnectionError: (error) =>
      logger?.warn({ err: error.message }, "metadata store connection lost; it will reconnect"),
    onQuery:
      metrics &&
      ((seconds, failed) =>
        metrics.observeStore({ store: "meta", operation: "query", failed }, seconds)),
  });
  const store = createMetaStore(database);
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/** Opens the telemetry engine and makes sure the six tables exist with the configured retention. */
export async function openTelemetryStore(
  config: Config,
  metrics?: Metrics,
): Promise<TelemetryExecutor> {
  const raw = await createTelemetryExecutor(config);
  const executor = metrics
    ? instrumentExecutor(raw, (operation, seconds, failed) =>
        metrics.observeStore({ store: "telemetry", operation, failed }, seconds),
      )
    : raw;
  try {
    await ensureTelemetrySchema(executor, {
      retentionDays: config.telemetry.retentionDays,
      cluster: config.telemetry.cluster,
    });
  } catch (error) {
    await executor.close();
    throw error;
  }
  return executor;
}

/** Password hashing and the sign-in limits as `auth` configures them (refusals counted in metrics). */
export function createAuthDeps(
  auth: Config["auth"],
  options: Pick<DepsOptions, "metrics" | "rateLimits"> & { secretKey?: Buffer },
): Pick<DomainDeps, "passwords" | "loginThrottle"> {
  const refused = options.metrics?.authRefused;
  return {
    passwords: new PasswordHasher(
      { maxConcurrent: auth.maxConcurrentHashes, maxQueued: auth.maxQueuedHashes },
      () => refused?.inc({ reason: "hashing" }),
    ),
    loginThrottle: new LoginThrottle(
      // Shared across nodes when it is Redis. In memory, the sign-in limits get a counter of their
      // own: its windows are evicted oldest first, so a flood of API keys or sign-in addresses
      // must not push out the other's (known addresses most of all).
      options.rateLimits instanceof MemoryRateLimitCounter || !options.rateLimits
        ? new MemoryRateLimitCounter()
        : options.rateLimits,
      {
        failuresPerAddress: auth.loginFailuresPerAddress,
        addressWindowMinutes: auth.loginAddressWindowMinutes,
        failuresPerAccount: auth.loginFailuresPerAccount,
        accountWindowMinutes: auth.loginAccountWindowMinutes,
        knownAddressDays: auth.knownAddressDays,
      },
      (reason) => refused?.inc({ reason }),
      // A key of its own, derived from the server's: the counter keys' digests cannot be reversed.
      options.secretKey &&
        createHmac("sha256", options.secretKey).update("login counter keys").digest(),
    ),
  };
}

export function createDomainDeps(
  config: Config,
  meta: MetaStore,
  options: Pick<DepsOptions, "clock" | "newId" | "metrics" | "rateLimits"> & { secretKey?: Buffer },
): DomainDeps {
  const clock = options.clock ?? systemClock;
  return {
    meta,
    clock,
    newId: options.newId ?? newId,
    sessionTtlHours: config.auth.sessionTtlHours,
    ...createAuthDeps(config.auth, options),
    statusPages: createStatusPageEngine({ clock }),
  };
}

/** The composition root's one constructor: both stores, metrics and domain deps. */
export async function createDeps(config: Config, options: DepsOptions): Promise<AppDeps> {
  const metrics = options.metrics ?? createMetrics();
  const meta = await openMetaStore(config, metrics, options.logger);
  let telemetry: TelemetryExecutor;
  try {
    telemetry = await openTelemetryStore(config, metrics);
  } catch (error) {
    await meta.close();
    throw error;
  }
  const secretKey = loadSecretKey(config, meta.engine);
  const domain = createDomainDeps(config, meta, { ...options, metrics, secretKey });
  const { logger } = options;
  const secretBox = createSecretBox(secretKey);
  const service = createWebhookService(config.webhooks, {
    meta,
    clock: domain.clock,
    newId: domain.newId,
    logger,
    metrics,
    secretBox,
    ca: readPemSetting("VIGIL_WEBHOOKS_CA_FILE", config.webhooks.caFile),
  });
  const { publish } = service;
  const publishing = new Set<Promise<unknown>>();
  const webhooks: AppDeps["webhooks"] = {
    ...service,
    async settled() {
      while (publishing.size > 0) await Promise.allSettled([...publishing]);
    },
    retention: createRetentionSweep({
      clock: domain.clock,
      logger,
      what: "webhook delivery records",
      retentionDays: config.webhooks.logRetentionDays,
      deleteBatch: async (cutoff, limit) =>
        (await meta.repos.webhookDeliveries.deleteAttemptsBefore(cutoff, limit)) +
        (await meta.repos.webhookDeliveries.deleteFinishedBefore(cutoff, limit)),
    }),
  };
  const ingest = createIngestService({
    config,
    logger,
    metrics,
    telemetry,
    errorGroupLock: meta.keyLock,
    // New and regressed error groups become error.created / error.regressed webhooks.
    onErrorTransitions: (transitions) => {
      for (const t of transitions) {
        const enqueued = publish({
          // One event per group, kind and last occurrence: a re-run never enqueues it twice.
          id: `error.${t.kind}:${t.group.fingerprint}:${t.group.lastSeenMs}`,
          type: `error.${t.kind}`,
          projectId: t.group.projectId,
          data: errorEventPayload(t.group),
          occurredAt: domain.clock.now().toISOString(),
        }).catch((error: unknown) =>
          logger.error(
            { err: (error as Error).message, fingerprint: t.group.fingerprint },
            `could not enqueue the error.${t.kind} webhooks`,
          ),
        );
        publishing.add(enqueued);
        void enqueued.finally(() => publishing.delete(enqueued));
      }
    },
  });
  // One guarded keep-alive pool for every request to a user-supplied URL (monitors, Slack).
  const outbound = createOutboundAgent({
    allowPrivateNetworks: config.monitors.allowPrivateTargets,
  });
  const mailer = createSmtpMailer(config.smtp);
  const eventBus = createEventBus();
  // The monitors' webhook channel publishes monitor.down / monitor.recovered here.
  eventBus.subscribe(async (event) => {
    await publish(event);
  });
  const channels: ChannelService = {
    secretBox,
    channelDeps: {
      eventBus,
      dispatcher: outbound,
      mailer,
      allowPrivateTargets: config.monitors.allowPrivateTargets,
    },
  };
  const notifier = createNotificationDispatcher({
    meta,
    clock: domain.clock,
    logger,
    metrics,
    ...channels,
  });
  const engine = createMonitorEngine({
    meta,
    clock: domain.clock,
    newId: domain.newId,
    logger,
    metrics,
    onNotificationsQueued: () => notifier.kick(),
    webhooks: service,
    statusPages: domain.statusPages,
    run: createCheckRunner({ dispatcher: outbound, clock: domain.clock, ...config.monitors }),
  });
  const lease = workerLeases(config, meta);
  const scheduler =
    lease && config.monitors.enabled
      ? createMonitorScheduler({
          engine,
          clock: domain.clock,
          concurrency: config.monitors.concurrency,
          logger,
          metrics,
          listActive: () => listScheduleEntries(meta),
          version: () => meta.repos.monitors.activeVersion(),
          lease,
        })
      : undefined;
  const organizationOf = organizationsOf(meta);
  const tql = createTqlService({
    executor: telemetry,
    limits: config.tql,
    organizationOf,
    onRefused: (reason) => metrics.tqlRefused.inc({ reason }),
  });
  const alertEngine = createAlertEngine({
    meta,
    clock: domain.clock,
    newId: domain.newId,
    query: (projectId, text) => tql.queryForAlert(projectId, text),
    incidents: incidentVerbs(domain),
    webhooks: service,
    statusPages: domain.statusPages,
    onNotificationsQueued: () => notifier.kick(),
    logger,
    metrics,
  });
  const alertScheduler =
    lease && config.alerts.enabled
      ? createAlertScheduler({
          engine: alertEngine,
          rules: meta.repos.alertRules,
          clock: domain.clock,
          concurrency: config.alerts.concurrency,
          logger,
          metrics,
          lease,
        })
      : undefined;
  const retention = createResultRetention({
    meta,
    clock: domain.clock,
    logger,
    retentionDays: config.monitors.resultRetentionDays,
  });
  const read = createReadDeps(
    { telemetry, clock: options.clock ?? systemClock, errorGroups: ingest.errorGroups },
    {
      maxPending: config.telemetry.maxPendingReads,
      maxWaitMs: config.telemetry.maxReadWaitMs,
      // The read API's two documented reasons: a count bound (its own or its project's), or the wait.
      onRefused: (reason) =>
        metrics.telemetryReadsRefused.inc({ reason: reason === "wait" ? "wait" : "pending" }),
    },
    organizationOf,
  );
  const monitors: AppDeps["monitors"] = {
    engine,
    scheduler,
    retention,
    allowPrivateTargets: config.monitors.allowPrivateTargets,
  };
  return {
    config,
    logger: options.logger,
    metrics,
    meta,
    telemetry,
    ingest,
    bodyBudget: new ByteBudget(config.ingest.maxInflightBytes, (used) =>
      metrics.ingestInflightBytes.set(used),
    ),
    tql,
    read,
    domain: {
      ...domain,
      monitors,
      alertRules: {
        tql,
        webhooks,
        scheduler: alertScheduler,
        maxRulesPerProject: config.alerts.maxRulesPerProject,
      },
      incidents: { webhooks },
      channels,
      webhooks,
      tql,
      read,
    },
    monitors,
    channels,
    notifier,
    alerts: { engine: alertEngine, scheduler: alertScheduler },
    webhooks,
    statusPages: {
      reader: createStatusPageReader({ meta, clock: domain.clock }),
      ticker: createStatusPageTicker({ engine: domain.statusPages, meta, logger }),
    },
    async closeOutbound() {
      mailer?.close();
      await Promise.all([outbound.close(), service.close()]);
    },
  };
}

/**
 * Starts the background work: scheduled checks, the notification outbox, webhook delivery and
 * the retention sweeps.
 */
export async function startBackgroundWork(deps: AppDeps): Promise<void> {
  // API nodes serve requests only; workers (or one process doing it all) run the rest.
  if (deps.config.role === "api") return;
  deps.notifier.start();
  deps.monitors.retention.start();
  deps.statusPages.ticker.start();
  deps.webhooks.retention.start();
  if (deps.config.webhooks.enabled) deps.webhooks.deliverer.start();
  await deps.monitors.scheduler?.start();
  await deps.alerts.scheduler?.start();
}

/** Writes what ingestion accepted, then closes the engines: telemetry last, after its in-flight queries. */
export async function closeDeps(deps: AppDeps): Promise<void> {
  try {
    // Checks in flight are cancelled (not recorded) so accepted telemetry is written in time.
    deps.monitors.engine.abort();
    await deps.monitors.scheduler?.stop();
    await deps.monitors.engine.idle();
    // Evaluations in flight finish and are recorded (their queries are bounded by the TQL limit).
    await deps.alerts.scheduler?.stop();
    await deps.alerts.engine.idle();
    await deps.notifier.stop();
    await deps.statusPages.ticker.stop();
    await deps.webhooks.deliverer.stop();
    await deps.monitors.retention.stop();
    await deps.webhooks.retention.stop();
    await deps.closeOutbound();
    await deps.ingest.close();
    // The last batches' error.created / error.regressed are enqueued before the store closes.
    await deps.webhooks.settled();
    await deps.meta.close();
  } finally {
    await deps.telemetry.close();
  }
}

/**
 * A worker's part in the work leases, or undefined on an API node. Every worker, one or many,
 * takes its monitors and alert rules through leases, so one process and a cluster run the same
 * code; a worker id is new at every start.
 */
function workerLeases(config: Config, meta: MetaStore): WorkerLeases | undefined {
  if (config.role === "api") return undefined;
  return {
    workerId: `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`,
    leases: meta.repos.workLeases,
    leaseMs: config.leaseSeconds * 1000,
  };
}

/**
 * The organization of a project, remembered once read (a project never moves), and then known at
 * once: the engine admissions share the engine between organizations first. Forgets everything
 * past 10,000 projects.
 */
function organizationsOf(meta: MetaStore): OrganizationOf {
  const known = new Map<string, string>();
  return (projectId) =>
    known.get(projectId) ??
    meta.repos.projects.findById(projectId).then((project) => {
      if (!project) return undefined;
      if (known.size >= 10_000) known.clear();
      known.set(projectId, project.orgId);
      return project.orgId;
    });
}
