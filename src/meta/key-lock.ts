import { sql } from "kysely";
import type { MetaDatabase } from "./database.js";

/**
 * Mutual exclusion per key across every process sharing the metadata store, for read-modify-write
 * cycles on data that lives elsewhere (error groups in the telemetry store).
 */
export interface KeyLock {
  /** True when other processes may hold the same keys: cached copies of guarded data are stale. */
  readonly shared: boolean;
  /** Runs work holding every key's lock (taken in sorted order, so two callers never deadlock). */
  withKeys<T>(keys: readonly string[], work: () => Promise<T>): Promise<T>;
}

/** One process owns its data (SQLite is one machine's store): callers serialize in-process. */
export const processLocalLock: KeyLock = { shared: false, withKeys: (_keys, work) => work() };

/**
 * PostgreSQL transaction-scoped advisory locks on a 64-bit hash of each key, held while the work
 * runs and released with the transaction, also when the process dies (its session ends).
 */
function postgresAdvisory(database: MetaDatabase): KeyLock {
  return {
    shared: true,
    withKeys: (keys, work) =>
      database.db.transaction().execute(async (trx) => {
        for (const key of [...new Set(keys)].sort()) {
          await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
        }
        return work();
      }),
  };
}

const KEY_LOCKS: Record<MetaDatabase["engine"], (database: MetaDatabase) => KeyLock> = {
  sqlite: () => processLocalLock,
  postgres: postgresAdvisory,
};

export const createKeyLock = (database: MetaDatabase): KeyLock =>
  KEY_LOCKS[database.engine](database);
