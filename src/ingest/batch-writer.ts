import type { Logger } from "pino";
import { InvalidInputError, UnavailableError } from "../lib/errors.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import { occurrenceRow } from "./derive/errors.js";
import { summarizeHttp } from "./derive/http.js";
import { summarizeSessions, UserAgentParser } from "./derive/sessions.js";
import type { ErrorGroupStore, ErrorTransition } from "./error-groups.js";
import { refusedDataCode } from "./insert-errors.js";
import { batchSize, type IngestBatch, type Row } from "./model.js";

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
  logger: Logger;
  onErrorTransitions?: (transitions: readonly ErrorTransition[]) => void;
}

interface Pending {
  batch: IngestBatch;
  rows: number;
  /** performance.now() when the request was accepted. */
  since: number;
  resolve: () => void;
  reject: (error: unknown) => void;
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
  private scheduled = false;
  private closed = false;
  private idle: Promise<void> = Promise.resolve();
  private markIdle: () => void = () => undefined;
  private readonly agents = new UserAgentParser();

  constructor(
    private readonly executor: TelemetryExecutor,
    private readonly errorGroups: ErrorGroupStore,
    private readonly options: BatchWriterOptions,
  ) {}

  /** Rows accepted but not yet written. */
  get pendingRows(): number {
    return this.queuedRows;
  }

  /** How long the oldest request accepted but not yet acknowledged has waited, in ms (0 when none). */
  get oldestWaitMs(): number {
    const since = this.writingSince ?? this.queue[0]?.since;
    return since === undefined ? 0 : Math.round(performance.now() - since);
  }

  /** Resolves once the batch's rows are in the engine; rejects if the write fails or the queue is full. */
  submit(batch: IngestBatch): Promise<void> {
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
      this.queue.push({ batch, rows, since: performance.now(), resolve, reject });
      this.queuedRows += rows;
      this.schedule();
    });
  }

  /** Stops accepting requests and waits until everything accepted is written. */
  async close(): Promise<void> {
    this.closed = true;
    await this.idle;
  }

  private schedule(): void {
    if (this.writing || this.scheduled) return;
    this.scheduled = true;
    const full = this.queuedRows >= this.options.maxBatchRows;
    // When idle, linger a moment so requests arriving together share one write.
    setTimeout(
      () => {
        this.scheduled = false;
        void this.drain();
      },
      full ? 0 : this.options.lingerMs,
    );
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.queue.length > 0) {
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
      this.markIdle();
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
   * summaries folded across the batches. Returns the tables whose insert failed, with the error.
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
      ["error_occurrences", () => concat("errors").map(occurrenceRow)],
    ];
    const failed = new Map<string, unknown>();
    await Promise.all(
      tables
        .filter(([table]) => only === undefined || only.has(table))
        .map(async ([table, rowsOf]) => {
          const rows = rowsOf();
          if (rows.length === 0) return;
          try {
            await this.executor.insert(table, rows);
          } catch (error) {
            failed.set(table, error);
          }
        }),
    );
    return failed;
  }

  /** Error groups follow the occurrences of the requests that were written. */
  private async recordErrors(batches: readonly IngestBatch[]): Promise<void> {
    const errors = batches.flatMap((b) => b.errors);
    if (errors.length === 0) return;
    const transitions = await this.errorGroups.record(errors);
    if (transitions.length > 0) this.options.onErrorTransitions?.(transitions);
  }
}
