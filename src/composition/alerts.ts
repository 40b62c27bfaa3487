import type { Logger } from "pino";
import { type AlertEngine, createAlertEngine } from "../alerts/evaluator.js";
import { incidentVerbs } from "../alerts/incidents-port.js";
import { createAlertScheduler } from "../alerts/scheduler.js";
import type { Config } from "../config/config-schema.js";
import type { WorkerLeases } from "../lib/leased-scheduler.js";
import type { Metrics } from "../lib/metrics.js";
import type { PeriodicScheduler } from "../lib/periodic-scheduler.js";
import type { MetaStore } from "../meta/meta-store.js";
import type { TqlService } from "../tql/tql-service.js";
import type { WebhookService } from "../webhooks/webhook-service.js";
import type { CoreDeps } from "./domain-deps.js";

/**
 * Alert rule evaluation and, when this process runs it, the scheduler: rule create, update,
 * mute and delete call `scheduler?.schedule/unschedule`; its periodic sync catches the rest.
 */
export interface AppAlerts {
  engine: AlertEngine;
  scheduler?: PeriodicScheduler | undefined;
}

/** Rules evaluate their TQL, open and resolve incidents, and tell webhooks and status pages. */
export function createAlerts(
  config: Config,
  deps: {
    meta: MetaStore;
    domain: CoreDeps;
    tql: TqlService;
    webhooks: Pick<WebhookService, "enqueueIn" | "kick">;
    onNotificationsQueued: () => void;
    logger: Logger;
    metrics: Metrics;
    lease: WorkerLeases | undefined;
  },
): AppAlerts {
  const { meta, domain, tql, logger, metrics, lease } = deps;
  const engine = createAlertEngine({
    meta,
    clock: domain.clock,
    newId: domain.newId,
    query: (projectId, text) => tql.queryForAlert(projectId, text),
    incidents: incidentVerbs(domain),
    webhooks: deps.webhooks,
    statusPages: domain.statusPages,
    onNotificationsQueued: deps.onNotificationsQueued,
    logger,
    metrics,
  });
  const scheduler =
    lease && config.alerts.enabled
      ? createAlertScheduler({
          engine,
          rules: meta.repos.alertRules,
          clock: domain.clock,
          concurrency: config.alerts.concurrency,
          logger,
          metrics,
          lease,
        })
      : undefined;
  return { engine, scheduler };
}
