import type { Logger } from "pino";
import type { AlertRuleDeps } from "../alerts/alert-rules.js";
import type { InviteDeps } from "../auth/invites.js";
import type { Config } from "../config/config-schema.js";
import { loadSecretKey } from "../config/secret-key.js";
import type { PanelQueryDeps } from "../dashboards/panel-queries.js";
import { restartEscalation } from "../escalation/escalation-start.js";
import type { IncidentApiDeps } from "../incidents/incidents.js";
import type { IngestService } from "../ingest/ingest.js";
import type { ByteBudget } from "../lib/byte-budget.js";
import type { Clock } from "../lib/clock.js";
import type { IdGenerator } from "../lib/ids.js";
import { createMetrics, type Metrics } from "../lib/metrics.js";
import { createSecretBox } from "../lib/secret-box.js";
import type { MetaStore } from "../meta/meta-store.js";
import type { ChannelService } from "../notifications/channels.js";
import type { NotificationDispatcher } from "../notifications/dispatcher.js";
import type { ReadDeps } from "../read/read-deps.js";
import type { RateLimitCounter } from "../server/rate-limit-counter.js";
import type { StatusPageReadDeps } from "../status-pages/status-page-reads.js";
import type { SubscriberDeps } from "../status-pages/subscribers.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import type { TqlService } from "../tql/tql-service.js";
import type { WebhookService } from "../webhooks/webhook-service.js";
import { type AppAlerts, createAlerts } from "./alerts.js";
import { createDashboardPanels } from "./dashboards.js";
import { type CoreDeps, createDomainDeps } from "./domain-deps.js";
import { type AppEscalation, createEscalation } from "./escalation.js";
import { type AppHeartbeats, createHeartbeats } from "./heartbeats.js";
import { type AppMonitors, createMonitors, createOutbound } from "./monitors.js";
import { createChannels, createNotifier } from "./notifications.js";
import { type AppStatusPages, createStatusPages } from "./status-pages.js";
import { openMetaStore, openTelemetryStore } from "./stores.js";
import {
  createBodyBudget,
  createIngest,
  createRead,
  createTql,
  organizationsOf,
} from "./telemetry.js";
import {
  type AppWebhooks,
  createPendingPublishes,
  createWebhooks,
  errorTransitionWebhooks,
} from "./webhooks.js";
import { workerLeases } from "./worker-leases.js";

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
  monitors: AppMonitors;
  /** Heartbeat monitors: the ping routes' recording and limits, and a worker's deadline watcher. */
  heartbeats: AppHeartbeats;
  /** Notification channels (secrets sealed with the server key) and the outbox dispatcher. */
  channels: ChannelService;
  notifier: NotificationDispatcher;
  /** Escalation policies' worker: due steps through the outbox, stopped on acknowledge or resolve. */
  escalation: AppEscalation;
  /** Alert rule evaluation and, when this process runs it, the scheduler. */
  alerts: AppAlerts;
  /** Webhook endpoints' delivery: the guarded transport, the deliverer and log retention. */
  webhooks: AppWebhooks;
  /** Status pages: cached public reads and the ticker (maintenance edges, reconciliation). */
  statusPages: AppStatusPages;
  /** Closes the outbound HTTP pools and the SMTP transport. */
  closeOutbound(): Promise<void>;
}

/** The base domain deps and the section each domain's verbs need, under the domain's name. */
export interface AppDomainDeps extends CoreDeps {
  monitors: AppDeps["monitors"];
  alertRules: AlertRuleDeps;
  incidents: IncidentApiDeps;
  channels: ChannelService;
  webhooks: WebhookService;
  tql: TqlService;
  /** Dashboards' panel queries: the per-project line and the result cache in front of TQL. */
  dashboards: PanelQueryDeps;
  read: ReadDeps;
  statusPageReads: StatusPageReadDeps;
  /** Status page subscribers: sealing, whether email can be sent, the worker's kick. */
  subscribers: SubscriberDeps;
  ingest: IngestService;
  /** Member invitations: the SMTP mailer they are emailed with (undefined without SMTP). */
  invites: InviteDeps;
}

export interface DepsOptions {
  logger: Logger;
  metrics?: Metrics;
  clock?: Clock;
  newId?: IdGenerator;
  /** Where the sign-in limits count: the server's rate-limit counter; in memory when not given. */
  rateLimits?: RateLimitCounter;
}

/**
 * The composition root's one constructor: both stores, metrics, and each domain's section from
 * its factory in this folder (docs/architecture.md).
 */
export async function createDeps(config: Config, options: DepsOptions): Promise<AppDeps> {
  const { logger } = options;
  const metrics = options.metrics ?? createMetrics();
  const meta = await openMetaStore(config, metrics, logger);
  let telemetry: TelemetryExecutor;
  try {
    telemetry = await openTelemetryStore(config, metrics);
  } catch (error) {
    await meta.close();
    throw error;
  }
  const secretKey = loadSecretKey(config, meta.engine);
  const domain = createDomainDeps(config, meta, { ...options, metrics, secretKey });
  const { clock } = domain;
  const secretBox = createSecretBox(secretKey);
  const pending = createPendingPublishes();
  const webhooks = createWebhooks(config, {
    ...domain,
    meta,
    logger,
    metrics,
    secretBox,
    pending,
  });
  const { publish } = webhooks;
  const ingest = createIngest(config, {
    logger,
    metrics,
    telemetry,
    meta,
    onErrorTransitions: errorTransitionWebhooks({ publish, clock, logger, pending }),
  });
  const outbound = createOutbound(config);
  const { channels, mailer } = createChannels(config, { secretBox, outbound, publish });
  const notifier = createNotifier({ meta, clock, logger, metrics, channels });
  const onNotificationsQueued = () => notifier.kick();
  const escalation = createEscalation({
    meta,
    clock,
    newId: domain.newId,
    appUrl: domain.appUrl,
    logger,
    onNotificationsQueued,
  });
  const lease = workerLeases(config, meta);
  const monitors = createMonitors(config, {
    ...domain,
    meta,
    logger,
    metrics,
    outbound,
    lease,
    ingest,
    secretBox,
    onNotificationsQueued,
    webhooks,
    statusPages: domain.statusPages,
  });
  const heartbeats = createHeartbeats(config, {
    meta,
    clock,
    logger,
    metrics,
    engine: monitors.engine,
  });
  const organizationOf = organizationsOf(meta);
  const tql = createTql(config, { telemetry, metrics, organizationOf });
  const alerts = createAlerts(config, {
    meta,
    domain,
    tql,
    webhooks,
    onNotificationsQueued,
    logger,
    metrics,
    lease,
  });
  const read = createRead(config, { telemetry, clock, ingest, metrics, organizationOf });
  const statusPages = createStatusPages({
    config,
    meta,
    domain,
    logger,
    metrics,
    secretBox,
    mailer,
    outbound,
  });
  return {
    config,
    logger,
    metrics,
    meta,
    telemetry,
    ingest,
    tql,
    read,
    bodyBudget: createBodyBudget(config, metrics),
    domain: {
      ...domain,
      monitors,
      alertRules: {
        tql,
        webhooks,
        scheduler: alerts.scheduler,
        maxRulesPerProject: config.alerts.maxRulesPerProject,
      },
      incidents: { webhooks, restartEscalation },
      channels,
      webhooks,
      tql,
      dashboards: createDashboardPanels(config, { telemetry }),
      read,
      statusPageReads: { reader: statusPages.reader, publicUrl: config.publicUrl },
      subscribers: statusPages.subscriberDeps,
      ingest,
      invites: { mailer },
    },
    monitors,
    heartbeats,
    channels,
    notifier,
    escalation,
    alerts,
    webhooks,
    statusPages,
    async closeOutbound() {
      mailer?.close();
      await Promise.all([outbound.close(), webhooks.close()]);
    },
  };
}
