import { UnavailableError } from "../lib/errors.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";

/** How long a reader told the engine is busy should wait before asking again (Retry-After). */
export const BUSY_RETRY_AFTER_SECONDS = 1;

export interface ReadAdmissionOptions {
  /** Reads admitted at once (running, or waiting here for a slot), at most; more are refused. */
  maxPending: number;
  /** Reads handed to the engine at once; the other admitted ones wait here, first come first. */
  slots: number;
  /**
   * Milliseconds a read may wait here for a slot, unless it is among the next `slots` to run.
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

/** An admitted read waiting for a slot. */
interface Waiter {
  since: number;
  start(): void;
  refuse(error: UnavailableError): void;
}

/**
 * Bounds the read API's work for the telemetry engine: at most `maxPending` reads admitted at
 * once, of which `slots` run on the engine and the rest wait here in order, each for at most
 * `maxWaitMs` unless it runs in the next round; beyond either bound a read is refused (503 +
 * Retry-After) instead of queueing.
 *
 * Offered more reads than the engine answers, an unbounded queue answers every one of them, each
 * later than the last, and holds their connections and memory meanwhile (the distinct run of
 * `bench:api` saw 28 s after 20 s of it). The count bound alone still let the reads it admitted
 * wait seconds when each took long (ingestion sharing the cores): how long a queue of a given
 * length takes depends on the reads in it, so the wait is bounded too, as ClickHouse bounds
 * waiting for a query slot with `queue_max_wait_ms`. The next round of reads (the first `slots`
 * waiting) is never refused for waiting: a burst that fills the slots twice over, such as one
 * dashboard's panels, each slow on a large window, is answered, only later. Holding the waiting ones here rather than in
 * the engine's session queues keeps those short, so work that bypasses this bound (a trace
 * lookup batch, ingestion's reads) is not stuck behind a long queue of reads. Only the read API
 * goes through it (ADR 0018): ingestion, alert evaluation and TQL (limited per project on its
 * own) use the engine directly, so a flood of reads never holds a write or an alert.
 */
export class ReadAdmission {
  private running = 0;
  /** Admitted reads waiting for a slot, oldest first. */
  private readonly waiting: Waiter[] = [];
  /** Refuses waiting reads whose wait runs out while no slot comes free. */
  private expiry: NodeJS.Timeout | undefined;
  /** The waiting read `expiry` is set for. */
  private expiryFor: Waiter | undefined;
  private readonly now: () => number;
  /** How long reads have been taking, ms: a moving average; unknown until one has run. */
  private readMs: number | undefined;

  constructor(private readonly options: ReadAdmissionOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * Runs `read` once a slot is free if there is room and its wait looks short enough, else
   * refuses it at once.
   */
  admit<T>(read: () => Promise<T>): Promise<T> {
    this.refuseExpired();
    const pending = this.running + this.waiting.length;
    if (pending >= this.options.maxPending)
      return Promise.reject(this.refusal("pending", `${pending} reads are waiting for it`));
    const expectedWaitMs = this.expectedWaitMs();
    const { maxWaitMs, slots } = this.options;
    if (maxWaitMs !== undefined && this.waiting.length >= slots && expectedWaitMs > maxWaitMs)
      return Promise.reject(
        this.refusal(
          "wait",
          `the reads before this one take about ${Math.round(expectedWaitMs)} ms, over ${maxWaitMs} ms`,
        ),
      );
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
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
            this.release(started);
            resolve(value);
          },
          (error: unknown) => {
            this.release(started);
            reject(error);
          },
        );
      };
      if (this.running < this.options.slots) start();
      else {
        this.waiting.push({ since: this.now(), start, refuse: reject });
        this.scheduleExpiry();
      }
    });
  }

  /**
   * How long a read admitted now would wait for a slot: until the reads running or waiting
   * before it have freed one, `slots` at a time, each taking as long as reads have been taking.
   * 0 while a slot is free, or before any read has run.
   */
  private expectedWaitMs(): number {
    const { slots } = this.options;
    if (this.running < slots || this.readMs === undefined) return 0;
    return ((this.waiting.length + 1) * this.readMs) / slots;
  }

  private release(started: number): void {
    const took = this.now() - started;
    this.readMs =
      this.readMs === undefined ? took : this.readMs + (took - this.readMs) * READ_MS_WEIGHT;
    this.running--;
    this.refuseExpired();
    this.waiting.shift()?.start();
    this.scheduleExpiry();
  }

  private waitedTooLong(waiter: Waiter, now: number): boolean {
    const { maxWaitMs } = this.options;
    return maxWaitMs !== undefined && now - waiter.since >= maxWaitMs;
  }

  /** The first waiting read the wait bound applies to (the ones before it run next). */
  private firstBounded(): Waiter | undefined {
    return this.options.maxWaitMs === undefined ? undefined : this.waiting[this.options.slots];
  }

  /**
   * Refuses the waiting reads past maxWaitMs, but the next round's: the oldest of the rest come
   * first, so they are the ones right after it.
   */
  private refuseExpired(): void {
    const now = this.now();
    for (let read = this.firstBounded(); read && this.waitedTooLong(read, now); ) {
      this.waiting.splice(this.options.slots, 1);
      read.refuse(this.refusal("wait", `this read waited ${this.options.maxWaitMs} ms for it`));
      read = this.firstBounded();
    }
  }

  /** One timer, for the deadline of the oldest read the wait bound applies to; none while none. */
  private scheduleExpiry(): void {
    const { maxWaitMs } = this.options;
    const oldest = this.firstBounded();
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

/** The engine as the read API sees it: its reads (query, queryCompact) go through `admission`. */
export function admitReads(
  executor: TelemetryExecutor,
  admission: ReadAdmission,
): TelemetryExecutor {
  // The rest is the engine's own (see instrumentExecutor).
  return {
    ...executor,
    query: (sql, queryOptions) => admission.admit(() => executor.query(sql, queryOptions)),
    queryCompact: (sql, queryOptions) =>
      admission.admit(() => executor.queryCompact(sql, queryOptions)),
  };
}
