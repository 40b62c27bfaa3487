import {
  type DatabaseConnection,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type SqliteDatabase,
  SqliteDialect,
  type TransactionSettings,
} from "kysely";

/**
 * SQL text run on the SQLite connection at once, without Kysely's executor, whenever no Kysely
 * statement or transaction holds the connection. better-sqlite3 runs a statement synchronously,
 * so nothing can interleave with it; what Kysely adds around it (connection mutex, executor,
 * query log, promise hops) measured about 5 µs per statement, as much as a cached one-row
 * SELECT itself. While Kysely holds the connection (a transaction is open, or a statement is
 * between acquiring and releasing it), the statement goes through Kysely instead and waits its
 * turn, so it never runs inside someone else's transaction.
 */
export interface SqliteDirect {
  /** Whether the connection is free: no Kysely statement or transaction holds it. */
  idle(): boolean;
  /** Runs a statement now (call only while `idle()`); reported to `onQuery` like Kysely's. */
  run<Row>(text: string, parameters: readonly unknown[]): { rows: Row[]; changed: number };
}

/** The connection's direct path, per Kysely instance bound to it (not its transactions). */
const directs = new WeakMap<object, SqliteDirect>();

/** The direct path of `db` when it is the SQLite store's own instance (not a transaction). */
export const sqliteDirectOf = (db: object): SqliteDirect | undefined => directs.get(db);

export function registerSqliteDirect(db: object, direct: SqliteDirect): void {
  directs.set(db, direct);
}

/** Kysely's SQLite driver, counting the connections it has handed out and not taken back. */
class HeldCountingDriver implements Driver {
  held = 0;
  constructor(
    private readonly inner: Driver,
    private readonly beforeClose: () => Promise<void>,
  ) {}
  init = () => this.inner.init();
  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    this.held++;
    return connection;
  }
  beginTransaction = (connection: DatabaseConnection, settings: TransactionSettings) =>
    this.inner.beginTransaction(connection, settings);
  commitTransaction = (connection: DatabaseConnection) => this.inner.commitTransaction(connection);
  rollbackTransaction = (connection: DatabaseConnection) =>
    this.inner.rollbackTransaction(connection);
  savepoint = (
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ) => this.inner.savepoint?.(connection, name, compile) ?? Promise.resolve();
  rollbackToSavepoint = (
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ) => this.inner.rollbackToSavepoint?.(connection, name, compile) ?? Promise.resolve();
  releaseSavepoint = (
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ) => this.inner.releaseSavepoint?.(connection, name, compile) ?? Promise.resolve();
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.held--;
    await this.inner.releaseConnection(connection);
  }
  async destroy(): Promise<void> {
    await this.beforeClose();
    await this.inner.destroy();
  }
}

/**
 * Kysely's SQLite dialect over `database` (prepared statements from its cache), and the direct
 * path to the same connection. `onQuery` is called after each direct statement with its time,
 * as Kysely's query log is for the others. `beforeClose` runs, and is waited for, before the
 * connection closes.
 */
export function sqliteDialectWithDirect(
  database: SqliteDatabase,
  onQuery?: (seconds: number, failed: boolean) => void,
  beforeClose: () => Promise<void> = async () => undefined,
): { dialect: SqliteDialect; direct: SqliteDirect } {
  let driver: HeldCountingDriver | undefined;
  const dialect = new (class extends SqliteDialect {
    override createDriver(): Driver {
      driver = new HeldCountingDriver(super.createDriver(), beforeClose);
      return driver;
    }
  })({ database });
  const direct: SqliteDirect = {
    idle: () => driver !== undefined && driver.held === 0,
    run<Row>(text: string, parameters: readonly unknown[]) {
      const started = onQuery ? performance.now() : 0;
      try {
        const statement = database.prepare(text);
        const result = statement.reader
          ? { rows: statement.all(parameters) as Row[], changed: 0 }
          : { rows: [] as Row[], changed: Number(statement.run(parameters).changes) };
        onQuery?.((performance.now() - started) / 1000, false);
        return result;
      } catch (error) {
        onQuery?.((performance.now() - started) / 1000, true);
        throw error;
      }
    },
  };
  return { dialect, direct };
}

/**
 * Runs `fn` in a transaction on the SQLite connection, held through Kysely for the whole of it
 * (Kysely's statements and others' SQL text wait their turn), with the SQL text `fn` runs on
 * the instance it is given going straight to the connection: a transaction of a dozen
 * statements spends no Kysely executor on them. Kysely's own statements inside run on the same
 * held connection, inside the same transaction. Rolled back when `fn` or the commit fails.
 */
export function sqliteTransaction<DB, T>(
  db: Kysely<DB>,
  direct: SqliteDirect,
  fn: (connection: Kysely<DB>) => Promise<T>,
): Promise<T> {
  return db.connection().execute((connection) => immediateTransaction(connection, direct, fn));
}

/** The direct path inside one transaction: open until the transaction ends. */
class TransactionDirect implements SqliteDirect {
  open = true;
  constructor(readonly run: SqliteDirect["run"]) {}
  idle(): boolean {
    return this.open;
  }
}

/** sqliteTransaction's body on the held connection (made once: docs/monitors.md, "Hot functions"). */
async function immediateTransaction<DB, T>(
  connection: Kysely<DB>,
  direct: SqliteDirect,
  fn: (connection: Kysely<DB>) => Promise<T>,
): Promise<T> {
  const inTransaction = new TransactionDirect(direct.run);
  directs.set(connection, inTransaction);
  try {
    // Immediate: the write lock from the start, so no other process's write comes between
    // this transaction's reads and its writes (a row lock on SQLite is then only a read, see
    // row-lock.ts), and a transaction that reads first never fails to upgrade to a writer.
    // Read-only transactions take it too: while another process (a CLI command) writes, this
    // waits up to busy_timeout, as a writing transaction always did.
    direct.run("begin immediate", []);
    try {
      const result = await fn(connection);
      direct.run("commit", []);
      return result;
    } catch (error) {
      try {
        direct.run("rollback", []);
      } catch {
        // Nothing to roll back (the failure ended the transaction already).
      }
      throw error;
    }
  } finally {
    inTransaction.open = false;
  }
}
