import type { Logger } from "pino";
import type { Clock } from "../lib/clock.js";

/**
 * When the delivery pump wakes up to claim: by the next delivery that comes due (a retry, another
 * process's work, a lease that runs out), and never later than the poll interval.
 */
export interface WakeTimer {
  /** Makes sure the pump wakes by `atMs` (while it is active). */
  wakeBy(atMs: number): void;
  /**
   * Arms the timer for the queue's next due delivery, unless it is armed or being armed.
   * `emptyClaimAt` is when the last claim found nothing: a delivery due before then is held by
   * another process, so it is retried shortly instead of at once (no spin).
   */
  arm(emptyClaimAt: number): void;
  /** Disarms it. */
  cancel(): void;
  /** The queue read in flight for `arm`, if any. */
  arming(): Promise<void> | undefined;
}

export function createWakeTimer(deps: {
  clock: Clock;
  pollMs: number;
  log: Logger;
  nextDueAt(): Promise<string | undefined>;
  /** Whether the pump runs: a stopped one sets no timer. */
  active(): boolean;
  onWake(): void;
}): WakeTimer {
  const { clock, pollMs, log } = deps;
  let timer: NodeJS.Timeout | undefined;
  let wakeAt = Number.POSITIVE_INFINITY;
  let arming: Promise<void> | undefined;

  function wake(): void {
    timer = undefined;
    wakeAt = Number.POSITIVE_INFINITY;
    deps.onWake();
  }

  function wakeBy(atMs: number): void {
    if (!deps.active()) return;
    const now = clock.now().getTime();
    const target = Math.min(atMs, now + pollMs);
    if (timer && wakeAt <= target) return;
    clearTimeout(timer);
    wakeAt = target;
    timer = setTimeout(wake, Math.max(0, target - now));
    timer.unref();
  }

  return {
    wakeBy,
    arm(emptyClaimAt) {
      if (timer || arming) return;
      arming = deps
        .nextDueAt()
        .then(
          (next) => {
            const now = clock.now().getTime();
            const due = next === undefined ? now + pollMs : Date.parse(next);
            wakeBy(due <= emptyClaimAt ? now + 250 : due);
          },
          (error: unknown) => {
            log.error({ err: (error as Error).message }, "could not read the webhook queue");
            wakeBy(clock.now().getTime() + pollMs);
          },
        )
        .finally(() => {
          arming = undefined;
        });
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      wakeAt = Number.POSITIVE_INFINITY;
    },
    arming: () => arming,
  };
}
