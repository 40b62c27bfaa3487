/** Work run at start and then every interval, never two runs at once. */
export interface PeriodicTask {
  /** Runs it now, or joins the run in flight. */
  runOnce(): Promise<void>;
  start(): void;
  /** Stops the timer and waits for a run in flight. */
  stop(): Promise<void>;
}

/** A periodic task; a failed run is handed to `onError` and the next interval runs again. */
export function createPeriodicTask(options: {
  run(): Promise<void>;
  intervalMs: number;
  onError(error: Error): void;
}): PeriodicTask {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const runOnce = () => {
    running ??= options
      .run()
      .catch((error: unknown) => options.onError(error as Error))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  return {
    runOnce,
    start() {
      void runOnce();
      timer = setInterval(runOnce, options.intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
