import { mkdirSync } from "node:fs";
import { drainPending, Session } from "chdb";
import { UnavailableError } from "../../lib/errors.js";
import {
  type CompactResult,
  type QueryOptions,
  renderSettings,
  type TelemetryExecutor,
} from "../executor.js";

export interface ChdbExecutorOptions {
  /** The chDB data directory; one per process. */
  path: string;
  database: string;
}

interface JsonCompactResponse {
  meta: { name: string; type: string }[];
  data: unknown[][];
  statistics?: { elapsed?: number; rows_read?: number };
}

/** A statement whose only job is to carry away whatever a failed statement left in the session. */
const FLUSH_SQL = "SELECT 1";

/**
 * TelemetryExecutor over chDB, the ClickHouse engine in this process.
 *
 * Calls run one at a time, in order. chDB runs a session's statements one after another anyway,
 * and it keeps the output a statement wrote before failing (a timeout, a memory limit, a
 * throwIf) and hands it to the *next* statement as a prefix of its result. With several tenants
 * sharing one session that would show one project's partial rows to another, so after any
 * failure the executor runs a flush statement, discarding its result, before the next call may
 * start. Tracking the queue also lets close() wait for everything: closing the session under a
 * running query aborts the engine.
 */
export function createChdbExecutor(options: ChdbExecutorOptions): TelemetryExecutor {
  mkdirSync(options.path, { recursive: true });
  const session = new Session(options.path);
  let tail: Promise<unknown> = Promise.resolve();
  let closing: Promise<void> | undefined;

  async function flushAfterFailure() {
    try {
      await session.queryAsync(FLUSH_SQL, { format: "CSV" });
    } catch {
      // Nothing to carry away, or the engine is failing as a whole: the caller sees the original error.
    }
  }

  function track<T>(work: () => Promise<T>): Promise<T> {
    if (closing)
      return Promise.reject(new UnavailableError("The telemetry store is shutting down"));
    const run = tail.then(async () => {
      try {
        return await work();
      } catch (error) {
        await flushAfterFailure();
        throw error;
      }
    });
    tail = run.catch(() => undefined);
    return run;
  }

  async function run(sql: string, queryOptions: QueryOptions | undefined, format: string) {
    const text = `${sql}${renderSettings(queryOptions?.settings)}`;
    return queryOptions?.params
      ? session.queryBindAsync(text, queryOptions.params, { format })
      : session.queryAsync(text, { format });
  }

  /**
   * Reads waiting for their turn, by statement. A read identical to one that is queued but not
   * yet started (same SQL, parameters, settings and format) shares its run instead of queueing
   * a second one: it starts after both callers asked, so both see everything written before
   * they asked. Each caller decodes the result itself, so no row object is shared.
   */
  const queuedReads = new Map<string, ReturnType<typeof run>>();
  function read(sql: string, queryOptions: QueryOptions | undefined, format: string) {
    const key = JSON.stringify([format, sql, queryOptions?.params, queryOptions?.settings]);
    const queued = queuedReads.get(key);
    if (queued) return queued;
    const started = track(() => {
      queuedReads.delete(key);
      return run(sql, queryOptions, format);
    });
    queuedReads.set(key, started);
    // A read that fails before it starts (the executor is closing) must not stay shareable.
    started
      .catch(() => undefined)
      .finally(() => {
        if (queuedReads.get(key) === started) queuedReads.delete(key);
      });
    return started;
  }

  return {
    engine: "chdb",
    database: options.database,
    async command(sql, queryOptions) {
      await track(() => run(sql, queryOptions, "CSV"));
    },
    async query<T>(sql: string, queryOptions?: QueryOptions) {
      const text = (await read(sql, queryOptions, "JSONEachRow")).text();
      return text.length === 0
        ? []
        : text
            .split("\n")
            .filter((line) => line.length > 0)
            .map((line) => JSON.parse(line) as T);
    },
    async queryCompact(sql, queryOptions): Promise<CompactResult> {
      const result = await read(sql, queryOptions, "JSONCompact");
      const body = result.json<JsonCompactResponse>();
      return {
        columns: body.meta.map((c) => ({ name: c.name, type: c.type })),
        rows: body.data,
        rowsRead: body.statistics?.rows_read ?? result.rowsRead,
        elapsedSeconds: body.statistics?.elapsed ?? result.elapsed,
      };
    },
    insert(table, rows) {
      if (rows.length === 0) return Promise.resolve({ rowsWritten: 0 });
      return track(async () => {
        // JSONCompactEachRow as one buffer with the column list named once: the engine parses it
        // natively (about a third faster than keyed JSON), rows never round-trip as SQL text.
        const columns = Object.keys(rows[0] as Record<string, unknown>);
        const lines = rows.map((row) => JSON.stringify(columns.map((column) => row[column])));
        // chDB validates and quotes the plain `db.table` identifier and the column names itself.
        const summary = await session.insert({
          table: `${options.database}.${table}`,
          values: Buffer.from(lines.join("\n")),
          format: "JSONCompactEachRow",
          columns,
        });
        return { rowsWritten: summary.rowsWritten };
      });
    },
    async ping() {
      await track(() => session.queryAsync("SELECT 1", { format: "CSV" }));
    },
    close() {
      closing ??= (async () => {
        await tail;
        await drainPending();
        session.close();
      })();
      return closing;
    },
  };
}
