/** How long a reader told the engine is busy should wait before asking again (Retry-After). */
export const BUSY_RETRY_AFTER_SECONDS = 1;

export interface AdmissionOptions {
  /**
   * Work admitted at once (running, or waiting here for a slot), at most; more is refused.
   */
  maxPending: number;
  /** Work handed to the engine at once; the other admitted work waits here. */
  slots: number;
  /** Work one tenant may have admitted at once; half of `maxPending` when unset. */
  maxPendingPerTenant?: number;
  /** Work one group of tenants (an organization) may have admitted at once; unset: no bound. */
  maxPendingPerGroup?: number;
  /** Slots one group may hold at once; unset: every slot. */
  maxRunningPerGroup?: number;
  /**
   * Milliseconds a read may wait here for a slot, unless it is among its tenant's next `slots`.
   * One that waits longer is refused instead of run late, and one that would (by the reads
   * queued before it and how long reads have been taking) is refused at once. Unset: no limit.
   */
  maxWaitMs?: number;
  /** Called for each refusal, with why (see AdmissionRefusal). */
  onRefused?: (reason: AdmissionRefusal) => void;
  /**
   * The error a refusal rejects with; a 503 UnavailableError ("the telemetry store is busy",
   * Retry-After 1 s) when unset. `typicalMs` is how long admitted work has been taking.
   */
  refusalError?: (reason: AdmissionRefusal, detail: string, typicalMs: number | undefined) => Error;
  /** Milliseconds on a monotonic clock; `performance.now` unless a test sets it. */
  now?: () => number;
}

/**
 * Why work was refused: `pending` (maxPending reached), `tenant` or `group` (that one's
 * maxPending share reached), `wait` (maxWaitMs passed or would), `deadline` (the work's own
 * deadline passed while it waited).
 */
export type AdmissionRefusal = "pending" | "tenant" | "group" | "wait" | "deadline";

/** Whose work this is, and until when it may wait. */
export interface Admittance {
  /** The tenant (a project); work naming none shares one, with no tenant bound. */
  tenant?: string | undefined;
  /** The tenant's group (its organization): turns and bounds go first between groups. */
  group?: string | undefined;
  /**
   * When the work must have started (ms on the admission's clock): past it, it is refused with
   * `deadline` instead of run. A caller whose time limit counts its queue time sets it.
   */
  deadline?: number;
  /**
   * Work already bounded by its caller (scheduled alert evaluations: the scheduler's own
   * concurrency bounds them) is never refused for the pending bounds, nor counted in them (so
   * it never keeps its tenant's interactive work out); it still waits its turn and holds slots.
   */
  bounded?: boolean;
}

/**
 * The organization a project belongs to (undefined for an unknown project): at once when known,
 * so a read is admitted in the same tick it is asked for, else once looked up.
 */
export type OrganizationOf = (
  projectId: string,
) => string | undefined | Promise<string | undefined>;
