import { UnavailableError } from "../lib/errors.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";

/** How long a reader told the engine is busy should wait before asking again (Retry-After). */
export const BUSY_RETRY_AFTER_SECONDS = 1;

export interface ReadAdmissionOptions {
  /** Reads admitted at once (running, or waiting here for a slot), at most; more are refused. */
  maxPending: number;
  /** Reads handed to the engine at once; the other admitted ones wait here, first come first. */
  slots: number;
  /** Called for each read refused. */
  onRefused?: () => void;
}

/**
 * Bounds the read API's work for the telemetry engine: at most `maxPending` reads admitted at
 * once, of which `slots` run on the engine and the rest wait here in order; beyond that a read is
 * refused at once (503 + Retry-After) instead of queueing.
 *
 * Offered more reads than the engine answers, an unbounded queue answers every one of them, each
 * later than the last, and holds their connections and memory meanwhile (the distinct run of
 * `bench:api` saw 28 s after 20 s of it). Bounded, the reads let in wait at most about
 * `maxPending` reads' time and the rest hear at once that they should retry, as ClickHouse's own
 * `max_concurrent_queries` does. Holding the waiting ones here rather than in the engine's
 * session queues keeps those short, so work that bypasses this bound (a trace lookup batch,
 * ingestion's reads) is not stuck behind a long queue of reads. Only the read API goes through
 * it (ADR 0018): ingestion, alert evaluation and TQL (limited per project on its own) use the
 * engine directly, so a flood of reads never holds a write or an alert.
 */
export class ReadAdmission {
  private running = 0;
  /** Starts of admitted reads waiting for a slot, oldest first. */
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly options: ReadAdmissionOptions) {}

  /** Runs `read` once a slot is free if there is room, else refuses it at once. */
  admit<T>(read: () => Promise<T>): Promise<T> {
    const pending = this.running + this.waiting.length;
    if (pending >= this.options.maxPending) {
      this.options.onRefused?.();
      return Promise.reject(
        new UnavailableError(
          `The telemetry store is busy: ${pending} reads are waiting for it; retry in ${BUSY_RETRY_AFTER_SECONDS} s`,
          BUSY_RETRY_AFTER_SECONDS,
        ),
      );
    }
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        let run: Promise<T>;
        try {
          run = read();
        } catch (error) {
          run = Promise.reject(error);
        }
        // The slot is free, and the next read started, before its caller hears the outcome.
        run.then(
          (value) => {
            this.release();
            resolve(value);
          },
          (error: unknown) => {
            this.release();
            reject(error);
          },
        );
      };
      if (this.running < this.options.slots) start();
      else this.waiting.push(start);
    });
  }

  private release(): void {
    this.running--;
    this.waiting.shift()?.();
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
