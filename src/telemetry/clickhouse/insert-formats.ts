import { ESCAPES, escapedText } from "../escaped-text.js";
import { UnixTime } from "../unix-time.js";
/**
 * Insert encodings the ClickHouse adapter can send. Each turns rows (objects keyed by column name,
 * every row with the same keys) into one request body in a text format the server parses, with
 * the column list named once in the INSERT. `npm run bench:clickhouse-insert` measures them;
 * ADR 0012 records why the default is what it is.
 */
export const INSERT_FORMATS = ["JSONCompactEachRow", "JSONEachRow", "TabSeparated"] as const;
export type InsertFormat = (typeof INSERT_FORMATS)[number];

/** What ADR 0012's measurements chose. */
export const DEFAULT_INSERT_FORMAT: InsertFormat = "JSONCompactEachRow";

export interface EncodedRows {
  columns: string[];
  body: Buffer;
}

type Row = Readonly<Record<string, unknown>>;

/** Encodes rows for `INSERT INTO t (columns) FORMAT <format>`. */
export function encodeRows(format: InsertFormat, rows: readonly Row[]): EncodedRows {
  const columns = Object.keys(rows[0] ?? {});
  const lines = new Array<string>(rows.length);
  if (format === "JSONEachRow") {
    for (let i = 0; i < rows.length; i++) lines[i] = JSON.stringify(rows[i]);
  } else if (format === "JSONCompactEachRow") {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as Row;
      lines[i] = JSON.stringify(columns.map((column) => row[column]));
    }
  } else {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as Row;
      lines[i] = columns.map((column) => escapedField(row[column])).join("\t");
    }
  }
  return { columns, body: Buffer.from(`${lines.join("\n")}\n`) };
}

/** Escapes inside a quoted string: the Escaped format's, and the quote. */
const QUOTED_ESCAPES: Readonly<Record<string, string>> = { ...ESCAPES, "'": "\\'" };
const QUOTED_CHARS = /[\\\t\n\r\0\b\f']/g;

function number(value: number): string {
  if (Number.isFinite(value)) return String(value);
  return Number.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
}

/**
 * A value as a TabSeparated field: strings escaped; arrays and maps in their text form
 * (`['a','b']`, `{'k':'v'}`) with quoted elements, which never hold a raw tab or newline.
 */
function escapedField(value: unknown): string {
  if (typeof value === "string") return escapedText(value);
  if (value instanceof UnixTime) return value.toJSON();
  if (value === null || value === undefined) return "\\N";
  return quoted(value);
}

function quoted(value: unknown): string {
  if (typeof value === "string")
    return `'${value.replace(QUOTED_CHARS, (c) => QUOTED_ESCAPES[c] ?? c)}'`;
  if (typeof value === "number") return number(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "bigint") return String(value);
  if (value instanceof UnixTime) return `'${value.toJSON()}'`;
  if (value === null || value === undefined) return "NULL";
  if (Array.isArray(value)) return `[${value.map(quoted).join(",")}]`;
  if (typeof value === "object")
    return `{${Object.entries(value)
      .map(([key, item]) => `${quoted(key)}:${quoted(item)}`)
      .join(",")}}`;
  throw new Error(`Cannot encode a ${typeof value} for TabSeparated`);
}
