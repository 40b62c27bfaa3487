import {
  type QueryParams,
  quoteIdentifier,
  type TelemetryExecutor,
} from "../telemetry/executor.js";
import type { TimeWindow } from "./params.js";

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

  get params(): QueryParams {
    return this.values;
  }

  query<T>(sql: string): Promise<T[]> {
    return this.executor.query<T>(sql, { params: this.values });
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

/** Numbers the engine sends as text (64-bit integers in JSON) back to numbers. */
export const num = (value: unknown): number => Number(value ?? 0);
