import type { Logger } from "pino";
import { InvalidInputError, UnavailableError } from "../lib/domain-errors.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import { type CatalogRow, writtenCatalogRows } from "./derive/attribute-catalog.js";
import { summarizeHttp } from "./derive/http.js";
import { summarizeEdges } from "./derive/service-edges-rows.js";
import { summarizeSessions, UserAgentParser } from "./derive/sessions.js";
import type { ErrorGroupStore, ErrorTransition } from "./error-groups.js";
import { batchSize, type IngestBatch, type Row } from "./ingest-batch.js";
import { refusedDataCode } from "./insert-errors.js";

/** The write queue is full: the client should retry after a pause (503 + Retry-After). */
export class IngestOverloadedError extends UnavailableError {
  constructor(retryAfterSeconds: number) {
    super(
      `The ingestion queue is full; retry in ${retryAfterSeconds} s (OpenTelemetry SDKs retry by themselves)`,
      retryAfterSeconds,
    );
  }
}

/** The engine failed a write for reasons of its own: the exporter retries (503). */
const storeUnavailable = () =>
  new UnavailableError("The telemetry store could not write this request; retry later", 5);

export interface BatchWriterOptions {
  /** Rows waiting (queued plus being written) beyond which submit refuses. */
  maxQueuedRows: number;
  /** Rows per engine write; more waits for the next write. */
  maxBatchRows: number;
  /** How long a write waits for more requests to join it, when the engine is idle. */
  lingerMs: number;
  /**
   * The shortest time between the starts of two writes while requests keep coming (0: write
   * as soon as the engine is free). Requests arriving meanwhile join the next write, so writes
   * are fewer and larger: less engine CPU per row, up to this much more acknowledgment latency.
   * A write does not wait when it reaches maxBatchRows, at close, or when no one else can join
   * it: every sender seen lately already has a request in it (see `submit`).
   */
  writeIntervalMs?: number;
  logger: Logger;
  onErrorTransitions?: (transitions: readonly ErrorTransition[]) => void;
  /** Where the attribute catalog's counts of the rows written go (catalog-buffer.ts). */
  catalog?: { add(rows: readonly CatalogRow[]): void };
}

interface Pending {
  batch: IngestBatch;
  /** Who sent it, when known. */
  sender: string | undefined;
  rows: number;
  /** performance.now() when the request was accepted. */
  since: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** What the write interval knows of one sender. */
interface SenderActivity {
  lastSeen: number;
  /** Its requests not yet answered. */
  inFlight: number;
  /** When it last had two or more requests in flight at once. */
  concurrentAt: number;
}

/** How one request's write ended: written, or the error its submit rejects with. */
interface Outcome {
  pending: Pending;
  failure?: Error;
}

/**
 * Coalesces concurrent requests into bounded engine writes (group commit). A request's promise
 * settles only after every row it produced is in the engine; while one write runs, new requests
 * gather for the next. The queue is bounded by rows: beyond it, submit fails fast instead of
 * growing memory.
 */
export class BatchWriter {
  private queue: Pending[] = [];
  private queuedRows = 0;
  private writing = false;
  /** When the oldest request of the write in progress was accepted. */
  private writingSince: number | undefined;
  private scheduled: NodeJS.Timeout | undefined;
  /** The scheduled write waits out the write interval (not only the linger). */
  private waitingOutInterval = false;
  private closed = false;
  /** performance.now() when the last write started. */
  private lastWriteStart = Number.NEGATIVE_INFINITY;
  /** Senders seen lately (times are performance.now()), when there is a write interval. */
  private readonly senders = new Map<string, SenderActivity>();
  private sendersPruned = 0;
  private idle: Promise<void> = Promise.resolve();
  private markIdle: () => void = () => undefined;
  private readonly agents = new UserAgentParser();
  /** options.writeIntervalMs; 0 when there is none. */
  private readonly interval: number;

  constructor(
    private readonly executor: TelemetryExecutor,
    private readonly errorGroups: ErrorGroupStore,
    private readonly options: BatchWriterOptions,
  ) {
    this.interval = options.writeIntervalMs ?? 0;
  }

  /** Rows accepted but not yet written. */
  get pendingRows(): number {
    return this.queuedRows;
  }

  /** How long the oldest request accepted but not yet acknowledged has waited, in ms (0 when none). */
  get oldestWaitMs(): number {
    const since = this.writingSince ?? this.queue[0]?.since;
    return since === undefined ? 0 : Math.round(performance.now() - since);
  }

  /**
   * Resolves once the batch's rows are in the engine; rejects if the write fails or the queue is
   * full. `sender` names who sent it (one SDK process). A sender that waits for each answer
   * before it sends again (an SDK's batch span processor) cannot add to a write it already waits
   * on, so a write waits out the interval only while another request may still join it: some
   * sender seen lately has nothing queued, or sends several requests at once. Requests without a
   * sender never wait for the interval.
   */
  submit(batch: IngestBatch, sender?: string): Promise<void> {
    if (this.closed) return Promise.reject(new IngestOverloadedError(5));
    const rows = Math.max(1, batchSize(batch));
    if (this.queuedRows > 0 && this.queuedRows + rows > this.options.maxQueuedRows) {
      const seconds = Math.min(
        30,
        Math.max(1, Math.ceil(this.queuedRows / this.options.maxBatchRows)),
      );
      return Promise.reject(new IngestOverloadedError(seconds));
    }
    return new Promise<void>((resolve, reject) => {
      if (this.queue.length === 0 && !this.writing) {
        this.idle = new Promise((done) => {
          this.markIdle = done;
        });
      }
      const now = performance.now();
      if (sender !== undefined && this.interval > 0) this.seen(sender, now);
      this.queue.push({
        batch,
        sender,
        rows,
        since: now,
        resolve: () => {
          this.answered(sender);
          resolve();
        },
        reject: (error) => {
          this.answered(sender);
          reject(error);
        },
      });
      this.queuedRows += rows;
      // The write this request completes (its sender was the last one awaited) goes now.
      if (this.waitingOutInterval && this.intervalLeft() === 0) this.unschedule();
      this.schedule();
    });
  }

  /** Stops accepting requests and waits until everything accepted is written. */
  async close(): Promise<void> {
    this.closed = true;
    // A write waiting out the interval goes now.
    if (this.scheduled) {
      this.unschedule();
      void this.drain();
    }
    await this.idle;
  }

  /** How long the next write must still wait for the write interval (0: it may start now). */
  private intervalLeft(): number {
    if (this.interval === 0 || this.closed || this.queuedRows >= this.options.maxBatchRows)
      return 0;
    const left = this.lastWriteStart + this.interval - performance.now();
    return left > 0 && this.othersMayJoin() ? left : 0;
  }

  /** Senders quiet for a few intervals (at least a second) and not waiting are forgotten. */
  private lately(): number {
    return performance.now() - Math.max(1000, 4 * this.interval);
  }

  private seen(sender: string, now: number): void {
    if (now - this.sendersPruned > 1000) {
      this.sendersPruned = now;
      const since = this.lately();
      for (const [name, activity] of this.senders)
        if (activity.lastSeen < since && activity.inFlight === 0) this.senders.delete(name);
    }
    let activity = this.senders.get(sender);
    if (!activity) {
      activity = { lastSeen: now, inFlight: 0, concurrentAt: Number.NEGATIVE_INFINITY };
      this.senders.set(sender, activity);
    }
    activity.lastSeen = now;
    activity.inFlight++;
    if (activity.inFlight > 1) activity.concurrentAt = now;
  }

  private answered(sender: string | undefined): void {
    const activity = sender === undefined ? undefined : this.senders.get(sender);
    if (activity) activity.inFlight--;
  }

  /**
   * Whether another request may still join the next write: a sender seen lately has nothing
   * queued, or sends several at once.
   */
  private othersMayJoin(): boolean {
    const queued = new Set<string>();
    for (const pending of this.queue) {
      if (pending.sender === undefined) return false;
      queued.add(pending.sender);
    }
    const since = this.lately();
    for (const [sender, activity] of this.senders) {
      if (activity.lastSeen < since && activity.inFlight === 0) continue;
      if (!queued.has(sender) || activity.concurrentAt >= since) return true;
    }
    return false;
  }

  private schedule(): void {
    if (this.writing || this.scheduled) return;
    const full = this.queuedRows >= this.options.maxBatchRows;
    // When idle, linger a moment so requests arriving together share one write (a full batch
    // has no interval left either).
    const interval = this.intervalLeft();
    this.waitingOutInterval = interval > this.options.lingerMs;
    this.scheduled = setTimeout(
      () => {
        this.unschedule();
        void this.drain();
      },
      full ? 0 : Math.max(this.options.lingerMs, interval),
    );
  }

  /** Cancels the scheduled write (the caller starts it, or the timer has fired). */
  private unschedule(): void {
    clearTimeout(this.scheduled);
    this.scheduled = undefined;
    this.waitingOutInterval = false;
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        if (this.intervalLeft() > 0) break;
        this.lastWriteStart = performance.now();
        const taken: Pending[] = [];
        let rows = 0;
        while (
          this.queue.length > 0 &&
          (taken.length === 0 || rows + (this.queue[0]?.rows ?? 0) <= this.options.maxBatchRows)
        ) {
          const next = this.queue.shift() as Pending;
          taken.push(next);
          rows += next.rows;
        }
        let outcomes: Outcome[];
        this.writingSince = taken[0]?.since;
        try {
          outcomes = await this.write(taken);
        } catch (error) {
          // Recording error groups failed after the rows went in: the requests may retry.
          this.options.logger.error({ err: error, rows }, "telemetry write failed");
          const failure = storeUnavailable();
          outcomes = taken.map((pending) => ({ pending, failure }));
        } finally {
          this.queuedRows -= rows;
          this.writingSince = undefined;
        }
        for (const { pending, failure } of outcomes) {
          if (failure === undefined) pending.resolve();
          else pending.reject(failure);
        }
      }
    } finally {
      this.writing = false;
      // Requests left waiting out the write interval get their write scheduled.
      if (this.queue.length > 0) this.schedule();
      else this.markIdle();
    }
  }

  /**
   * One engine write for many requests. A table whose insert fails is inserted again request by
   * request (tables that went in are not: no duplicate rows), so only the guilty request fails:
   * 400 when the engine refused its data, 503 otherwise.
   */
  private async write(taken: readonly Pending[]): Promise<Outcome[]> {
    const failed = await this.insertTables(
      taken.map((p) => p.batch),
      undefined,
    );
    let settled: { pending: Pending; error?: unknown }[];
    if (failed.size === 0) {
      settled = taken.map((pending) => ({ pending }));
    } else {
      const [first] = failed.values();
      this.options.logger.warn(
        { err: first, tables: [...failed.keys()], requests: taken.length },
        "telemetry write failed; retrying its failed tables request by request",
      );
      settled = [];
      for (const pending of taken) {
        const again =
          taken.length === 1 ? failed : await this.insertTables([pending.batch], failed);
        const [error] = again.values();
        settled.push(again.size === 0 ? { pending } : { pending, error });
      }
    }
    const written = settled.filter((s) => s.error === undefined).map((s) => s.pending);
    await this.recordErrors(written.map((p) => p.batch));
    return settled.map(({ pending, error }) =>
      error === undefined ? { pending } : { pending, failure: this.failure(error) },
    );
  }

  /** What a request whose rows could not be written is told. */
  private failure(error: unknown): Error {
    const code = refusedDataCode(error);
    if (code) {
      this.options.logger.warn({ err: error, code }, "telemetry write refused a request's data");
      return new InvalidInputError(
        `The telemetry store refused a value in this request (${code}); the refused rows were not stored and retrying will not help`,
      );
    }
    this.options.logger.error({ err: error }, "telemetry write failed");
    return storeUnavailable();
  }

  /**
   * Inserts the batches' rows, each table once (all tables, or only those in `only`), derived
   * summaries folded across the batches; the catalog counts the telemetry rows written.
   * Returns the tables whose insert failed, with the error.
   */
  private async insertTables(
    batches: readonly IngestBatch[],
    only: ReadonlyMap<string, unknown> | undefined,
  ): Promise<Map<string, unknown>> {
    const concat = <K extends keyof IngestBatch>(key: K): IngestBatch[K] =>
      batches.length === 1
        ? (batches[0] as IngestBatch)[key]
        : (batches.flatMap((b) => b[key] as readonly unknown[]) as IngestBatch[K]);
    const tables: [string, () => Row[]][] = [
      ["traces", () => concat("traces")],
      ["logs", () => concat("logs")],
      ["metrics", () => concat("metrics")],
      ["ai_spans", () => concat("aiSpans")],
      ["http_requests", () => summarizeHttp(concat("http"))],
      ["sessions", () => summarizeSessions(concat("sessions"), this.agents)],
      ["service_edges", () => summarizeEdges(concat("edges"))],
    ];
    const failed = new Map<string, unknown>();
    const written = new Map<string, Row[]>();
    await Promise.all(
      tables
        .filter(([table]) => only === undefined || only.has(table))
        .map(async ([table, rowsOf]) => {
          const rows = rowsOf();
          if (rows.length === 0) return;
          try {
            await this.executor.insert(table, rows);
            written.set(table, rows);
          } catch (error) {
            failed.set(table, error);
          }
        }),
    );
    // Each table's rows are counted once: by the attempt that wrote them.
    this.options.catalog?.add(writtenCatalogRows((source) => written.get(source) ?? []));
    return failed;
  }

  /**
   * The occurrences of the requests that were written, and their groups: the group store writes
   * both, so it can tell a second source of an occurrence from a new one.
   */
  private async recordErrors(batches: readonly IngestBatch[]): Promise<void> {
    const errors = batches.flatMap((b) => b.errors);
    if (errors.length === 0) return;
    const transitions = await this.errorGroups.record(errors);
    if (transitions.length > 0) this.options.onErrorTransitions?.(transitions);
  }
}
