import { InvalidInputError, RateLimitedError } from "../lib/errors.js";
import type { CompactResult, ResultColumn, TelemetryExecutor } from "../telemetry/executor.js";
import { compileTql } from "./compile.js";
import { classifyEngineError } from "./engine-errors.js";
import { GUARD_SETTINGS, PROJECT_PARAM } from "./printer.js";
import { toJsonRows } from "./result-json.js";

/** The spec's limits on one query. */
export const TQL_MAX_QUERY_LENGTH = 50_000;
export const TQL_MAX_RESULT_ROWS = 10_000;

export interface TqlLimits {
  maxExecutionSeconds: number;
  maxMemoryBytes: number;
  maxRowsToRead: number;
  /** Queries one project may run at once; one more is refused (429). Absent: no limit. */
  maxConcurrentPerProject?: number;
}

/** The TQL result object of the specification. */
export interface TqlResult {
  columns: ResultColumn[];
  rows: unknown[][];
  rowCount: number;
  durationMs: number;
  truncated: boolean;
}

export interface TqlService {
  /** Runs one TQL SELECT confined to the project. */
  query(projectId: string, text: string): Promise<TqlResult>;
  /**
   * Runs an alert rule's query: the same compiler, project guard, limits and ad-hoc lanes, but
   * not counted against the project's concurrent queries (no 429): the alert scheduler bounds
   * alert queries with its own concurrency (VIGIL_ALERTS_CONCURRENCY).
   */
  queryForAlert(projectId: string, text: string): Promise<TqlResult>;
  /**
   * The result columns (names and engine types) of a TQL SELECT: compiled with an outer LIMIT 0
   * (a subquery may still read data) under the same guard and limits, and the project's slot (429).
   */
  columns(projectId: string, text: string): Promise<ResultColumn[]>;
}

export interface TqlServiceDeps {
  executor: TelemetryExecutor;
  limits: TqlLimits;
}

export function createTqlService({ executor, limits }: TqlServiceDeps): TqlService {
  const rowCap = TQL_MAX_RESULT_ROWS + 1;
  /** When each project's running queries started, oldest first. */
  const running = new Map<string, number[]>();

  /** Takes one of the project's slots, or refuses: no project fills the engine alone. */
  function admit(projectId: string): () => void {
    const starts = running.get(projectId) ?? [];
    const now = performance.now();
    const limit = limits.maxConcurrentPerProject ?? Number.POSITIVE_INFINITY;
    if (starts.length >= limit) {
      // By then the oldest running query has finished or been stopped by the time limit.
      const oldest = starts[0] ?? now;
      const seconds = Math.max(1, Math.ceil(limits.maxExecutionSeconds - (now - oldest) / 1000));
      throw new RateLimitedError(
        `This project already has ${starts.length} TQL queries running (at most ${limit} at once); retry when one finishes`,
        seconds,
      );
    }
    starts.push(now);
    running.set(projectId, starts);
    return () => {
      starts.splice(starts.indexOf(now), 1);
      if (starts.length === 0) running.delete(projectId);
    };
  }

  const settings = {
    ...GUARD_SETTINGS,
    max_execution_time: limits.maxExecutionSeconds,
    max_memory_usage: limits.maxMemoryBytes,
    max_rows_to_read: limits.maxRowsToRead,
    max_result_rows: rowCap,
    result_overflow_mode: "throw",
    output_format_json_quote_64bit_integers: 1,
    readonly: 1,
    // Ad-hoc work yields the CPU: the engine's threads for this query run at nice 19, so ingest
    // and the read API (nice 0) keep ~98% of a contended core (bench:api mixed: ingest p99 2.2 s → 0.7 s).
    os_thread_priority: 19,
  };
  async function run(projectId: string, text: string, admitted: boolean): Promise<TqlResult> {
    if (text.length > TQL_MAX_QUERY_LENGTH)
      throw InvalidInputError.forField(
        "query",
        `must be at most ${TQL_MAX_QUERY_LENGTH.toLocaleString("en-US")} characters (it has ${text.length.toLocaleString("en-US")})`,
      );
    const { sql, params } = compileTql(text, { database: executor.database, rowCap });
    const release = admitted ? admit(projectId) : () => {};
    const started = performance.now();
    let result: CompactResult;
    try {
      result = await executor.queryCompact(sql, {
        params: { ...params, [PROJECT_PARAM]: projectId },
        settings,
        adHoc: true,
      });
    } catch (error) {
      const mapped = classifyEngineError(error, {
        projectId,
        database: executor.database,
        maxExecutionSeconds: limits.maxExecutionSeconds,
      });
      // Not the query's fault: the caller's error handling logs it (500 with the request id).
      throw mapped ?? error;
    } finally {
      release();
    }
    const durationMs = Math.round(performance.now() - started);
    const truncated = result.rows.length > TQL_MAX_RESULT_ROWS;
    const rows = truncated ? result.rows.slice(0, TQL_MAX_RESULT_ROWS) : result.rows;
    return {
      columns: result.columns,
      rows: toJsonRows(result.columns, rows),
      rowCount: rows.length,
      durationMs,
      truncated,
    };
  }

  return {
    query: (projectId, text) => run(projectId, text, true),
    queryForAlert: (projectId, text) => run(projectId, text, false),
    async columns(projectId, text) {
      if (text.length > TQL_MAX_QUERY_LENGTH)
        throw InvalidInputError.forField(
          "query",
          `must be at most ${TQL_MAX_QUERY_LENGTH} characters`,
        );
      const { sql, params } = compileTql(text, { database: executor.database, rowCap: 0 });
      const release = admit(projectId);
      try {
        const result = await executor.queryCompact(sql, {
          params: { ...params, [PROJECT_PARAM]: projectId },
          settings: { ...settings, max_result_rows: 1 },
          adHoc: true,
        });
        return result.columns;
      } catch (error) {
        throw (
          classifyEngineError(error, {
            projectId,
            database: executor.database,
            maxExecutionSeconds: limits.maxExecutionSeconds,
          }) ?? error
        );
      } finally {
        release();
      }
    },
  };
}
