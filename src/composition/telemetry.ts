import type { Logger } from "pino";
import type { Config } from "../config/config-schema.js";
import type { ErrorTransition } from "../ingest/error-groups.js";
import { createIngestService, type IngestService } from "../ingest/ingest.js";
import { ByteBudget } from "../lib/byte-budget.js";
import type { Clock } from "../lib/clock.js";
import type { Metrics } from "../lib/metrics.js";
import type { MetaStore } from "../meta/meta-store.js";
import { createReadDeps, type ReadDeps } from "../read/read-deps.js";
import type { OrganizationOf } from "../telemetry/admission-options.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import { createTqlService, type TqlService } from "../tql/tql-service.js";

/** OTLP ingestion on the telemetry store; error groups are locked through the metadata store. */
export function createIngest(
  config: Config,
  deps: {
    logger: Logger;
    metrics: Metrics;
    telemetry: TelemetryExecutor;
    meta: MetaStore;
    onErrorTransitions?: (transitions: readonly ErrorTransition[]) => void;
  },
): IngestService {
  return createIngestService({
    config,
    logger: deps.logger,
    metrics: deps.metrics,
    telemetry: deps.telemetry,
    errorGroupLock: deps.meta.keyLock,
    ...(deps.onErrorTransitions ? { onErrorTransitions: deps.onErrorTransitions } : {}),
  });
}

/** OTLP body bytes held at once, received and decompressed, by OTLP/HTTP and OTLP/gRPC alike. */
export function createBodyBudget(config: Config, metrics: Metrics): ByteBudget {
  return new ByteBudget(config.ingest.maxInflightBytes, (used) =>
    metrics.ingestInflightBytes.set(used),
  );
}

/**
 * The organization of a project, remembered once read (a project never moves), and then known at
 * once: the engine admissions share the engine between organizations first. Forgets everything
 * past 10,000 projects.
 */
export function organizationsOf(meta: MetaStore): OrganizationOf {
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

/** TQL over the telemetry store within `tql`'s limits; refusals are counted by reason. */
export function createTql(
  config: Config,
  deps: { telemetry: TelemetryExecutor; metrics: Metrics; organizationOf: OrganizationOf },
): TqlService {
  return createTqlService({
    executor: deps.telemetry,
    limits: config.tql,
    organizationOf: deps.organizationOf,
    onRefused: (reason) => deps.metrics.tqlRefused.inc({ reason }),
  });
}

/** What the /v1 read API's verbs run on: the store, behind the read admission's bounds. */
export function createRead(
  config: Config,
  deps: {
    telemetry: TelemetryExecutor;
    clock: Clock;
    ingest: IngestService;
    metrics: Metrics;
    organizationOf: OrganizationOf;
  },
): ReadDeps {
  const { metrics } = deps;
  return createReadDeps(
    {
      telemetry: deps.telemetry,
      clock: deps.clock,
      errorGroups: deps.ingest.errorGroups,
      catalog: deps.ingest.catalog,
    },
    {
      maxPending: config.telemetry.maxPendingReads,
      maxWaitMs: config.telemetry.maxReadWaitMs,
      // The read API's two documented reasons: a count bound (its own or its project's), or the wait.
      onRefused: (reason) =>
        metrics.telemetryReadsRefused.inc({ reason: reason === "wait" ? "wait" : "pending" }),
    },
    deps.organizationOf,
  );
}
