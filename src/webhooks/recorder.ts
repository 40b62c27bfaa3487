import type { Logger } from "pino";
import type { MetaAccess } from "../meta/meta-store.js";
import type { AttemptOutcome } from "../meta/repositories/webhook-deliveries.js";

/** Outcomes written per transaction at most. */
const RECORD_BATCH = 500;

/**
 * Writes attempt outcomes in batches: those finishing in the same tick share one transaction.
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
  let soon = false;

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
    if (soon || writing) return;
    soon = true;
    setImmediate(() => {
      soon = false;
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
      while (soon || writing || queue.length > 0) {
        if (writing) await writing;
        else await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
