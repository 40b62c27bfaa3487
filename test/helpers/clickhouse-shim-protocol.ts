/**
 * The parts of ClickHouse's HTTP interface the shim speaks, as pure functions: which URL
 * parameters are protocol and which are settings, how an INSERT with data in the body is named,
 * the content type of a format and the HTTP status of an error code.
 */
import type { IncomingHttpHeaders } from "node:http";

/** URL parameters the HTTP handler reads itself; every other one (but param_*) is a setting. */
const PROTOCOL_PARAMS = new Set([
  "query",
  "query_id",
  "database",
  "default_format",
  "session_id",
  "session_timeout",
  "session_check",
  "close_session",
  "user",
  "password",
  "quota_key",
  "compress",
  "decompress",
  "buffer_size",
  "wait_end_of_query",
  "role",
  "stacktrace",
  "client_protocol_version",
]);

export interface ShimRequest {
  queryId: string | undefined;
  database: string | undefined;
  defaultFormat: string;
  /** `param_x=…` values, in the Escaped text form the client sends. */
  params: Map<string, string>;
  settings: Map<string, string>;
  /** The `query` URL parameter, if any (an INSERT's statement when the body holds data). */
  queryParam: string | undefined;
}

export function parseSearch(search: URLSearchParams): ShimRequest {
  const params = new Map<string, string>();
  const settings = new Map<string, string>();
  for (const [name, value] of search) {
    if (name.startsWith("param_")) params.set(name.slice("param_".length), value);
    else if (!PROTOCOL_PARAMS.has(name)) settings.set(name, value);
  }
  return {
    queryId: search.get("query_id") ?? undefined,
    database: search.get("database") ?? undefined,
    defaultFormat: search.get("default_format") ?? "TabSeparated",
    params,
    settings,
    queryParam: search.get("query") ?? undefined,
  };
}

/** The user and password of a request: X-ClickHouse-User/Key, Basic auth, URL, or `default`. */
export function credentialsOf(
  headers: IncomingHttpHeaders,
  search: URLSearchParams,
): { user: string; password: string } {
  const header = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const user = header("x-clickhouse-user");
  if (user !== undefined) return { user, password: header("x-clickhouse-key") ?? "" };
  const authorization = header("authorization");
  if (authorization?.startsWith("Basic ")) {
    const decoded = Buffer.from(authorization.slice(6), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    return colon < 0
      ? { user: decoded, password: "" }
      : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  return { user: search.get("user") ?? "default", password: search.get("password") ?? "" };
}

const IDENTIFIER = "(?:`(?:[^`\\\\]|\\\\.)+`|[A-Za-z_][A-Za-z0-9_]*)";
const INSERT = new RegExp(
  `^\\s*INSERT\\s+INTO\\s+(?:TABLE\\s+)?(${IDENTIFIER}(?:\\.${IDENTIFIER})?)\\s*(?:\\(([^)]*)\\))?\\s*FORMAT\\s+(\\w+)\\s*$`,
  "i",
);

/** `` `a\`b` `` → a`b; a plain name stays as it is. */
export function unquote(identifier: string): string {
  const text = identifier.trim();
  return text.startsWith("`") ? text.slice(1, -1).replace(/\\(.)/g, "$1") : text;
}

export interface InsertStatement {
  /** `db.table` with plain names, as chDB's insert API wants it. */
  table: string;
  columns: string[] | undefined;
  format: string;
}

/** An `INSERT INTO t (cols) FORMAT X` whose data is the request body, or undefined. */
export function parseInsert(sql: string): InsertStatement | undefined {
  const match = INSERT.exec(sql);
  if (!match) return undefined;
  const [, table = "", columns, format = ""] = match;
  const parts = table.match(new RegExp(IDENTIFIER, "g")) ?? [];
  return {
    table: parts.map(unquote).join("."),
    columns: columns?.split(",").map(unquote),
    format,
  };
}

/** The FORMAT a statement ends with, if any. */
export function formatOf(sql: string): string | undefined {
  return /\bFORMAT\s+(\w+)\s*;?\s*$/i.exec(sql)?.[1];
}

export function contentTypeOf(format: string): string {
  if (format.startsWith("JSON")) return "application/json; charset=UTF-8";
  if (format.startsWith("TabSeparated") || format.startsWith("TSV"))
    return "text/tab-separated-values; charset=UTF-8";
  if (format.startsWith("CSV")) return "text/csv; charset=UTF-8; header=absent";
  return "text/plain; charset=UTF-8";
}

/** The HTTP status ClickHouse answers an error code with (HTTPHandler's table, abridged). */
export function httpStatusOf(code: number): number {
  if (code === 194) return 401; // REQUIRED_PASSWORD
  if ([192, 193, 516, 497, 164].includes(code)) return 403; // users, passwords, grants, readonly
  if ([60, 81, 46, 47, 115, 73, 63, 456].includes(code)) return 404; // unknown table, db, …
  if ([62, 6, 25, 26, 27, 38, 41, 72, 53, 117, 16, 44, 42].includes(code)) return 400;
  if (code === 1 || code === 48) return 501; // UNSUPPORTED_METHOD, NOT_IMPLEMENTED
  return 500;
}

/** A SET statement's literal for a URL setting value (numbers bare, anything else quoted). */
export function settingLiteral(value: string): string {
  return /^-?\d+(?:\.\d+)?$/.test(value)
    ? value
    : `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}
