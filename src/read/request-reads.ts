import type { TelemetryExecutor } from "../telemetry/executor.js";

/** Reads at once when the engine does not say how many it runs side by side. */
const DEFAULT_SLOTS = 4;

/**
 * The engine as one request's many statements see it: at most as many in the read admission at
 * once as the engine has read slots, the rest held here in order. Handed over all at once, the
 * AI dashboard's twenty statements waited in the admission behind their own first ones and were
 * refused past its wait bound (503) on a busy engine; held here, each enters the admission among
 * its tenant's next slots, and the request takes as long as before.
 */
export function requestReads(executor: TelemetryExecutor): TelemetryExecutor {
  const slots = Math.max(1, executor.readSlots ?? DEFAULT_SLOTS);
  let running = 0;
  const held: (() => void)[] = [];
  const inTurn = async <T>(work: () => Promise<T>): Promise<T> => {
    if (running < slots) running++;
    // A finishing statement hands its place straight to the next one held (running unchanged).
    else await new Promise<void>((resolve) => held.push(resolve));
    try {
      return await work();
    } finally {
      const next = held.shift();
      if (next) next();
      else running--;
    }
  };
  return {
    ...executor,
    query: (sql, options) => inTurn(() => executor.query(sql, options)),
    queryCompact: (sql, options) => inTurn(() => executor.queryCompact(sql, options)),
  };
}
