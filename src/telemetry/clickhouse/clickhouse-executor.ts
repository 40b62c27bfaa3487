import { Readable } from "node:stream";
import { type ClickHouseClient, ClickHouseLogLevel, createClient } from "@clickhouse/client";
import { UnavailableError } from "../../lib/domain-errors.js";
import {
  type CompactResult,
  describeStatement,
  type JsonCompactResponse,
  type QueryOptions,
  type QuerySettings,
  quoteIdentifier,
  type TelemetryExecutor,
  type TelemetryLoad,
} from "../executor.js";
import { displayUrl, responseError, transportError } from "./clickhouse-errors.js";
import { Gate } from "./gate.js";
import { DEFAULT_INSERT_FORMAT, encodeRows, type InsertFormat } from "./insert-formats.js";

export interface ClickHouseExecutorOptions {
  /** The server's HTTP interface, e.g. `http://clickhouse:8123`. */
  url: string;
  database: string;
  user?: string | undefined;
  password?: string | undefined;
  /** PEM CA certificates to trust for an https:// URL. */
  ca?: string | Buffer | undefined;
  /** HTTP connections at once (default 16): a quarter (at least 1) for writes, the rest for reads. */
  maxConnections?: number | undefined;
  /** Inserts with async_insert=1 and wait_for_async_insert=1 (ADR 0012). */
  asyncInsert?: boolean | undefined;
  /** The tables are Distributed over this cluster: inserts wait for every shard (ADR 0012). */
  cluster?: string | undefined;
  /** No answer for this long fails the request (default 5 min); above the longest query's limit. */
  requestTimeoutMs?: number | undefined;
  /** The insert encoding (default DEFAULT_INSERT_FORMAT); other values are for the benchmark. */
  insertFormat?: InsertFormat | undefined;
  /** gzip insert bodies (default off; see ADR 0012). */
  compressInserts?: boolean | undefined;
}

/** ClickHouse query priorities as the chDB adapter sets them: lower runs first. */
const PRIORITY = { write: 1, read: 5, adHoc: 10 } as const;

/**
 * Output settings pinned to what chDB (ClickHouse 26.7) prints, so both adapters return identical
 * JS values whatever the server's version or profile: 64-bit integers and decimals as JSON
 * numbers, named tuples as objects, DateTime as `YYYY-MM-DD hh:mm:ss`.
 */
const OUTPUT_SETTINGS = {
  output_format_json_quote_64bit_integers: 0,
  output_format_json_quote_64bit_floats: 0,
  output_format_json_quote_decimals: 0,
  output_format_json_quote_denormals: 0,
  output_format_json_named_tuples_as_objects: 1,
  output_format_decimal_trailing_zeros: 0,
  date_time_output_format: "simple",
} as const;

const SETTING_NAME = /^[a-z_][a-z0-9_]*$/;

/** `sql` ending in a FORMAT clause, as @clickhouse/client's query() would send it. */
function withFormat(sql: string, format: string): string {
  return `${sql.trim().replace(/;+$/, "")} \nFORMAT ${format}`;
}

interface Statement {
  what: string;
  /** When it was asked for (a write's wait counts from here). */
  since: number;
  /** When it got a connection; undefined while an ad-hoc read waits for one. */
  started: number | undefined;
  write: boolean;
}

/**
 * TelemetryExecutor over a ClickHouse server's HTTP interface (`@clickhouse/client`).
 *
 * The server runs statements side by side, so the adapter keeps no queues of its own beyond
 * connection limits that mirror the chDB adapter's lanes: writes (inserts, DDL, write-path reads,
 * ping) have connections of their own, so ingestion never waits for a socket behind reads, and
 * ad-hoc (TQL) reads may hold every read connection but one, kept for the API's bounded reads.
 * Every request waits for the end of its statement on the server (`wait_end_of_query`), so an
 * error is a whole HTTP error, never a failure half-way through a body.
 */
export function createClickHouseExecutor(options: ClickHouseExecutorOptions): TelemetryExecutor {
  const shownUrl = displayUrl(options.url);
  const maxConnections = Math.max(2, Math.floor(options.maxConnections ?? 16));
  const writeConnections = Math.max(1, Math.floor(maxConnections / 4));
  const readConnections = maxConnections - writeConnections;
  const insertFormat = options.insertFormat ?? DEFAULT_INSERT_FORMAT;
  const connect = (connections: number): ClickHouseClient =>
    createClient({
      url: options.url,
      username: options.user ?? "default",
      password: options.password ?? "",
      application: "vigil",
      max_open_connections: connections,
      request_timeout: options.requestTimeoutMs ?? 300_000,
      compression: { request: options.compressInserts ?? false, response: false },
      clickhouse_settings: OUTPUT_SETTINGS,
      // Failures reach the caller as errors; the client must not print to the console.
      log: { level: ClickHouseLogLevel.OFF },
      ...(options.ca === undefined ? {} : { tls: { ca_cert: Buffer.from(options.ca) } }),
    });
  const writer = connect(writeConnections);
  const reader = connect(readConnections);
  const adHocSlots = Math.max(1, readConnections - 1);
  const adHocGate = new Gate(adHocSlots);
  const inFlight = new Map<Promise<unknown>, Statement>();
  let closing: Promise<void> | undefined;

  /**
   * Runs `work`, known to stats() and close() until it settles. Gated work (an ad-hoc read
   * waiting for a connection) calls `start` when it gets one; other work starts at once.
   */
  function track<T>(
    what: string,
    write: boolean,
    work: (start: () => void) => Promise<T>,
    gated = false,
  ): Promise<T> {
    if (closing)
      return Promise.reject(new UnavailableError("The telemetry store is shutting down"));
    const since = performance.now();
    const entry: Statement = { what, since, started: gated ? undefined : since, write };
    const running = work(() => {
      entry.started = performance.now();
    });
    inFlight.set(running, entry);
    const forget = () => inFlight.delete(running);
    running.then(forget, forget);
    return running;
  }

  function settingsFor(queryOptions: QueryOptions | undefined, priority: number) {
    const settings: Record<string, string | number> = { priority };
    for (const [name, value] of Object.entries(queryOptions?.settings ?? {})) {
      if (!SETTING_NAME.test(name)) throw new Error(`Invalid ClickHouse setting name: ${name}`);
      // As the chDB adapter renders them: booleans as 0/1.
      settings[name] = typeof value === "boolean" ? Number(value) : value;
    }
    return settings;
  }

  /** Runs one statement; resolves with the whole response body, or rejects with the server's error. */
  async function exec(
    client: ClickHouseClient,
    query: string,
    settings: QuerySettings,
    params: QueryOptions["params"],
    values?: Buffer,
  ): Promise<{ text: string }> {
    let text: string;
    let result: Awaited<ReturnType<ClickHouseClient["exec"]>>;
    try {
      result = await client.exec({
        query,
        clickhouse_settings: settings,
        ...(params === undefined ? {} : { query_params: { ...params } }),
        ...(values === undefined ? {} : { values: Readable.from([values]) }),
        ignore_error_response: true,
      });
      const chunks: Buffer[] = [];
      for await (const chunk of result.stream) chunks.push(chunk as Buffer);
      text = Buffer.concat(chunks).toString("utf8");
    } catch (error) {
      throw transportError(shownUrl, error);
    }
    const status = result.http_status_code;
    const code = result.response_headers["x-clickhouse-exception-code"];
    if (status === undefined || status < 200 || status >= 300 || code !== undefined)
      throw responseError(shownUrl, status, text, typeof code === "string" ? code : undefined);
    return { text };
  }

  /** A SELECT: on the write connections for write-path reads, behind the gate for ad-hoc ones. */
  function read(sql: string, queryOptions: QueryOptions | undefined, format: string) {
    const writePath = queryOptions?.writePath === true;
    const adHoc = !writePath && queryOptions?.adHoc === true;
    const priority = adHoc ? PRIORITY.adHoc : writePath ? PRIORITY.write : PRIORITY.read;
    const settings = { ...settingsFor(queryOptions, priority), wait_end_of_query: 1 };
    const run = () =>
      exec(writePath ? writer : reader, withFormat(sql, format), settings, queryOptions?.params);
    if (!adHoc) return track(describeStatement(sql), false, run);
    const gated = (start: () => void) =>
      adHocGate.run(() => {
        start();
        return run();
      });
    return track(describeStatement(sql), false, gated, true);
  }

  return {
    engine: "clickhouse",
    database: options.database,
    readSlots: readConnections,
    adHocSlots,
    async command(sql, queryOptions) {
      const settings = { ...settingsFor(queryOptions, PRIORITY.write), wait_end_of_query: 1 };
      await track(describeStatement(sql), true, () =>
        exec(writer, sql, settings, queryOptions?.params),
      );
    },
    async query<T>(sql: string, queryOptions?: QueryOptions) {
      const { text } = await read(sql, queryOptions, "JSONEachRow");
      const rows: T[] = [];
      for (const line of text.split("\n")) if (line.length > 0) rows.push(JSON.parse(line) as T);
      return rows;
    },
    async queryCompact(sql, queryOptions): Promise<CompactResult> {
      const { text } = await read(sql, queryOptions, "JSONCompact");
      const body = JSON.parse(text) as JsonCompactResponse;
      return {
        columns: body.meta.map((c) => ({ name: c.name, type: c.type })),
        rows: body.data,
        rowsRead: body.statistics?.rows_read ?? 0,
        elapsedSeconds: body.statistics?.elapsed ?? 0,
      };
    },
    async insert(table, rows) {
      if (rows.length === 0) return { rowsWritten: 0 };
      const { columns, body } = encodeRows(insertFormat, rows);
      const target = `${quoteIdentifier(options.database)}.${quoteIdentifier(table)}`;
      const sql = `INSERT INTO ${target} (${columns.map(quoteIdentifier).join(", ")}) FORMAT ${insertFormat}`;
      const settings: Record<string, number> = { priority: PRIORITY.write };
      if (options.asyncInsert) {
        // The server batches small inserts; waiting for the flush keeps "acknowledged = stored".
        settings.async_insert = 1;
        settings.wait_for_async_insert = 1;
      }
      // A Distributed insert is otherwise queued on the receiving node and sent to the shards in
      // the background: a read right after it could miss the rows (ADR 0012).
      if (options.cluster !== undefined) settings.insert_distributed_sync = 1;
      return track(`INSERT INTO ${table} (${rows.length} rows)`, true, async () => {
        await exec(writer, sql, settings, undefined, body);
        // The rows this insert sent, all acknowledged. The server's summary is no count of them:
        // it adds what materialized views wrote, and counts nothing for an async insert.
        return { rowsWritten: rows.length };
      });
    },
    async ping() {
      // A query, not GET /ping (which needs no credentials): it proves the user may run
      // statements, over the write connections, as "ready" means "a write would be taken up".
      await track("ping", false, () =>
        exec(writer, "SELECT 1", { priority: PRIORITY.write }, undefined),
      );
    },
    stats(): TelemetryLoad {
      const now = performance.now();
      const statements = [...inFlight.values()];
      const oldestWrite = statements.find((s) => s.write);
      return {
        sessions: maxConnections,
        busySessions: Math.min(
          maxConnections,
          statements.filter((s) => s.started !== undefined).length,
        ),
        writeWaitMs: oldestWrite ? Math.round(now - oldestWrite.since) : 0,
        running: statements
          .flatMap((s) =>
            s.started === undefined ? [] : [{ what: s.what, ms: Math.round(now - s.started) }],
          )
          .sort((a, b) => b.ms - a.ms)
          .map((s, session) => ({ session, ...s })),
      };
    },
    close() {
      closing ??= (async () => {
        while (inFlight.size > 0) await Promise.allSettled([...inFlight.keys()]);
        await Promise.all([writer.close(), reader.close()]);
      })();
      return closing;
    },
  };
}
