/** Query parameters bound server-side as `{name:Type}` placeholders. */
export type QueryParams = Readonly<Record<string, unknown>>;

/** ClickHouse settings for one query (e.g. readonly, max_execution_time). */
export type QuerySettings = Readonly<Record<string, string | number | boolean>>;

export interface QueryOptions {
  params?: QueryParams;
  settings?: QuerySettings;
  /**
   * A read that ingestion waits on (e.g. error groups before a write): the engine runs it beside
   * the writes, never queued behind long reads such as TQL queries.
   */
  writePath?: boolean;
  /**
   * A query whose cost nobody bounded in advance (TQL): the engine may hold such queries to part
   * of its capacity so the API's bounded reads never wait behind them.
   */
  adHoc?: boolean;
  /**
   * Whose read this is (the project): the read API's admission shares the engine fairly between
   * tenants (ADR 0018). The engines themselves ignore it.
   */
  tenant?: string;
}

/** How loaded the engine is, for readiness; an engine without queues of its own reports none. */
export interface TelemetryLoad {
  /** Statements the engine may run at once. */
  sessions: number;
  /** Sessions running or holding queued work. */
  busySessions: number;
  /** How long the oldest unfinished write (insert or DDL) has waited, queued plus running. */
  writeWaitMs: number;
  /** The statements running now, longest first: what each is (SQL cut short) and for how long. */
  running?: { session: number; what: string; ms: number }[];
}

export interface ResultColumn {
  name: string;
  /** The ClickHouse type name, e.g. `UInt64` or `DateTime64(9, 'UTC')`. */
  type: string;
}

/** ClickHouse's JSONCompact output, which both adapters read a CompactResult from. */
export interface JsonCompactResponse {
  meta: { name: string; type: string }[];
  data: unknown[][];
  statistics?: { elapsed?: number; rows_read?: number };
}

/**
 * The engine cannot store a row's value in its column (what ClickHouse's CANNOT_PARSE_* and
 * VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE errors say): the rows' fault, found before they were sent.
 */
export class RefusedValueError extends Error {
  constructor(
    /** The ClickHouse error code name the engine would have answered with. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "RefusedValueError";
  }
}

/** A statement as diagnostics show it (load, logs): whitespace folded, cut short. */
export function describeStatement(sql: string): string {
  const text = sql.replace(/\s+/g, " ").trim();
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** A result in column order, as ClickHouse's JSONCompact format gives it. */
export interface CompactResult {
  columns: ResultColumn[];
  rows: unknown[][];
  rowsRead: number;
  elapsedSeconds: number;
}

/**
 * The telemetry engine port. One implementation per engine (chDB embedded, ClickHouse over
 * HTTP); nothing above it knows which one runs. SQL is ClickHouse SQL, tables qualified with
 * `database`.
 */
export interface TelemetryExecutor {
  readonly engine: string;
  /** The ClickHouse database holding Vigil's tables. */
  readonly database: string;
  /** Reads it runs side by side (its read sessions or connections); optional for test doubles. */
  readonly readSlots?: number;
  /** Ad-hoc queries (`adHoc`) it runs side by side; optional for test doubles. */
  readonly adHocSlots?: number;
  /** Runs a statement that returns no rows (DDL). */
  command(sql: string, options?: QueryOptions): Promise<void>;
  /** Runs a SELECT and returns rows as objects keyed by column name. */
  query<T = Record<string, unknown>>(sql: string, options?: QueryOptions): Promise<T[]>;
  /** Runs a SELECT and returns typed columns with rows in column order. */
  queryCompact(sql: string, options?: QueryOptions): Promise<CompactResult>;
  /** Inserts rows (objects keyed by column name, every row with the same keys); resolves once the engine has them. */
  insert(table: string, rows: readonly Record<string, unknown>[]): Promise<{ rowsWritten: number }>;
  ping(): Promise<void>;
  /** The engine's current load; optional, an engine without queues of its own leaves it out. */
  stats?(): TelemetryLoad;
  /** Stops accepting work, waits for everything in flight, then releases the engine. */
  close(): Promise<void>;
}

const SETTING_NAME = /^[a-z_][a-z0-9_]*$/;

/** Renders settings as a trailing SETTINGS clause; names are checked, values literal-encoded. */
export function renderSettings(settings: QuerySettings | undefined): string {
  if (!settings) return "";
  const parts = Object.entries(settings).map(([name, value]) => {
    if (!SETTING_NAME.test(name)) throw new Error(`Invalid ClickHouse setting name: ${name}`);
    const literal =
      typeof value === "number" || typeof value === "boolean"
        ? String(Number(value))
        : `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
    return `${name} = ${literal}`;
  });
  return parts.length > 0 ? ` SETTINGS ${parts.join(", ")}` : "";
}

/** Quotes an identifier with backticks for ClickHouse. */
export function quoteIdentifier(name: string): string {
  return `\`${name.replace(/\\/g, "\\\\").replace(/`/g, "\\`")}\``;
}

/** `database`.`name`, both quoted. */
export const qualifiedName = (database: string, name: string): string =>
  `${quoteIdentifier(database)}.${quoteIdentifier(name)}`;
