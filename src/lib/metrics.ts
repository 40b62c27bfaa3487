import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** Prometheus instruments for one process, on its own registry (no global state). */
export interface Metrics {
  registry: Registry;
  observeHttp(labels: { method: string; route: string; status: number }, seconds: number): void;
  observeStore(
    labels: { store: "meta" | "telemetry"; operation: string; failed: boolean },
    seconds: number,
  ): void;
  /** OTLP items (spans, log records, data points) accepted or rejected, by signal. */
  ingestedItems: Counter<"signal" | "outcome">;
  /** Error groups created or regressed by ingestion. */
  errorGroupTransitions: Counter<"kind">;
  /** What the service map's pairing made of spans, by outcome (ingest/derive/service-edges.ts). */
  serviceEdgeSpans: Counter<"outcome">;
  /** Monitor checks by trigger (scheduled, manual) and outcome (passed, failed). */
  monitorChecks: Counter<"trigger" | "outcome">;
  /** Scheduled checks skipped because the monitor's previous run was still going. */
  monitorChecksSkipped: Counter;
  /** How late a scheduled check started after its slot. */
  monitorScheduleLag: Histogram;
  /** Outages started and ended. */
  monitorTransitions: Counter<"kind">;
  /** Heartbeat pings by outcome (recorded, started, ignored, unknown). */
  heartbeatPings: Counter<"outcome">;
  /** Missed heartbeat pings recorded by the deadline watcher. */
  heartbeatMissed: Counter;
  /** How long after its deadline a missed ping was recorded. */
  heartbeatLateness: Histogram;
  /** Alert rule evaluations by outcome (ok, error, gone: the rule was deleted meanwhile). */
  alertEvaluations: Counter<"outcome">;
  /** Delay between an alert rule's slot and the start of its evaluation. */
  alertEvaluationLag: Histogram;
  /** How long one evaluation took: the query and the recording. */
  alertEvaluationDuration: Histogram;
  /** Series state changes by the state entered (pending, firing, ok), and rules entering error. */
  alertTransitions: Counter<"to">;
  /** Notification delivery attempts by outcome (sent, retry, failed). */
  notificationDeliveries: Counter<"outcome">;
  /** Status page subscribers' messages by kind (email, webhook) and outcome (sent, retry, failed). */
  subscriberMessages: Counter<"kind" | "outcome">;
  /** Webhook attempts by outcome (succeeded, retry, failed). */
  webhookDeliveries: Counter<"outcome">;
  /** Round-trip time of webhook attempts. */
  webhookAttemptSeconds: Histogram;
  /** From a delivery's enqueue to its first attempt. */
  webhookQueueSeconds: Histogram;
  /** OTLP body bytes held now (received and decompressed), against ingest.maxInflightBytes. */
  ingestInflightBytes: Gauge;
  /** Connections closed at accept because their address had too many open. */
  connectionsRefused: Counter;
  /** Connections closed, near the connection cap, for waiting longest without a whole request. */
  connectionsShed: Counter;
  /** Failed or timed-out Redis rate-limit calls (`command`) and Redis connection errors. */
  rateLimitStoreErrors: Counter<"kind">;
  /** Rate-limit hits counted in this node's memory because Redis was unavailable (fail open). */
  rateLimitLocalCounts: Counter;
  /**
   * Read API statements and trace lookups refused: `pending` when `telemetry.maxPendingReads`
   * (or the project's half of it) were pending, `wait` when a statement waited or would wait
   * `telemetry.maxReadWaitMs` for the engine.
   */
  telemetryReadsRefused: Counter<"reason">;
  /** TQL queries, previews and alert evaluations the engine admission refused, by reason. */
  tqlRefused: Counter<"reason">;
  /**
   * Sign-ins refused by a limit (`address`, `account`, `address_account`: 429), and password
   * hashes refused because `auth.maxQueuedHashes` were already waiting (`hashing`: 503).
   */
  authRefused: Counter<"reason">;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "vigil_" });
  const httpRequests = new Counter({
    name: "vigil_http_requests_total",
    help: "HTTP requests by route, method and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: "vigil_http_request_duration_seconds",
    help: "HTTP request latency by route",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const storeDuration = new Histogram({
    name: "vigil_store_query_duration_seconds",
    help: "Latency of metadata and telemetry store queries",
    labelNames: ["store", "operation", "outcome"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30],
    registers: [registry],
  });
  const ingestedItems = new Counter({
    name: "vigil_ingested_items_total",
    help: "OTLP spans, log records and data points by signal and outcome (accepted, rejected)",
    labelNames: ["signal", "outcome"] as const,
    registers: [registry],
  });
  const errorGroupTransitions = new Counter({
    name: "vigil_error_group_transitions_total",
    help: "Error groups created or regressed by ingestion",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  const serviceEdgeSpans = new Counter({
    name: "vigil_service_edge_spans_total",
    help: "Spans the service map's pairing looked at, by outcome: paired (a call met the span it caused), immediate (a database call), external (a client span nobody answered, recorded as a call to its peer), expired (left unpaired, nothing recorded), dropped (the store of waiting spans was full)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  for (const outcome of ["paired", "immediate", "external", "expired", "dropped"])
    serviceEdgeSpans.inc({ outcome }, 0);
  const monitorChecks = new Counter({
    name: "vigil_monitor_checks_total",
    help: "Monitor checks by trigger and outcome",
    labelNames: ["trigger", "outcome"] as const,
    registers: [registry],
  });
  const monitorChecksSkipped = new Counter({
    name: "vigil_monitor_checks_skipped_total",
    help: "Scheduled checks skipped because the previous run of the monitor was still in flight",
    registers: [registry],
  });
  const monitorScheduleLag = new Histogram({
    name: "vigil_monitor_schedule_lag_seconds",
    help: "Delay between a scheduled check's slot and its start",
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers: [registry],
  });
  const monitorTransitions = new Counter({
    name: "vigil_monitor_transitions_total",
    help: "Monitor outages started and recovered",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  const heartbeatPings = new Counter({
    name: "vigil_heartbeat_pings_total",
    help: "Heartbeat pings by outcome (recorded, started, ignored, unknown)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const heartbeatMissed = new Counter({
    name: "vigil_heartbeat_missed_total",
    help: "Missed heartbeat pings recorded by the deadline watcher",
    registers: [registry],
  });
  const heartbeatLateness = new Histogram({
    name: "vigil_heartbeat_lateness_seconds",
    help: "Delay between a heartbeat's deadline and the record of its missed ping",
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers: [registry],
  });
  const alertEvaluations = new Counter({
    name: "vigil_alert_evaluations_total",
    help: "Alert rule evaluations by outcome (ok, error, gone)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const alertEvaluationLag = new Histogram({
    name: "vigil_alert_evaluation_lag_seconds",
    help: "Delay between an alert rule's scheduled slot and the start of its evaluation",
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers: [registry],
  });
  const alertEvaluationDuration = new Histogram({
    name: "vigil_alert_evaluation_duration_seconds",
    help: "Time to evaluate one alert rule: its query and the recording",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const alertTransitions = new Counter({
    name: "vigil_alert_transitions_total",
    help: "Alert series state changes by the state entered (pending, firing, ok) and rules entering error",
    labelNames: ["to"] as const,
    registers: [registry],
  });
  const notificationDeliveries = new Counter({
    name: "vigil_notification_deliveries_total",
    help: "Notification delivery attempts by outcome: sent, retry (will try again), failed (for good)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const subscriberMessages = new Counter({
    name: "vigil_status_page_subscriber_messages_total",
    help: "Status page subscribers' messages (confirmations, announcements) by kind (email, webhook) and outcome: sent, retry, failed (for good)",
    labelNames: ["kind", "outcome"] as const,
    registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: "vigil_webhook_deliveries_total",
    help: "Webhook attempts by outcome: succeeded, retry (attempt 2 in 60 s), failed (for good)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const webhookAttemptSeconds = new Histogram({
    name: "vigil_webhook_attempt_duration_seconds",
    help: "Round-trip time of webhook attempts, including those that failed",
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const webhookQueueSeconds = new Histogram({
    name: "vigil_webhook_queue_seconds",
    help: "Time from a webhook delivery's enqueue to its first attempt",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30],
    registers: [registry],
  });
  const ingestInflightBytes = new Gauge({
    name: "vigil_ingest_inflight_body_bytes",
    help: "OTLP body bytes held in memory now, as received and decompressed",
    registers: [registry],
  });
  const connectionsRefused = new Counter({
    name: "vigil_http_connections_refused_total",
    help: "Connections closed at accept because their address had too many open",
    registers: [registry],
  });
  const connectionsShed = new Counter({
    name: "vigil_http_connections_shed_total",
    help: "Connections closed near the connection cap because they waited longest without a whole request",
    registers: [registry],
  });
  const rateLimitStoreErrors = new Counter({
    name: "vigil_rate_limit_store_errors_total",
    help: "Redis rate-limit failures: calls that failed or timed out (command), connection errors (connection)",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  const telemetryReadsRefused = new Counter({
    name: "vigil_telemetry_reads_refused_total",
    help: "Read API statements and trace lookups refused (503): reason pending when telemetry.maxPendingReads of their kind (or their project's half of it) were already pending, wait when a statement waited or would wait telemetry.maxReadWaitMs for the engine",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  // Both series from the start, at 0, so a rate over them works before the first refusal.
  for (const reason of ["pending", "wait"]) telemetryReadsRefused.inc({ reason }, 0);
  const authRefused = new Counter({
    name: "vigil_auth_refused_total",
    help: "Sign-ins refused (429) by the failed sign-ins per address (address) or per email (account), or the attempts per address and email (address_account); password hashes refused (503) with auth.maxQueuedHashes waiting (hashing)",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  for (const reason of ["address", "account", "address_account", "hashing"])
    authRefused.inc({ reason }, 0);
  const tqlRefused = new Counter({
    name: "vigil_tql_refused_total",
    help: "TQL queries, previews and alert evaluations refused by the engine admission: tenant or group when the project's (tql.maxConcurrentPerProject) or organization's (tql.maxConcurrentPerOrganization) queries were already running or waiting (429), deadline when one waited its whole time limit for a turn, pending when too many waited in all (503)",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  for (const reason of ["tenant", "group", "deadline", "pending"]) tqlRefused.inc({ reason }, 0);
  const rateLimitLocalCounts = new Counter({
    name: "vigil_rate_limit_local_counts_total",
    help: "Rate-limit hits counted in this node's memory because Redis was unavailable; limits then hold per node",
    registers: [registry],
  });
  return {
    registry,
    rateLimitStoreErrors,
    rateLimitLocalCounts,
    telemetryReadsRefused,
    tqlRefused,
    authRefused,
    ingestInflightBytes,
    connectionsRefused,
    connectionsShed,
    webhookDeliveries,
    webhookAttemptSeconds,
    webhookQueueSeconds,
    ingestedItems,
    errorGroupTransitions,
    serviceEdgeSpans,
    monitorChecks,
    monitorChecksSkipped,
    monitorScheduleLag,
    monitorTransitions,
    heartbeatPings,
    heartbeatMissed,
    heartbeatLateness,
    alertEvaluations,
    alertEvaluationLag,
    alertEvaluationDuration,
    alertTransitions,
    notificationDeliveries,
    subscriberMessages,
    observeHttp({ method, route, status }, seconds) {
      const labels = { method, route, status: String(status) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, seconds);
    },
    observeStore({ store, operation, failed }, seconds) {
      storeDuration.observe({ store, operation, outcome: failed ? "error" : "ok" }, seconds);
    },
  };
}
