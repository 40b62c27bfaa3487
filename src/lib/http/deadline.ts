/**
 * One outbound exchange's abort signal: it fires when the time limit passes or when the caller's
 * own signal does, and says afterwards which of the two it was.
 */
export interface Deadline {
  readonly signal: AbortSignal;
  /** The time limit passed. */
  readonly timedOut: boolean;
  /** The caller's signal fired first (a cancelled exchange, not a slow one). */
  readonly cancelled: boolean;
  /** Stops the timer and lets go of the caller's signal: call it once the exchange is over. */
  dispose(): void;
}

/**
 * Starts a deadline of `timeoutMs`, tied to `parent`. The reasons make what the signal aborts
 * with, only when it does: an Error built for every exchange (its stack captured) cost a monitor
 * check ~100 µs of CPU, and almost every exchange ends in time.
 */
export function startDeadline(
  timeoutMs: number,
  parent?: AbortSignal,
  reasons: { timeout?: () => unknown; cancel?: () => unknown } = {},
): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    if (controller.signal.aborted) return;
    timedOut = true;
    controller.abort(reasons.timeout?.());
  }, timeoutMs);
  const cancel = () => controller.abort(reasons.cancel?.());
  if (parent?.aborted) cancel();
  parent?.addEventListener("abort", cancel, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    get cancelled() {
      return !timedOut && controller.signal.aborted;
    },
    dispose() {
      clearTimeout(timer);
      parent?.removeEventListener("abort", cancel);
    },
  };
}
