import type { AppDeps } from "./app-deps.js";

/**
 * Starts the background work: scheduled checks, the notification outbox, webhook delivery and
 * the retention sweeps.
 */
export async function startBackgroundWork(deps: AppDeps): Promise<void> {
  // API nodes serve requests only; workers (or one process doing it all) run the rest.
  if (deps.config.role === "api") return;
  deps.notifier.start();
  deps.escalation.worker.start();
  deps.monitors.retention.start();
  deps.statusPages.ticker.start();
  deps.statusPages.subscribers.start();
  deps.webhooks.retention.start();
  if (deps.config.webhooks.enabled) deps.webhooks.deliverer.start();
  await deps.monitors.scheduler?.start();
  deps.heartbeats.watcher?.start();
  await deps.alerts.scheduler?.start();
}

/** Writes what ingestion accepted, then closes the engines: telemetry last, after its in-flight queries. */
export async function closeDeps(deps: AppDeps): Promise<void> {
  try {
    // Checks in flight are cancelled (not recorded) so accepted telemetry is written in time.
    deps.monitors.engine.abort();
    await deps.monitors.scheduler?.stop();
    await deps.heartbeats.watcher?.stop();
    await deps.monitors.engine.idle();
    // The recorded checks' points, before ingestion stops accepting.
    await deps.monitors.checkMetrics.close();
    // Evaluations in flight finish and are recorded (their queries are bounded by the TQL limit).
    await deps.alerts.scheduler?.stop();
    await deps.alerts.engine.idle();
    // Steps already queued are sent by the notifier, which stops after.
    await deps.escalation.worker.stop();
    await deps.notifier.stop();
    await deps.statusPages.ticker.stop();
    await deps.statusPages.subscribers.stop();
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
