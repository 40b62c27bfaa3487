import type { Logger } from "pino";
import type { MetaAccess } from "../meta/meta-store.js";
import type { AttemptOutcome } from "../meta/repositories/webhook-deliveries.js";

/** Outcomes written per transaction at most. */
const RECORD_BATCH = 500;
/**
 * How long an outcome waits for others to share its transaction. Answers trickle in a few per
 * tick, and a commit costs more than the rows in it (measured: 4 outcomes per transaction when
 * batched per tick, ~60 µs of store time per delivery). No attempt waits for it: a slot is
 * free once its answer is in; only the log and the delivery's next state wait.
 */
const RECORD_WINDOW_MS = 5;

/**
 * Writes attempt outcomes in batches: those finishing within a few milliseconds of each other
 * share one transaction.
 * A batch that fails is retried outcome by outcome, so one bad write never costs the others;
 * an outcome that cannot be written stays leased and is attempted again when its lease ends.
 */
export interface AttemptRecorder {
  /** Resolves once the outcome is written (or dropped as stale); rejects if it could not be. */
  record(outcome: AttemptOutcome): Promise<void>;
  /** Resolves once everything handed over so far is written. */
  idle(): Promise<void>;
}

interface Entry {
  outcome: AttemptOutcome;
  done(error?: unknown): void;
}

export function createAttemptRecorder(meta: MetaAccess, log: Logger): AttemptRecorder {
  let queue: Entry[] = [];
  let writing: Promise<void> | undefined;
  /** The batch being gathered: written when its window ends. */
  let gathering: Promise<void> | undefined;

  const write = (entries: readonly Entry[]) =>
    meta.transaction((trx) =>
      trx.repos.webhookDeliveries.recordOutcomes(entries.map((entry) => entry.outcome)),
    );

  async function flush(batch: Entry[]): Promise<void> {
    try {
      await write(batch);
      for (const entry of batch) entry.done();
      return;
    } catch (error) {
      if (batch.length === 1) {
        batchFailed(batch, error);
        return;
      }
    }
    // One row's problem (a constraint) costs only that row. If a single write fails too, the
    // store itself is failing: the rest fail at once instead of each waiting its turn.
    for (const [i, entry] of batch.entries()) {
      try {
        await write([entry]);
        entry.done();
      } catch (error) {
        batchFailed(batch.slice(i), error);
        return;
      }
    }
  }

  function batchFailed(entries: readonly Entry[], error: unknown): void {
    log.error(
      {
        err: (error as Error).message,
        deliveryIds: entries.map((e) => e.outcome.attempt.deliveryId),
      },
      "could not record webhook attempts; they are made again when their lease ends",
    );
    for (const entry of entries) entry.done(error);
  }

  function schedule(): void {
    if (gathering || writing) return;
    gathering = new Promise<void>((resolve) => setTimeout(resolve, RECORD_WINDOW_MS)).then(() => {
      gathering = undefined;
      const batch = queue.slice(0, RECORD_BATCH);
      queue = queue.slice(batch.length);
      writing = flush(batch).finally(() => {
        writing = undefined;
        if (queue.length > 0) schedule();
      });
    });
  }

  return {
    record(outcome) {
      return new Promise((resolve, reject) => {
        queue.push({ outcome, done: (error) => (error ? reject(error) : resolve()) });
        schedule();
      });
    },
    async idle() {
      while (gathering || writing) await (gathering ?? writing);
    },
  };
}
