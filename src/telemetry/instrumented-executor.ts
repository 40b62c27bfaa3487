import type { TelemetryExecutor } from "./executor.js";

type Observe = (operation: string, seconds: number, failed: boolean) => void;

/** Wraps an executor so every call's latency is observed (for the store latency metric). */
export function instrumentExecutor(inner: TelemetryExecutor, observe: Observe): TelemetryExecutor {
  const timed = async <T>(operation: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    let failed = false;
    try {
      return await work();
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      observe(operation, (performance.now() - started) / 1000, failed);
    }
  };
  // Engines are plain objects of closures: the rest (engine, database, readSlots, adHocSlots, stats, close)
  // is the inner engine's own, so a member added to the port is never dropped here.
  return {
    ...inner,
    command: (sql, options) => timed("command", () => inner.command(sql, options)),
    query<T>(sql: string, options?: Parameters<TelemetryExecutor["query"]>[1]) {
      return timed("query", () => inner.query<T>(sql, options));
    },
    queryCompact: (sql, options) => timed("query", () => inner.queryCompact(sql, options)),
    insert: (table, rows) => timed("insert", () => inner.insert(table, rows)),
    ping: () => timed("ping", () => inner.ping()),
  };
}
