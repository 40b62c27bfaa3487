import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import SQLite from "better-sqlite3";
import {
  type Dialect,
  Kysely,
  type LogEvent,
  Migrator,
  PostgresDialect,
  type SqliteDatabase,
} from "kysely";
import pg from "pg";
import { migrationProvider } from "./migrations/index.js";
import type { MetaSchema } from "./schema.js";
import { startCheckpointer } from "./sqlite-checkpointer.js";
import {
  registerSqliteDirect,
  type SqliteDirect,
  sqliteDialectWithDirect,
} from "./sqlite-direct.js";

/** Which engine backs the metadata store; chosen once from the configured URL. */
export type MetaEngine = "sqlite" | "postgres";

export interface MetaDatabaseOptions {
  /** `postgres://…` or `postgresql://…` selects PostgreSQL; anything else is a SQLite file path. */
  url?: string | undefined;
  dataDir: string;
  /** Called after every query with its duration, for store latency metrics. */
  onQuery?: ((seconds: number, failed: boolean) => void) | undefined;
  /**
   * PostgreSQL only: an idle pooled connection failed (server restart, network drop). The pool
   * discards it and opens a new one on the next query; without a listener Node would crash.
   */
  onConnectionError?: ((error: Error) => void) | undefined;
}

export interface MetaDatabase {
  engine: MetaEngine;
  db: Kysely<MetaSchema>;
  /** True when the error is a unique-constraint violation in this engine. */
  isUniqueViolation(error: unknown): boolean;
}

function errorCode(error: unknown): unknown {
  return typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
}

function openSqlite(
  path: string,
  onQuery?: (seconds: number, failed: boolean) => void,
): { dialect: Dialect; direct: SqliteDirect } {
  mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  database.pragma("journal_mode = WAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  database.pragma("synchronous = NORMAL");
  database.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  // Checkpoints run on a worker thread; the event loop's own only past ~40 MB of log.
  database.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  const checkpointer = startCheckpointer(path);
  // Statements at top level run at once while Kysely does not hold the connection (sqlite-direct.ts).
  // Closing waits for the worker to close its connection first: a data dir removed right after
  // the store closed raced the worker's last checkpoint (ENOTEMPTY), and the main connection,
  // closed last, is the one that folds the log back and removes it.
  return sqliteDialectWithDirect(withStatementCache(database, STATEMENT_CACHE_SIZE), onQuery, () =>
    checkpointer.stop(),
  );
}

/**
 * The connection's page cache, in KiB (it grows only as pages are read). SQLite's default, 2 MB,
 * holds fewer pages than 6,000 monitors' rows take, so every check read its monitor's page from
 * the operating system again. Measured: the read of a monitor to check it went from 18 to 13 µs.
 */
const PAGE_CACHE_KIB = 64 * 1024;

/** Pages of write-ahead log after which a commit checkpoints by itself (SQLite's default: 1,000). */
const BACKSTOP_CHECKPOINT_PAGES = 10_000;

/** Prepared statements kept per SQLite connection (queries repeat; preparing costs ~30 µs). */
const STATEMENT_CACHE_SIZE = 500;
/**
 * Longer SQL is not kept: multi-row inserts and long IN lists differ with every size, and a
 * prepared statement of hundreds of rows costs ~0.3 MB.
 */
const CACHED_SQL_MAX_LENGTH = 2_000;

/**
 * The database as Kysely uses it, reusing a prepared statement for SQL text seen before. Beyond
 * `size`, the oldest is dropped unless it was used since it last came up for eviction (then it
 * goes to the back: "second chance"), so a hit costs one lookup instead of moving the entry to
 * the back of the map (two more map operations on the text, ~0.7 µs per statement). A statement
 * still iterating is never handed out twice: a fresh one is prepared instead.
 */
export function withStatementCache(database: SQLite.Database, size: number): SqliteDatabase {
  type Entry = { statement: SQLite.Statement; used: boolean };
  const cache = new Map<string, Entry>();
  const evict = () => {
    while (cache.size > size) {
      const [text, entry] = cache.entries().next().value as [string, Entry];
      cache.delete(text);
      if (entry.used) {
        entry.used = false;
        cache.set(text, entry);
      }
    }
  };
  return {
    close: () => {
      database.close();
    },
    prepare(text) {
      if (text.length > CACHED_SQL_MAX_LENGTH) return database.prepare(text);
      const cached = cache.get(text);
      if (cached && !cached.statement.busy) {
        cached.used = true;
        return cached.statement;
      }
      const statement = database.prepare(text);
      cache.delete(text);
      cache.set(text, { statement, used: false });
      evict();
      return statement;
    },
  };
}

function openPostgres(url: string, onConnectionError?: (error: Error) => void): Dialect {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on("error", (error) => onConnectionError?.(error));
  return new PostgresDialect({ pool });
}

export function openMetaDatabase(options: MetaDatabaseOptions): MetaDatabase {
  const url = options.url ?? join(options.dataDir, "meta.sqlite");
  const engine: MetaEngine = /^postgres(ql)?:\/\//.test(url) ? "postgres" : "sqlite";
  const onQuery = options.onQuery;
  const sqlite = engine === "sqlite" ? openSqlite(url, onQuery) : undefined;
  const dialect = sqlite?.dialect ?? openPostgres(url, options.onConnectionError);
  const db = new Kysely<MetaSchema>({
    dialect,
    ...(onQuery
      ? {
          log: (event: LogEvent) =>
            onQuery(event.queryDurationMillis / 1000, event.level === "error"),
        }
      : {}),
  });
  if (sqlite) registerSqliteDirect(db, sqlite.direct);
  const uniqueCodes =
    engine === "postgres"
      ? ["23505"]
      : ["SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"];
  return {
    engine,
    db,
    isUniqueViolation: (error) => uniqueCodes.includes(String(errorCode(error))),
  };
}

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrateMetaDatabase(db: Kysely<MetaSchema>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? "unknown error");
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${reason}`);
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
