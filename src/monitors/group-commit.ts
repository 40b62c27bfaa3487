import { LeaseLostError } from "../lib/leased-scheduler.js";
import type { MetaAccess } from "../meta/meta-store.js";
import {
  type CheckRecordingDeps,
  type RecordCheckInput,
  type RecordedCheck,
  recordCheck,
} from "./check-recording.js";

/**
 * Records checks with group commit: the records that come within `windowMs` of the first one
 * (at most `maxBatch`) are written in one transaction, each exactly as recordCheck writes it
 * alone. On SQLite most of a record's cost is its commit (~110 µs of CPU measured, its pages
 * written to the log), and a hundred checks a second each committing alone also write the same
 * index pages a hundred times.
 *
 * Nothing is acknowledged before its commit: a record's promise settles once its transaction
 * has committed (then the scheduler counts its slot, the status pages and the API read it), so a
 * crash loses only checks not yet acknowledged, as a crash in the middle of a check always did,
 * and a status page sees a check at most `windowMs` after it ended. A record that fails its
 * fence (LeaseLostError) or finds its monitor gone writes nothing and fails or ends alone; any
 * other failure rolls the batch back and its records are written again one transaction each,
 * so that only the failing one fails.
 */
export interface GroupCommit {
  record(check: RecordCheckInput, options?: { now?: boolean }): Promise<RecordedCheck | undefined>;
}

export interface GroupCommitOptions {
  /** How long the first record of a batch waits for others; 0 commits each one alone. */
  windowMs: number;
  /** Records per transaction at most (a full batch commits without waiting). */
  maxBatch?: number;
}

interface Pending {
  check: RecordCheckInput;
  /** When it was queued (performance.now()). */
  at: number;
  /** Someone waits for it (a manual check): its batch commits without waiting. */
  now: boolean;
  resolve(recorded: RecordedCheck | undefined): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: RecordedCheck | undefined } | { ok: false; error: unknown };

/** A batch's records in its transaction, in order (made once: docs/monitors.md, "Hot functions"). */
async function recordEach(
  tx: MetaAccess,
  deps: CheckRecordingDeps,
  batch: readonly Pending[],
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const { check } of batch) {
    try {
      outcomes.push({ ok: true, value: await recordCheck({ ...deps, meta: tx }, check) });
    } catch (error) {
      // Refused by its fence before writing anything (its row lock wrote nothing either).
      if (!(error instanceof LeaseLostError)) throw error;
      outcomes.push({ ok: false, error });
    }
  }
  return outcomes;
}

export function createGroupCommit(
  deps: CheckRecordingDeps,
  options: GroupCommitOptions,
): GroupCommit {
  const { windowMs } = options;
  const maxBatch = options.maxBatch ?? 100;
  let queue: Pending[] = [];
  let timer: NodeJS.Timeout | undefined;
  let committing = false;

  /** Writes the batch in one transaction; a fence or a gone monitor stays one record's outcome. */
  const commitTogether = (batch: Pending[]): Promise<Outcome[]> =>
    deps.meta.transaction((tx: MetaAccess) => recordEach(tx, deps, batch));

  async function commit(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await commitTogether(batch);
      batch.forEach((pending, i) => {
        const outcome = outcomes[i] as Outcome;
        if (outcome.ok) pending.resolve(outcome.value);
        else pending.reject(outcome.error);
      });
    } catch (error) {
      if (batch.length === 1) {
        (batch[0] as Pending).reject(error);
        return;
      }
      // Rolled back as a whole: each record again in a transaction of its own.
      for (const pending of batch)
        await recordCheck(deps, pending.check).then(pending.resolve, pending.reject);
    }
  }

  /** Commits the oldest record's batch once it has waited `windowMs` (at once when full). */
  function arm(): void {
    const oldest = queue[0];
    if (committing || !oldest) return;
    const wait = oldest.at + windowMs - performance.now();
    if (queue.length >= maxBatch || wait <= 0 || queue.some((p) => p.now)) flush();
    else timer ??= setTimeout(flush, wait);
  }

  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (committing || queue.length === 0) return;
    const batch = queue.slice(0, maxBatch);
    queue = queue.slice(batch.length);
    committing = true;
    void commit(batch).finally(() => {
      committing = false;
      arm();
    });
  }

  return {
    record(check, { now = false } = {}) {
      if (windowMs <= 0) return recordCheck(deps, check);
      return new Promise((resolve, reject) => {
        queue.push({ check, at: performance.now(), now, resolve, reject });
        arm();
      });
    },
  };
}
