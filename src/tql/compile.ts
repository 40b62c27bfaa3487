import { analyzeTql } from "./analyzer.js";
import { bindParameters } from "./parameter-values.js";
import { parseTql } from "./parser.js";
import { type PrintedQuery, printTql } from "./printer.js";
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from "./token-stream.js";
import { TqlError } from "./tql-errors.js";

export interface CompileOptions {
  /** The ClickHouse database holding the telemetry tables. */
  database: string;
  /** The most rows the engine may return (the response's row limit + 1, to detect truncation). */
  rowCap: number;
  parseLimits?: ParseLimits;
  /** Most table references per query; each is a guarded read. */
  maxTableReferences?: number;
  /**
   * Values of the query's `{name:Type}` placeholders (the time window's `from`, `to` and
   * `bucket_seconds` among them), checked against their types; unused ones are ignored.
   */
  parameters?: Readonly<Record<string, unknown>>;
}

export const DEFAULT_MAX_TABLE_REFERENCES = 64;

/**
 * Turns TQL text into ClickHouse SQL confined to one project: parse → analyze → print, and the
 * placeholders' values checked and bound (never written into the SQL). Every refusal is a
 * TqlError with the line and column of the offending text; a value's names `parameters.<name>`.
 */
export function compileTql(text: string, options: CompileOptions): PrintedQuery {
  try {
    const query = parseTql(text, options.parseLimits ?? DEFAULT_PARSE_LIMITS);
    const analysis = analyzeTql(query, {
      maxTableReferences: options.maxTableReferences ?? DEFAULT_MAX_TABLE_REFERENCES,
    });
    const bound = bindParameters(analysis.parameters, options.parameters);
    const printed = printTql(query, analysis, {
      database: options.database,
      rowCap: options.rowCap,
    });
    return { sql: printed.sql, params: { ...printed.params, ...bound } };
  } catch (error) {
    if (error instanceof TqlError) throw error.locate(text);
    // The nesting limits keep recursion shallow; this is the backstop should one be missed.
    if (error instanceof RangeError)
      throw new TqlError("The query is nested too deeply to analyze", 0).locate(text);
    throw error;
  }
}
