import { mkdirSync } from "node:fs";
import { drainPending, Session } from "chdb";
import { UnavailableError } from "../../lib/domain-errors.js";
import { encodeRows } from "../clickhouse/insert-formats.js";
import {
  type CompactResult,
  describeStatement,
  type JsonCompactResponse,
  type QueryOptions,
  renderSettings,
  type TelemetryExecutor,
  type TelemetryLoad,
} from "../executor.js";
import { NativeInserts } from "./native-insert.js";
import { SessionLane } from "./session-lane.js";
import { sessionParams } from "./session-params.js";

export interface ChdbExecutorOptions {
  /** The chDB data directory; one per process. */
  path: string;
  database: string;
  /**
   * chDB sessions to open on the directory (default 2). The first one (two from 6 on) are write
   * lanes (inserts, DDL, write-path reads, ping), the rest serve reads, ad-hoc queries on all
   * read sessions but one; with one session, everything shares it in order, as a single lane.
   */
  sessions?: number;
  /**
   * How inserts reach the engine: Native blocks (the default, ADR 0015) or JSONCompactEachRow
   * text, the earlier path, kept for tables with types the Native encoder does not write and
   * for the ingest benchmark's second baseline.
   */
  insertFormat?: "Native" | "JSONCompactEachRow";
}

/**
 * ClickHouse query priorities (lower runs first): while a write or a bounded read runs, the
 * threads of ad-hoc queries pause, so a long TQL query cannot starve ingestion of CPU.
 */
const PRIORITY = { write: 1, read: 5, adHoc: 10 } as const;

/** `priority = N` for the statement's kind: an assignment of the SET run before it. */
function priorityAssignment(queryOptions: QueryOptions | undefined): string {
  const priority = queryOptions?.adHoc
    ? PRIORITY.adHoc
    : queryOptions?.writePath
      ? PRIORITY.write
      : PRIORITY.read;
  return `priority = ${priority}`;
}

/** Rows of a JSONEachRow result. */
function parseJsonEachRow<T>(text: string): T[] {
  return text
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as T);
}

/**
 * TelemetryExecutor over chDB, the ClickHouse engine in this process, with a pool of sessions.
 *
 * A chDB session runs one statement at a time, but sessions on the same directory run side by
 * side over the same tables. Writes get a session of their own so an ingest batch never waits
 * behind a long read (a TQL query may run for its whole time limit); each read goes to the read
 * session with the least work, a bounded read to one without ad-hoc work when there is one.
 * Each lane flushes its own session after a failure (see SessionLane). Tracking every lane lets
 * close() wait for everything: closing a session under a running statement aborts the engine.
 */
export function createChdbExecutor(options: ChdbExecutorOptions): TelemetryExecutor {
  mkdirSync(options.path, { recursive: true });
  const count = Math.max(1, Math.floor(options.sessions ?? 2));
  const lanes = Array.from({ length: count }, () => new SessionLane(new Session(options.path)));
  // Two write sessions from 6 on: a batch's big insert takes one, its small ones go to the other.
  const writeCount = count >= 6 ? 2 : 1;
  const writeLanes = lanes.slice(0, writeCount);
  const readLanes = lanes.length > 1 ? lanes.slice(writeCount) : lanes;
  /** When each unfinished write was asked for, oldest first (a Set keeps insertion order). */
  const writesWaiting = new Set<{ since: number }>();
  let closing: Promise<void> | undefined;

  /** Ad-hoc queries (TQL) may use every read session but one, kept for the API's bounded reads. */
  const adHocLanes = readLanes.length > 1 ? readLanes.slice(0, -1) : readLanes;

  function leastBusy(candidates: readonly SessionLane[]): SessionLane {
    let best = candidates[0] as SessionLane;
    for (const lane of candidates) if (lane.load < best.load) best = lane;
    return best;
  }

  /** A bounded read avoids sessions holding ad-hoc work: that may run for its whole time limit. */
  function laneFor(queryOptions: QueryOptions | undefined): SessionLane {
    if (queryOptions?.writePath) return leastBusy(writeLanes);
    if (queryOptions?.adHoc) return leastBusy(adHocLanes);
    const clear = readLanes.filter((lane) => lane.adHoc === 0);
    return leastBusy(clear.length > 0 ? clear : readLanes);
  }

  function schedule<T>(
    lane: SessionLane,
    work: (session: Session) => Promise<T>,
    what: string,
    adHoc = false,
    weight = 1,
  ): Promise<T> {
    if (closing)
      return Promise.reject(new UnavailableError("The telemetry store is shutting down"));
    return lane.run(work, adHoc, what, weight);
  }

  /**
   * Runs a write on the write lane with the least queued weight: a batch's big traces insert
   * takes one lane and its small derived inserts go side by side on the other, instead of every
   * other one queueing behind it.
   */
  async function write<T>(
    what: string,
    work: (session: Session) => Promise<T>,
    weight = 1,
  ): Promise<T> {
    const entry = { since: performance.now() };
    writesWaiting.add(entry);
    try {
      return await schedule(leastBusy(writeLanes), work, what, false, weight);
    } finally {
      writesWaiting.delete(entry);
    }
  }

  function run(
    session: Session,
    sql: string,
    queryOptions: QueryOptions | undefined,
    format: string,
  ) {
    const text = `${sql}${renderSettings(queryOptions?.settings)}`;
    const params = queryOptions?.params ?? {};
    // Parameters set in the session run in parallel with other sessions; bound ones do not.
    // The priority rides in the same SET: one statement fewer to parse and run.
    const set = sessionParams(sql, params, [priorityAssignment(queryOptions)]);
    return set === undefined
      ? session.queryBindAsync(text, params, { format })
      : session.queryAsync(`${set}${text}`, { format });
  }

  /**
   * Reads waiting for their turn, by statement. A read identical to one that is queued but not
   * yet started (same SQL, parameters, settings, lane and format) shares its run instead of
   * queueing a second one: it starts after both callers asked, so both see everything written
   * before they asked. Each caller decodes the result itself, so no row object is shared.
   */
  const queuedReads = new Map<string, ReturnType<typeof run>>();
  function read(sql: string, queryOptions: QueryOptions | undefined, format: string) {
    const key = JSON.stringify([
      format,
      sql,
      queryOptions?.params,
      queryOptions?.settings,
      queryOptions?.writePath === true,
      queryOptions?.adHoc === true,
    ]);
    const queued = queuedReads.get(key);
    if (queued) return queued;
    const started = schedule(
      laneFor(queryOptions),
      (session) => {
        queuedReads.delete(key);
        return run(session, sql, queryOptions, format);
      },
      describeStatement(sql),
      queryOptions?.adHoc === true,
    );
    queuedReads.set(key, started);
    // A read that fails before it starts (the executor is closing) must not stay shareable.
    started
      .catch(() => undefined)
      .finally(() => {
        if (queuedReads.get(key) === started) queuedReads.delete(key);
      });
    return started;
  }

  const native = new NativeInserts(options.path, options.database, (table) =>
    read(
      "SELECT name, type FROM system.columns WHERE database = {database:String} AND table = {table:String}",
      { params: { database: options.database, table }, writePath: true },
      "JSONEachRow",
    ).then((result) => parseJsonEachRow(result.text())),
  );

  /** Rows with a column type the Native encoder does not write, as JSONCompactEachRow. */
  function insertText(table: string, rows: readonly Record<string, unknown>[]) {
    return write(
      `INSERT INTO ${table} (${rows.length} rows)`,
      async (session) => {
        // The column list named once: the engine parses it natively, rows never round-trip as SQL.
        const { columns, body } = encodeRows("JSONCompactEachRow", rows);
        // chDB validates and quotes the plain `db.table` identifier and the column names itself.
        const summary = await session.insert({
          table: `${options.database}.${table}`,
          values: body,
          format: "JSONCompactEachRow",
          columns,
          settings: { priority: PRIORITY.write },
        });
        return { rowsWritten: summary.rowsWritten };
      },
      rows.length,
    );
  }

  return {
    engine: "chdb",
    database: options.database,
    readSlots: readLanes.length,
    adHocSlots: adHocLanes.length,
    async command(sql, queryOptions) {
      native.invalidate();
      await write(describeStatement(sql), (session) => run(session, sql, queryOptions, "CSV"));
    },
    async query<T>(sql: string, queryOptions?: QueryOptions) {
      return parseJsonEachRow<T>((await read(sql, queryOptions, "JSONEachRow")).text());
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
    async insert(table, rows) {
      if (rows.length === 0) return { rowsWritten: 0 };
      const spooled =
        options.insertFormat === "JSONCompactEachRow"
          ? undefined
          : await native.prepare(table, rows);
      if (!spooled) return insertText(table, rows);
      try {
        await write(
          `INSERT INTO ${table} (${rows.length} rows)`,
          (session) =>
            session.queryAsync(`SET ${priorityAssignment({ writePath: true })}; ${spooled.sql}`, {
              format: "CSV",
            }),
          rows.length,
        );
      } finally {
        spooled.done();
      }
      return { rowsWritten: rows.length };
    },
    async ping() {
      // On a write lane: "ready" means a write would be taken up now, not just that reads answer.
      await schedule(
        leastBusy(writeLanes),
        (session) => session.queryAsync("SELECT 1", { format: "CSV" }),
        "ping",
      );
    },
    stats(): TelemetryLoad {
      const oldest = writesWaiting.values().next().value;
      const now = performance.now();
      return {
        sessions: lanes.length,
        busySessions: lanes.filter((lane) => lane.load > 0).length,
        writeWaitMs: oldest ? Math.round(performance.now() - oldest.since) : 0,
        running: lanes
          .flatMap((lane, session) =>
            lane.current
              ? [{ session, what: lane.current.what, ms: Math.round(now - lane.current.since) }]
              : [],
          )
          .sort((a, b) => b.ms - a.ms),
      };
    },
    close() {
      closing ??= (async () => {
        await Promise.all(lanes.map((lane) => lane.idle()));
        await drainPending();
        for (const lane of lanes) lane.session.close();
      })();
      return closing;
    },
  };
}
