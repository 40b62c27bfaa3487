import { UnavailableError } from "../lib/errors.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";

/** How long a reader told the engine is busy should wait before asking again (Retry-After). */
export const BUSY_RETRY_AFTER_SECONDS = 1;

export interface ReadAdmissionOptions {
  /**
   * Reads admitted at once (running, or waiting here for a slot), at most; more are refused. A
   * tenant's own reads may take half of it at most.
   */
  maxPending: number;
  /** Reads handed to the engine at once; the other admitted ones wait here. */
  slots: number;
  /**
   * Milliseconds a read may wait here for a slot, unless it is among its tenant's next `slots`.
   * One that waits longer is refused instead of run late, and one that would (by the reads
   * queued before it and how long reads have been taking) is refused at once. Unset: no limit.
   */
  maxWaitMs?: number;
  /** Called for each read refused, with why: too many pending, or waiting too long. */
  onRefused?: (reason: ReadRefusal) => void;
  /** Milliseconds on a monotonic clock; `performance.now` unless a test sets it. */
  now?: () => number;
}

/** Why a read was refused: `pending` (maxPending reached) or `wait` (maxWaitMs passed). */
export type ReadRefusal = "pending" | "wait";

/** The weight of the last read in the moving average of how long reads take. */
const READ_MS_WEIGHT = 0.1;

/** Reads that name no tenant share this one, and no tenant's half of the bound applies to them. */
const NO_TENANT = "";

/** An admitted read waiting for a slot. */
interface Waiter {
  tenant: string;
  since: number;
  start(): void;
  refuse(error: UnavailableError): void;
}

/**
 * Bounds the read API's work for the telemetry engine: at most `maxPending` reads admitted at
 * once, of which `slots` run on the engine and the rest wait here, each for at most `maxWaitMs`
 * unless it is among its tenant's next; beyond either bound a read is refused (503 +
 * Retry-After) instead of queueing.
 *
 * Offered more reads than the engine answers, an unbounded queue answers every one of them, each
 * later than the last, and holds their connections and memory meanwhile (the distinct run of
 * `bench:api` saw 28 s after 20 s of it). The count bound alone still let the reads it admitted
 * wait seconds when each took long (ingestion sharing the cores): how long a queue of a given
 * length takes depends on the reads in it, so the wait is bounded too, as ClickHouse bounds
 * waiting for a query slot with `queue_max_wait_ms`. A tenant's next `slots` reads are never
 * refused for waiting: a burst that fills the slots twice over, such as one dashboard's panels,
 * each slow on a large window, is answered, only later.
 *
 * Tenants (projects) share it fairly: a freed slot goes to the oldest waiting read of the tenant
 * with the fewest reads running, and one tenant's reads may hold half of `maxPending` at most, so
 * a project flooding the engine with slow reads never keeps another's out; alone, a project
 * gets every slot, in order.
 *
 * Holding the waiting ones here rather than in the engine's session queues keeps those short, so
 * work that bypasses this bound (a trace lookup batch, ingestion's reads) is not stuck behind a
 * long queue of reads. Only the read API goes through it (ADR 0018): ingestion, alert evaluation
 * and TQL (limited per project on its own) use the engine directly, so a flood of reads never
 * holds a write or an alert.
 */
export class ReadAdmission {
  /** Reads running, in all and by tenant. */
  private runningCount = 0;
  private readonly running = new Map<string, number>();
  /** Admitted reads waiting for a slot, oldest first, and how many by tenant. */
  private waiting: Waiter[] = [];
  private readonly waitingBy = new Map<string, number>();
  /** Refuses waiting reads whose wait runs out while no slot comes free. */
  private expiry: NodeJS.Timeout | undefined;
  /** The waiting read `expiry` is set for. */
  private expiryFor: Waiter | undefined;
  private readonly now: () => number;
  /** How long reads have been taking, ms: a moving average; unknown until one has run. */
  private readMs: number | undefined;
  private readonly maxPendingPerTenant: number;

  constructor(private readonly options: ReadAdmissionOptions) {
    this.now = options.now ?? (() => performance.now());
    this.maxPendingPerTenant = Math.max(1, Math.floor(options.maxPending / 2));
  }

  /**
   * Runs `read` for `tenant` once a slot is free if there is room and its wait looks short
   * enough, else refuses it at once.
   */
  admit<T>(read: () => Promise<T>, tenant = NO_TENANT): Promise<T> {
    this.refuseExpired();
    const pending = this.runningCount + this.waiting.length;
    if (pending >= this.options.maxPending)
      return Promise.reject(this.refusal("pending", `${readsAre(pending)} waiting for it`));
    const own = count(this.running, tenant) + count(this.waitingBy, tenant);
    if (tenant !== NO_TENANT && own >= this.maxPendingPerTenant)
      return Promise.reject(
        this.refusal("pending", `${readsAre(own, " of this project")} waiting for it`),
      );
    const { maxWaitMs, slots } = this.options;
    // Only a read beyond its tenant's next `slots` can be refused for its wait.
    if (maxWaitMs !== undefined && count(this.waitingBy, tenant) >= slots) {
      const expectedWaitMs = this.expectedWaitMs(tenant);
      if (expectedWaitMs > maxWaitMs)
        return Promise.reject(
          this.refusal(
            "wait",
            `the reads before this one take about ${Math.round(expectedWaitMs)} ms, over ${maxWaitMs} ms`,
          ),
        );
    }
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.runningCount++;
        add(this.running, tenant, 1);
        const started = this.now();
        let run: Promise<T>;
        try {
          run = read();
        } catch (error) {
          run = Promise.reject(error);
        }
        // The slot is free, and the next read started, before its caller hears the outcome.
        run.then(
          (value) => {
            this.release(tenant, started);
            resolve(value);
          },
          (error: unknown) => {
            this.release(tenant, started);
            reject(error);
          },
        );
      };
      if (this.runningCount < slots) start();
      else {
        this.waiting.push({ tenant, since: this.now(), start, refuse: reject });
        add(this.waitingBy, tenant, 1);
        this.scheduleExpiry();
      }
    });
  }

  /**
   * How long a read of `tenant` admitted now would wait for a slot: until the reads to run
   * before it (its tenant's waiting ones, and as many of each other tenant's as turns go round)
   * have started, `slots` at a time, each taking as long as reads have been taking. 0 while a
   * slot is free, or before any read has run.
   */
  private expectedWaitMs(tenant: string): number {
    const { slots } = this.options;
    if (this.runningCount < slots || this.readMs === undefined) return 0;
    const turns = count(this.waitingBy, tenant) + 1;
    let before = turns;
    for (const [other, waiting] of this.waitingBy)
      if (other !== tenant) before += Math.min(waiting, turns);
    return (before * this.readMs) / slots;
  }

  private release(tenant: string, started: number): void {
    const took = this.now() - started;
    this.readMs =
      this.readMs === undefined ? took : this.readMs + (took - this.readMs) * READ_MS_WEIGHT;
    this.runningCount--;
    add(this.running, tenant, -1);
    this.refuseExpired();
    const next = this.next();
    if (next >= 0) {
      const [read] = this.waiting.splice(next, 1) as [Waiter];
      add(this.waitingBy, read.tenant, -1);
      read.start();
    }
    this.scheduleExpiry();
  }

  /** Where the read to run next waits: the oldest of the tenant with the fewest reads running. */
  private next(): number {
    let best = -1;
    let fewest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.waiting.length && fewest > 0; i++) {
      const running = count(this.running, (this.waiting[i] as Waiter).tenant);
      if (running < fewest) {
        best = i;
        fewest = running;
      }
    }
    return best;
  }

  /**
   * The waiting reads the wait bound applies to, oldest first: all but each tenant's next
   * `slots` (its oldest).
   */
  private *bounded(): Generator<Waiter> {
    // None unless some tenant has more than `slots` waiting: spares the common case the map.
    if (this.options.maxWaitMs === undefined || this.waiting.length <= this.options.slots) return;
    const seen = new Map<string, number>();
    for (const waiter of this.waiting) {
      if (count(seen, waiter.tenant) >= this.options.slots) yield waiter;
      add(seen, waiter.tenant, 1);
    }
  }

  /** Refuses the waiting reads past maxWaitMs that the wait bound applies to. */
  private refuseExpired(): void {
    const { maxWaitMs } = this.options;
    if (maxWaitMs === undefined) return;
    const now = this.now();
    const expired = new Set<Waiter>();
    for (const waiter of this.bounded()) {
      // The oldest come first: once one is in time, the rest are too.
      if (now - waiter.since < maxWaitMs) break;
      expired.add(waiter);
    }
    if (expired.size === 0) return;
    this.waiting = this.waiting.filter((waiter) => !expired.has(waiter));
    for (const waiter of expired) {
      add(this.waitingBy, waiter.tenant, -1);
      waiter.refuse(this.refusal("wait", `this read waited ${maxWaitMs} ms for it`));
    }
    // The timer may have been for one of them.
    this.scheduleExpiry();
  }

  /** One timer, for the deadline of the oldest read the wait bound applies to; none while none. */
  private scheduleExpiry(): void {
    const { maxWaitMs } = this.options;
    const oldest = this.bounded().next().value as Waiter | undefined;
    if (oldest === this.expiryFor) return;
    clearTimeout(this.expiry);
    this.expiry = undefined;
    this.expiryFor = oldest;
    if (maxWaitMs === undefined || !oldest) return;
    const left = oldest.since + maxWaitMs - this.now();
    this.expiry = setTimeout(
      () => {
        this.expiry = undefined;
        this.expiryFor = undefined;
        this.refuseExpired();
        this.scheduleExpiry();
      },
      Math.max(0, Math.ceil(left)),
    );
    this.expiry.unref();
  }

  private refusal(reason: ReadRefusal, detail: string): UnavailableError {
    this.options.onRefused?.(reason);
    return new UnavailableError(
      `The telemetry store is busy: ${detail}; retry in ${BUSY_RETRY_AFTER_SECONDS} s`,
      BUSY_RETRY_AFTER_SECONDS,
    );
  }
}

const count = (counts: ReadonlyMap<string, number>, key: string): number => counts.get(key) ?? 0;

/** "1 read … is", "2 reads … are". */
const readsAre = (n: number, of = ""): string =>
  n === 1 ? `1 read${of} is` : `${n} reads${of} are`;

/** Adds `delta` to a count, forgetting a key whose count falls to 0. */
function add(counts: Map<string, number>, key: string, delta: number): void {
  const next = count(counts, key) + delta;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}

/**
 * The engine as the read API sees it: its reads (query, queryCompact) go through `admission`,
 * each for the tenant its options name.
 */
export function admitReads(
  executor: TelemetryExecutor,
  admission: ReadAdmission,
): TelemetryExecutor {
  // The rest is the engine's own (see instrumentExecutor).
  return {
    ...executor,
    query: (sql, queryOptions) =>
      admission.admit(() => executor.query(sql, queryOptions), queryOptions?.tenant),
    queryCompact: (sql, queryOptions) =>
      admission.admit(() => executor.queryCompact(sql, queryOptions), queryOptions?.tenant),
  };
}
