import { type Page, pageInfo } from "../contracts/pagination.js";
import type { PageQuery, TimeWindow } from "../lib/list-params.js";
import {
  type QuerySettings,
  quoteIdentifier,
  type TelemetryExecutor,
} from "../telemetry/executor.js";
import type { TotalCache } from "./total-cache.js";

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
    private readonly projectId: string,
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

  /** Rows as objects; `settings` bound one statement's work (e.g. how many groups it keeps). */
  query<T>(sql: string, settings?: QuerySettings): Promise<T[]> {
    return this.executor.query<T>(sql, {
      params: this.values,
      tenant: this.projectId,
      ...(settings ? { settings } : {}),
    });
  }

  /** Rows as arrays in column order: one JSON document without keys per row, for large reads. */
  async queryRows(sql: string): Promise<unknown[][]> {
    return (await this.executor.queryCompact(sql, { params: this.values, tenant: this.projectId }))
      .rows;
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

/** A grouped list's total kept for a while (TotalCache); `reuse` lets this page take it. */
export interface CachedTotal {
  cache: TotalCache;
  key: string;
  reuse: boolean;
}

/**
 * How a list counts everything that matches:
 * - `count`: `from` is a table with its WHERE; a scalar `count()` subquery in the page's statement
 *   (which keeps the engine's read-in-order LIMIT), stopping at `cap` matches when given;
 * - `window`: `from` is a grouped subquery; `count() OVER ()`, which would otherwise group twice,
 *   or a total counted for the same query a moment ago (`cached`).
 */
export type PageTotal =
  | { kind: "count"; cap?: number | undefined }
  | { kind: "window"; cached?: CachedTotal | undefined };

/** A list query: what to select, from where (a table with its WHERE, or a parenthesized subquery), in which order. */
export interface PageSelect {
  columns: string;
  from: string;
  orderBy: string;
  total: PageTotal;
}

/** A capped count stops at this many matches, or just past the page asked for when that is further. */
export const COUNT_CAP = 10_000;

/** The cap of a capped count for this page: far enough to tell the page past the end exactly. */
export const countCap = ({ page, limit }: PageQuery): number =>
  Math.max(COUNT_CAP, page * limit + 1);

/** The total as a scalar subquery or window function; undefined when a cached total stands in. */
function totalSql(select: PageSelect, cached: number | undefined): string | undefined {
  if (select.total.kind === "window") return cached === undefined ? "count() OVER ()" : undefined;
  return `(${countSql(select)})`;
}

/** `SELECT count() AS total …` of everything the list matches, up to the cap when there is one. */
function countSql(select: PageSelect): string {
  if (select.total.kind === "count" && select.total.cap !== undefined)
    return `SELECT count() AS total FROM (SELECT 1 FROM ${select.from} LIMIT ${select.total.cap})`;
  return `SELECT count() AS total FROM ${select.from}`;
}

/**
 * One page and its total in one engine round trip (every statement saved is latency saved for
 * everyone). The page is read one row long, so `hasMore` is known, and a page that shows the end
 * of the list has its exact total whatever was counted. Only a page past the end, with no row to
 * carry the total, costs a second count.
 */
export async function selectPage<T extends Record<string, unknown>, I>(
  sql: Sql,
  query: PageQuery,
  select: PageSelect,
  toItem: (row: T) => I,
): Promise<Page<I>> {
  const { total: how } = select;
  const cachedTotal =
    how.kind === "window" && how.cached?.reuse ? how.cached.cache.get(how.cached.key) : undefined;
  const total = totalSql(select, cachedTotal);
  const offset = (query.page - 1) * query.limit;
  const rows = await sql.query<T & { total?: unknown }>(
    `SELECT ${select.columns}${total === undefined ? "" : `, ${total} AS total`} FROM ${select.from}
     ORDER BY ${select.orderBy} LIMIT ${query.limit + 1} OFFSET ${offset}`,
  );
  const data = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  const pastEnd = !rows[0] && offset > 0;
  let count: number;
  let capped = false;
  if (pastEnd) {
    count = num((await sql.query<{ total: string }>(countSql(select)))[0]?.total);
  } else if (!hasMore) {
    // The page shows the end: its rows are the count, whatever the count said a moment earlier.
    count = offset + data.length;
  } else {
    const counted = total === undefined ? (cachedTotal ?? 0) : num(rows[0]?.total);
    count = Math.max(counted, offset + data.length + 1);
    capped = how.kind === "count" && how.cap !== undefined && counted >= how.cap;
  }
  if (how.kind === "window" && how.cached && (total !== undefined || pastEnd))
    how.cached.cache.set(how.cached.key, count);
  return { data: data.map(toItem), pagination: pageInfo(query, count, capped ? false : undefined) };
}
