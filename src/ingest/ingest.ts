import type { Logger } from "pino";
import type { Config } from "../config/config-schema.js";
import type { ApiKeyActor } from "../context.js";
import { ForbiddenError } from "../lib/domain-errors.js";
import type { Metrics } from "../lib/metrics.js";
import type { KeyLock } from "../meta/key-lock.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import { UnixTime } from "../telemetry/unix-time.js";
import { BatchWriter } from "./batch-writer.js";
import { PriceTable } from "./derive/ai-prices.js";
import { CatalogBuffer } from "./derive/catalog-buffer.js";
import { ServiceEdges } from "./derive/service-edges.js";
import { ErrorGroupStore, type ErrorTransition } from "./error-groups.js";
import {
  type EdgeObservation,
  emptyBatch,
  type MappedRequest,
  type MappingOptions,
} from "./ingest-batch.js";
import { mapLogs } from "./map-logs.js";
import { mapMetrics } from "./map-metrics.js";
import { mapTraces } from "./map-traces.js";
import type { Signal, SignalRequest } from "./otlp/otlp-messages.js";

/** What the exporter is told: how many items were rejected and why ('' when none). */
export interface ExportResult {
  accepted: number;
  rejected: number;
  message: string;
}

type Mapper = (request: never, options: MappingOptions, prices: PriceTable) => MappedRequest;

/** One mapper per signal: OTLP request → rows and derived data. */
const MAPPERS: Record<Signal, Mapper> = {
  traces: mapTraces as Mapper,
  logs: mapLogs as Mapper,
  metrics: mapMetrics as Mapper,
};

/** Ingestion as the transports see it: export a decoded request for the calling key's project. */
export interface IngestService {
  export<S extends Signal>(
    actor: ApiKeyActor,
    signal: S,
    request: SignalRequest[S],
  ): Promise<ExportResult>;
  readonly errorGroups: ErrorGroupStore;
  /** The attribute catalog's counts of rows written, not written themselves yet. */
  readonly catalog: CatalogBuffer;
  /** Requests accepted but not yet acknowledged: their rows and how long the oldest has waited. */
  queue(): { pendingRows: number; oldestWaitMs: number };
  /** Stops accepting and writes everything already accepted. */
  close(): Promise<void>;
}

/**
 * The catalog's counts wait at most this long to be written, in one insert for all writes
 * meanwhile, or until this many catalog rows (CatalogBuffer).
 */
const CATALOG_FLUSH_MS = 1000;
const CATALOG_MAX_ROWS = 20_000;

export interface IngestDeps {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  telemetry: TelemetryExecutor;
  /** Guards each error group's read-modify-write across ingesting nodes (metadata store locks). */
  errorGroupLock?: KeyLock;
  onErrorTransitions?: (transitions: readonly ErrorTransition[]) => void;
}

export function createIngestService(deps: IngestDeps): IngestService {
  const { config } = deps;
  const prices = new PriceTable(config.ai.prices);
  const errorGroups = new ErrorGroupStore(deps.telemetry, deps.errorGroupLock);
  const catalog = new CatalogBuffer(deps.telemetry, {
    flushMs: CATALOG_FLUSH_MS,
    maxRows: CATALOG_MAX_ROWS,
    logger: deps.logger,
  });
  const writer = new BatchWriter(deps.telemetry, errorGroups, {
    catalog,
    maxQueuedRows: config.ingest.queueMaxRows,
    maxBatchRows: 50_000,
    lingerMs: 2,
    writeIntervalMs: config.ingest.writeIntervalMs,
    logger: deps.logger,
    onErrorTransitions: (transitions) => {
      for (const t of transitions) {
        deps.metrics.errorGroupTransitions.inc({ kind: t.kind });
        deps.logger.info(
          {
            fingerprint: t.group.fingerprint,
            projectId: t.group.projectId,
            type: t.group.exceptionType,
          },
          t.kind === "created" ? "new error group" : "error group regressed",
        );
      }
      deps.onErrorTransitions?.(transitions);
    },
  });
  const limits = {
    maxValueLength: config.ingest.maxAttributeLength,
    maxAttributes: config.ingest.maxAttributes,
  };
  // The service map's pairing (docs/services.md): calls whose other half arrives later, or never,
  // are written by the sweep in a batch of their own.
  const edges = new ServiceEdges({
    waitMs: config.ingest.serviceEdgeWaitSeconds * 1000,
    maxPending: config.ingest.serviceEdgeMaxPending,
    count: (outcome, n) => deps.metrics.serviceEdgeSpans.inc({ outcome }, n),
  });
  const writeEdges = async (observations: EdgeObservation[]) => {
    if (observations.length === 0) return;
    try {
      await writer.submit({ ...emptyBatch(), edges: observations });
    } catch (error) {
      deps.logger.warn({ err: error, calls: observations.length }, "service map calls not written");
    }
  };
  const sweep = setInterval(
    () => void writeEdges(edges.expire()),
    Math.min(1000, config.ingest.serviceEdgeWaitSeconds * 1000),
  );
  sweep.unref();

  return {
    errorGroups,
    catalog,
    async export(actor, signal, request) {
      if (!actor.permissions.includes("ingest")) {
        throw new ForbiddenError("This API key lacks the 'ingest' permission");
      }
      const mapped = MAPPERS[signal](
        request as never,
        { projectId: actor.projectId, limits, received: UnixTime.fromMillis(Date.now()) },
        prices,
      );
      // Each signal's own rows share its name; the rest of the batch is derived from them.
      const accepted = mapped.batch[signal].length;
      if (signal === "traces")
        mapped.batch.edges = edges.observe(actor.projectId, mapped.batch.traces);
      // One SDK process of one key: requests of a sender that waits for each answer are not held
      // back to share a write (BatchWriter.submit).
      if (accepted > 0) await writer.submit(mapped.batch, `${actor.keyId} ${mapped.sender}`);
      deps.metrics.ingestedItems.inc({ signal, outcome: "accepted" }, accepted);
      if (mapped.rejected > 0)
        deps.metrics.ingestedItems.inc({ signal, outcome: "rejected" }, mapped.rejected);
      return { accepted, rejected: mapped.rejected, message: mapped.reasons.join("; ") };
    },
    queue: () => ({ pendingRows: writer.pendingRows, oldestWaitMs: writer.oldestWaitMs }),
    async close() {
      clearInterval(sweep);
      // Waits end now: a lone client span is a call to its peer, as when its wait runs out.
      await writeEdges(edges.flush());
      await writer.close();
      await catalog.close();
    },
  };
}
