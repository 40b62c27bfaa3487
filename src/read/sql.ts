import { quoteIdentifier, type TelemetryExecutor } from "../telemetry/executor.js";
import { type Page, type PageQuery, pageInfo, type TimeWindow } from "./params.js";

/**
 * Builds the read API's SQL: every value is a bound `{pN:Type}` parameter, never text in the
 * statement, and every query starts from the caller's project (the first key of every table).
 */
export class Sql {
  private readonly values: Record<string, unknown> = {};
  private count = 0;
  readonly project: string;

  constructor(
    private readonly executor: TelemetryExecutor,
    projectId: string,
  ) {
    this.project = this.bind(projectId);
  }

  /** A bound parameter; the placeholder goes into the SQL. */
  bind(value: string | readonly string[] | number, type?: string): string {
    const name = `p${this.count++}`;
    this.values[name] = value;
    const inferred =
      typeof value === "string"
        ? "String"
        : typeof value === "number"
          ? Number.isInteger(value)
            ? "Int64"
            : "Float64"
          : "Array(String)";
    return `{${name}:${type ?? inferred}}`;
  }

  /** The qualified name of one of Vigil's tables. */
  table(name: string): string {
    return `${quoteIdentifier(this.executor.database)}.${quoteIdentifier(name)}`;
  }

  /** `column` within the window, as a condition the primary key can use. */
  within(column: string, window: TimeWindow | undefined): string[] {
    if (!window) return [];
    return [
      `${column} >= fromUnixTimestamp64Milli(${this.bind(window.fromMs)}, 'UTC')`,
      `${column} < fromUnixTimestamp64Milli(${this.bind(window.toMs)}, 'UTC')`,
    ];
  }

  /** The start (epoch ms) of the `stepMs`-wide, epoch-aligned bucket holding `column`. */
  bucket(column: string, stepMs: number): string {
    const step = this.bind(stepMs);
    return `intDiv(toUnixTimestamp64Milli(${column}), ${step}) * ${step}`;
  }

  query<T>(sql: string): Promise<T[]> {
    return this.executor.query<T>(sql, { params: this.values });
  }

  /** Rows as arrays in column order: one JSON document without keys per row, for large reads. */
  async queryRows(sql: string): Promise<unknown[][]> {
    return (await this.executor.queryCompact(sql, { params: this.values })).rows;
  }
}

/** `WHERE a AND b …` over the project condition and the given ones. */
export function whereClause(sql: Sql, conditions: readonly string[]): string {
  return `WHERE project_id = ${sql.project}${conditions.map((c) => ` AND ${c}`).join("")}`;
}

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Text columns where '' means absent, as the API's nulls. */
export const textOrNull = (value: unknown): string | null => (value ? String(value) : null);

/** Numbers the engine sends as text (64-bit integers in JSON) back to numbers. */
export const num = (value: unknown): number => Number(value ?? 0);

/** A list query: what to select, from where (a table with its WHERE, or a parenthesized subquery), in which order. */
export interface PageSelect {
  columns: string;
  from: string;
  orderBy: string;
  /**
   * How the page carries its total: a scalar `subquery` (plain table scans, which keeps the
   * engine's read-in-order LIMIT) or `window` (`count() OVER ()`, for grouped subqueries that
   * would otherwise be computed twice).
   */
  total: "subquery" | "window";
}

/**
 * One page and the total in one engine round trip (chDB runs one statement at a time, so every
 * statement saved is latency saved for everyone). Only a page past the end, with no row to carry
 * the total, costs a second count.
 */
export async function selectPage<T extends Record<string, unknown>, I>(
  sql: Sql,
  query: PageQuery,
  select: PageSelect,
  toItem: (row: T) => I,
): Promise<Page<I>> {
  const total =
    select.total === "window" ? "count() OVER ()" : `(SELECT count() FROM ${select.from})`;
  const offset = (query.page - 1) * query.limit;
  const rows = await sql.query<T & { total?: unknown }>(
    `SELECT ${select.columns}, ${total} AS total FROM ${select.from}
     ORDER BY ${select.orderBy} LIMIT ${query.limit} OFFSET ${offset}`,
  );
  let count = rows[0] ? num(rows[0].total) : 0;
  if (!rows[0] && offset > 0) {
    const [row] = await sql.query<{ total: string }>(`SELECT count() AS total FROM ${select.from}`);
    count = num(row?.total);
  }
  return { data: rows.map(toItem), pagination: pageInfo(query, count) };
}
