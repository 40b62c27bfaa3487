import type { Ctx, DomainDeps } from "../context.js";
import type { UnwrittenCatalog } from "../ingest/derive/catalog-buffer.js";
import type { ErrorGroupStore } from "../ingest/error-groups.js";
import type { Clock } from "../lib/clock.js";
import type { AdmissionOptions, OrganizationOf } from "../telemetry/admission-options.js";
import { admitFor, admitReads } from "../telemetry/admitted-reads.js";
import { EngineAdmission } from "../telemetry/engine-admission.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import { TotalCache } from "./total-cache.js";
import { createTraceLoader, type LoadedTrace, type TraceKey } from "./trace-lookup.js";

/** What the read API's verbs use: the telemetry engine, the time, and the error-group writer. */
export interface ReadDeps {
  telemetry: TelemetryExecutor;
  clock: Clock;
  errorGroups: ErrorGroupStore;
  /** Trace lookups, batched while the engine is busy (see createTraceLoader). */
  traces: { load(key: TraceKey): Promise<LoadedTrace> };
  /** List totals of recent queries, so later pages need not count again (see TotalCache). */
  totals: TotalCache;
  /** This node's attribute catalog counts not written yet, which catalog reads add. */
  catalog?: UnwrittenCatalog;
}

/** The ctx of a read verb: the base deps and the read API's section (`deps.read`). */
export type ReadCtx = Ctx<DomainDeps & { read: ReadDeps }>;

/** Reads handed to an engine that does not say how many it runs side by side. */
const DEFAULT_READ_SLOTS = 4;

/**
 * The read API's dependencies over these stores, with their own loaders and caches. Both of its
 * queues are bounded by `maxPending` (see EngineAdmission): the engine statements of its verbs, at
 * most as many running as the engine has read slots and the rest waiting at most `maxWaitMs`,
 * and the trace lookups waiting for their batch. A batch's statement is not counted among the
 * first: waiting lookups must never keep their own batch out, and a bound of their own keeps
 * batches full under load (32 lookups a statement). Lookups never wait in their admission (its
 * slots are its bound) and get no `maxWaitMs`: a batch's statement, once started, answers all
 * of its lookups.
 */
export function createReadDeps(
  stores: Pick<ReadDeps, "telemetry" | "clock" | "errorGroups" | "catalog">,
  admission: Omit<AdmissionOptions, "slots">,
  organizationOf?: OrganizationOf,
): ReadDeps {
  const slots = stores.telemetry.readSlots ?? DEFAULT_READ_SLOTS;
  // A project holds half of each bound at most and its organization's projects together three
  // quarters: another project of the organization, and every other organization, find room.
  const shares = { maxPendingPerGroup: Math.max(1, Math.floor((admission.maxPending * 3) / 4)) };
  const statements = new EngineAdmission({ ...admission, ...shares, slots });
  const { maxWaitMs: _notForLookups, ...countOnly } = admission;
  const waitingLookups = new EngineAdmission({
    ...countOnly,
    ...shares,
    slots: admission.maxPending,
  });
  const lookups = createTraceLoader(stores.telemetry);
  return {
    ...stores,
    telemetry: admitReads(stores.telemetry, statements, organizationOf),
    traces: {
      load: (key) =>
        admitFor(waitingLookups, organizationOf, () => lookups.load(key), {
          tenant: key.projectId,
        }),
    },
    totals: new TotalCache(stores.clock),
  };
}
