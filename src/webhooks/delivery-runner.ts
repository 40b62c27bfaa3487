import type { Logger } from "pino";
import type { MetaAccess } from "../meta/meta-store.js";
import type { AttemptOutcome } from "../meta/repositories/webhook-deliveries.js";
import { type AttemptDeps, createAttemptMaker, type DeliveryJob } from "./attempt.js";
import { createAttemptRecorder } from "./recorder.js";

/**
 * The delivery logic: one job's attempt (signed POST, retry policy: attempt.ts) and its
 * recording (recorder.ts), whatever the pump that schedules them.
 */
export interface DeliveryRunner {
  /**
   * Attempts a job, reports its duration to `attempted` and calls `answered` once the attempt is
   * over, then records the outcome. Resolves with the delivery's next attempt time (null when it
   * is done), or undefined when the attempt or its recording failed (logged where it failed;
   * the lease brings the delivery back). Never rejects.
   */
  run(
    job: DeliveryJob,
    hooks?: { answered?: () => void; attempted?: (durationMs: number) => void },
  ): Promise<string | null | undefined>;
  /** Attempts a job now and records it; rejects if either fails. */
  attemptNow(job: DeliveryJob): Promise<AttemptOutcome>;
  /** Resolves once every outcome handed to the recorder so far is written. */
  idle(): Promise<void>;
}

export function createDeliveryRunner(
  deps: AttemptDeps & { meta: MetaAccess; log: Logger },
): DeliveryRunner {
  const attempt = createAttemptMaker(deps);
  const recorder = createAttemptRecorder(deps.meta, deps.log);
  return {
    async run(job, hooks = {}) {
      let outcome: AttemptOutcome;
      try {
        outcome = await attempt(job);
        hooks.attempted?.(outcome.attempt.durationMs);
      } catch {
        return undefined;
      } finally {
        hooks.answered?.();
      }
      try {
        await recorder.record(outcome);
      } catch {
        return undefined;
      }
      return outcome.nextAttemptAt;
    },
    async attemptNow(job) {
      const outcome = await attempt(job);
      await recorder.record(outcome);
      return outcome;
    },
    idle: () => recorder.idle(),
  };
}
