/**
 * A test-only ClickHouse server: the part of ClickHouse's HTTP interface @clickhouse/client uses,
 * on 127.0.0.1 and an ephemeral port, backed by chDB (no ClickHouse server can be installed here,
 * and chDB serves no protocol). It speaks the wire format a real server does, so the HTTP adapter
 * runs unchanged against it; what it does not do (sessions, multipart parameters, clusters,
 * progress headers, mid-stream errors) is listed in docs/adr/0012-clickhouse-server-adapter.md.
 *
 * Each request runs on a chDB session of its own, opened for it and closed after: settings and
 * parameters arrive as `SET` statements and must not outlive the request, as on a real server.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync, gzipSync, inflateSync } from "node:zlib";
import { drainPending, Session } from "chdb";
import { stringLiteral } from "../../src/telemetry/chdb/session-params.js";
import { quoteIdentifier } from "../../src/telemetry/executor.js";
import {
  contentTypeOf,
  credentialsOf,
  formatOf,
  httpStatusOf,
  parseInsert,
  parseSearch,
  type ShimRequest,
  settingLiteral,
} from "./clickhouse-shim-protocol.js";

export interface ClickHouseShimOptions {
  /** chDB data directory; one per process. */
  dataDir: string;
  /** The one user the shim knows (default `default`). */
  user?: string | undefined;
  /** That user's password (default empty). */
  password?: string | undefined;
  /** Port to bind on 127.0.0.1 (default 0: a free one). */
  port?: number | undefined;
  /** Serve https:// with this key and certificate instead of http://. */
  tls?: { key: Buffer; cert: Buffer } | undefined;
}

/** One request as the shim saw it, for tests that check what the client sent. */
export interface ShimRequestRecord {
  method: string;
  path: string;
  sql: string;
  settings: Record<string, string>;
  params: Record<string, string>;
  contentEncoding: string | undefined;
  bodyBytes: number;
}

export interface ClickHouseShim {
  url: string;
  /** The most recent requests (up to 1,000), oldest first. */
  requests: ShimRequestRecord[];
  close(): Promise<void>;
}

/** Raised inside the shim with ClickHouse's code and text. */
class ShimError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const SERVER_NAME = "vigil-clickhouse-shim";

function decompress(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === undefined || encoding === "identity") return body;
  if (encoding === "gzip") return gunzipSync(body);
  if (encoding === "deflate") return inflateSync(body);
  if (encoding === "br") return brotliDecompressSync(body);
  throw new ShimError(
    1,
    `Code: 1. DB::Exception: Unknown HTTP content encoding ${encoding}. (UNSUPPORTED_METHOD)`,
  );
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The `SET …` statements giving one request's session its settings, parameters and database. */
function prelude(request: ShimRequest, readonlyGet: boolean): string[] {
  const statements: string[] = [];
  if (request.database !== undefined) statements.push(`USE ${quoteIdentifier(request.database)}`);
  const settings = new Map(request.settings);
  // GET requests are read-only on a real server (readonly = 2 keeps settings changeable).
  if (readonlyGet && !settings.has("readonly")) settings.set("readonly", "2");
  // The server applies a request's settings together; in SET statements readonly must come last.
  const ordered = [...settings].sort(
    ([a], [b]) => Number(a === "readonly") - Number(b === "readonly"),
  );
  for (const [name, value] of ordered) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new ShimError(
        115,
        `Code: 115. DB::Exception: Unknown setting '${name}'. (UNKNOWN_SETTING)`,
      );
    statements.push(`SET ${name} = ${settingLiteral(value)}`);
  }
  for (const [name, value] of request.params) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new ShimError(
        36,
        `Code: 36. DB::Exception: Bad parameter name ${name}. (BAD_ARGUMENTS)`,
      );
    // The value is already Escaped text: the literal must carry it unchanged.
    statements.push(`SET param_${name} = ${stringLiteral(value)}`);
  }
  return statements;
}

interface Outcome {
  body: string;
  format: string;
  summary: Record<string, string>;
}

/** Starts a shim on 127.0.0.1; resolves once it listens. */
export async function startClickHouseShim(options: ClickHouseShimOptions): Promise<ClickHouseShim> {
  mkdirSync(options.dataDir, { recursive: true });
  // Keeps the engine loaded: opening a further session on a loaded directory takes ~2 ms.
  const anchor = new Session(options.dataDir);
  const version = (await anchor.queryAsync("SELECT version()", { format: "TSVRaw" })).text().trim();
  const user = options.user ?? "default";
  const password = options.password ?? "";
  const requests: ShimRequestRecord[] = [];
  const inFlight = new Set<Promise<void>>();

  async function execute(
    request: ShimRequest,
    sql: string,
    data: Buffer | undefined,
    get: boolean,
  ): Promise<Outcome> {
    const session = new Session(options.dataDir);
    const started = process.hrtime.bigint();
    const elapsed = () => String(process.hrtime.bigint() - started);
    try {
      const statements = prelude(request, get);
      if (statements.length > 0) await session.queryAsync(statements.join("; "), { format: "TSV" });
      const insert = data === undefined ? undefined : parseInsert(sql);
      if (insert && data !== undefined) {
        const raw = [
          "JSONEachRow",
          "JSONCompactEachRow",
          "CSV",
          "CSVWithNames",
          "TSV",
          "TabSeparated",
          "TSVWithNames",
          "TabSeparatedWithNames",
        ];
        let written = 0;
        let bytes = 0;
        if (raw.includes(insert.format)) {
          const summary = await session.insert({
            table: insert.table,
            values: data,
            format: insert.format as "JSONEachRow",
            ...(insert.columns ? { columns: insert.columns } : {}),
          });
          written = summary.rowsWritten;
          bytes = summary.bytesWritten;
        } else {
          // Other text formats: the data follows the statement, as clickhouse-client sends it.
          await session.queryAsync(`${sql}\n${data.toString("utf8")}`, { format: "TSV" });
        }
        const summary = {
          read_rows: "0",
          read_bytes: "0",
          written_rows: String(written),
          written_bytes: String(bytes),
          total_rows_to_read: "0",
          result_rows: String(written),
          result_bytes: String(bytes),
          elapsed_ns: elapsed(),
        };
        return { body: "", format: request.defaultFormat, summary };
      }
      const text = data === undefined ? sql : `${sql}\n${data.toString("utf8")}`;
      const result = await session.queryAsync(text, { format: request.defaultFormat });
      const body = result.text();
      const summary = {
        read_rows: String(result.rowsRead),
        read_bytes: String(result.bytesRead),
        written_rows: "0",
        written_bytes: "0",
        total_rows_to_read: String(result.rowsRead),
        result_rows: "0",
        result_bytes: String(Buffer.byteLength(body)),
        elapsed_ns: elapsed(),
      };
      return { body, format: formatOf(sql) ?? request.defaultFormat, summary };
    } catch (error) {
      if (error instanceof ShimError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      const code = Number(
        (error as { clickhouseCode?: unknown }).clickhouseCode ??
          /Code:\s*(\d+)\./.exec(message)?.[1] ??
          1000,
      );
      throw new ShimError(code, message);
    } finally {
      session.close();
    }
  }

  function sendError(response: ServerResponse, queryId: string, error: ShimError): void {
    response.writeHead(httpStatusOf(error.code), {
      "content-type": "text/plain; charset=UTF-8",
      "x-clickhouse-exception-code": String(error.code),
      "x-clickhouse-query-id": queryId,
      "x-clickhouse-server-display-name": SERVER_NAME,
    });
    response.end(`${error.message} (version ${version})\n`);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://shim");
    if (url.pathname === "/ping" && (request.method === "GET" || request.method === "HEAD")) {
      response.writeHead(200, { "content-type": "text/html; charset=UTF-8" });
      response.end("Ok.\n");
      return;
    }
    const parsed = parseSearch(url.searchParams);
    const queryId = parsed.queryId ?? randomUUID();
    try {
      if (url.pathname !== "/")
        throw new ShimError(
          48,
          `Code: 48. DB::Exception: There is no handle ${url.pathname}. (NOT_IMPLEMENTED)`,
        );
      const given = credentialsOf(request.headers, url.searchParams);
      if (given.user !== user || given.password !== password)
        throw new ShimError(
          516,
          `Code: 516. DB::Exception: ${given.user}: Authentication failed: password is incorrect, or there is no user with such name. (AUTHENTICATION_FAILED)`,
        );
      const encoding = request.headers["content-encoding"];
      const raw = await readBody(request);
      const body = decompress(raw, encoding);
      const fromUrl = parsed.queryParam;
      // With `query=` in the URL the body is the INSERT's data, or more of the statement.
      const insert = fromUrl !== undefined && body.length > 0 && parseInsert(fromUrl) !== undefined;
      const sql =
        fromUrl === undefined
          ? body.toString("utf8")
          : insert
            ? fromUrl
            : `${fromUrl}${body.length > 0 ? `\n${body.toString("utf8")}` : ""}`;
      requests.push({
        method: request.method ?? "GET",
        path: url.pathname,
        sql,
        settings: Object.fromEntries(parsed.settings),
        params: Object.fromEntries(parsed.params),
        contentEncoding: encoding,
        bodyBytes: raw.length,
      });
      if (requests.length > 1000) requests.shift();
      if (sql.trim().length === 0)
        throw new ShimError(62, "Code: 62. DB::Exception: Empty query. (SYNTAX_ERROR)");
      const outcome = await execute(
        parsed,
        sql,
        insert ? body : undefined,
        request.method === "GET",
      );
      const compress =
        parsed.settings.get("enable_http_compression") === "1" &&
        /\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""));
      const payload = compress ? gzipSync(outcome.body) : Buffer.from(outcome.body);
      response.writeHead(200, {
        "content-type": contentTypeOf(outcome.format),
        "x-clickhouse-query-id": queryId,
        "x-clickhouse-format": outcome.format,
        "x-clickhouse-timezone": "UTC",
        "x-clickhouse-server-display-name": SERVER_NAME,
        "x-clickhouse-summary": JSON.stringify(outcome.summary),
        ...(compress ? { "content-encoding": "gzip" } : {}),
      });
      response.end(payload);
    } catch (error) {
      const shimError =
        error instanceof ShimError
          ? error
          : new ShimError(
              1000,
              `Code: 1000. DB::Exception: ${(error as Error).message}. (POCO_EXCEPTION)`,
            );
      sendError(response, queryId, shimError);
    }
  }

  const listener = (request: IncomingMessage, response: ServerResponse) => {
    const handled = handle(request, response).catch(() => {
      response.destroy();
    });
    inFlight.add(handled);
    void handled.finally(() => inFlight.delete(handled));
  };
  const server = options.tls ? createTlsServer(options.tls, listener) : createServer(listener);
  // As a real server: idle keep-alive connections close after 10 s, announced in Keep-Alive.
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${port}`,
    requests,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
        server.closeAllConnections();
        await stopped;
        await drainPending();
        anchor.close();
      })();
      return closing;
    },
  };
}
