import type { TqlResult } from "../contracts/tql.js";
import { TQL_MAX_QUERY_LENGTH, TQL_MAX_RESULT_ROWS } from "../contracts/tql-dialect.js";
import { InvalidInputError, RateLimitedError, UnavailableError } from "../lib/domain-errors.js";
import type { AdmissionRefusal, OrganizationOf } from "../telemetry/admission-options.js";
import { admitFor } from "../telemetry/admitted-reads.js";
import { EngineAdmission } from "../telemetry/engine-admission.js";
import type { CompactResult, ResultColumn, TelemetryExecutor } from "../telemetry/executor.js";
import { compileTql } from "./compile.js";
import { classifyEngineError } from "./engine-errors.js";
import { GUARD_SETTINGS, PROJECT_PARAM, type PrintedQuery } from "./printer.js";
import { toJsonRows } from "./result-json.js";

export interface TqlLimits {
  maxExecutionSeconds: number;
  maxMemoryBytes: number;
  maxRowsToRead: number;
  /** Queries one project may have running or waiting at once; one more is refused (429). */
  maxConcurrentPerProject?: number;
  /** The same for all projects of one organization together. Absent: no organization bound. */
  maxConcurrentPerOrganization?: number;
}

/** How a query runs: the values of its placeholders, and whether it waits instead of a 429. */
export interface TqlQueryOptions {
  /** Values of the query's `{name:Type}` placeholders (compileTql checks and binds them). */
  parameters?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Never refused for the project's or organization's bound: it waits for its turn within its
   * time limit, which counts the wait (a dashboard's panels: the caller bounds them per project).
   */
  waitForTurn?: boolean | undefined;
}

export interface TqlService {
  /** Runs one TQL SELECT confined to the project. */
  query(projectId: string, text: string, options?: TqlQueryOptions): Promise<TqlResult>;
  /**
   * Runs an alert rule's query: the same compiler, project guard, limits and turns between
   * tenants, but never refused for the project's or organization's bound (the alert scheduler
   * bounds evaluations per project); it waits for its turn within its time limit instead.
   */
  queryForAlert(projectId: string, text: string): Promise<TqlResult>;
  /**
   * The result columns (names and engine types) of a TQL SELECT: compiled with an outer LIMIT 0
   * (a subquery may still read data) under the same guard, limits and admission (429).
   */
  columns(
    projectId: string,
    text: string,
    options?: Pick<TqlQueryOptions, "parameters">,
  ): Promise<ResultColumn[]>;
}

export interface TqlServiceDeps {
  executor: TelemetryExecutor;
  limits: TqlLimits;
  /** The organization a project belongs to: its queries share the organization's bound and turn. */
  organizationOf?: OrganizationOf;
  /** Called for each query refused by the admission, with why (see AdmissionRefusal). */
  onRefused?: (reason: AdmissionRefusal) => void;
}

/** TQL queries waiting for the engine, across all tenants, at most (each waits its limit at most). */
const MAX_WAITING = 256;
/** Ad-hoc queries an engine that does not say runs side by side. */
const DEFAULT_AD_HOC_SLOTS = 3;

export function createTqlService({
  executor,
  limits,
  organizationOf,
  onRefused,
}: TqlServiceDeps): TqlService {
  const rowCap = TQL_MAX_RESULT_ROWS + 1;
  const limitMs = limits.maxExecutionSeconds * 1000;
  const admission = tqlAdmission(executor.adHocSlots ?? DEFAULT_AD_HOC_SLOTS, limits, onRefused);

  const settings = querySettings(limits, rowCap);
  /**
   * Runs a compiled query of the project's when its turn comes on the engine's ad-hoc sessions,
   * with the seconds it may run: what is left of its time limit, as the wait counts inside it,
   * so a query answers or fails within it. An alert evaluation waits at most its limit too, but
   * then gets all of it: a time-out must say the rule's query is too heavy, not that its
   * neighbours were busy. A bounded query (an alert's, or one that waits for its turn) is never
   * refused for the pending bounds. Engine errors the query caused come back as domain errors.
   */
  async function execute(
    projectId: string,
    { sql, params }: PrintedQuery,
    { alert, bounded }: { alert: boolean; bounded: boolean },
    extra: Record<string, number> = {},
  ): Promise<CompactResult> {
    const deadline = performance.now() + limitMs;
    const seconds = () =>
      alert
        ? limits.maxExecutionSeconds
        : // Whole seconds, as the engine takes them; at least one.
          Math.min(
            limits.maxExecutionSeconds,
            Math.max(1, Math.ceil((deadline - performance.now()) / 1000)),
          );
    try {
      return await admitFor(
        admission,
        organizationOf,
        () =>
          executor.queryCompact(sql, {
            params: { ...params, [PROJECT_PARAM]: projectId },
            settings: { ...settings, ...extra, max_execution_time: seconds() },
            adHoc: true,
          }),
        { tenant: projectId, deadline, bounded },
      );
    } catch (error) {
      // Not the query's fault when unmapped: the caller's error handling logs it (500).
      throw (
        classifyEngineError(error, {
          projectId,
          database: executor.database,
          maxExecutionSeconds: limits.maxExecutionSeconds,
        }) ?? error
      );
    }
  }

  async function run(
    projectId: string,
    text: string,
    alert: boolean,
    options: TqlQueryOptions = {},
  ): Promise<TqlResult> {
    if (text.length > TQL_MAX_QUERY_LENGTH)
      throw InvalidInputError.forField(
        "query",
        `must be at most ${TQL_MAX_QUERY_LENGTH.toLocaleString("en-US")} characters (it has ${text.length.toLocaleString("en-US")})`,
      );
    const compiled = compileTql(text, {
      database: executor.database,
      rowCap,
      ...(options.parameters ? { parameters: options.parameters } : {}),
    });
    const started = performance.now();
    const result = await execute(projectId, compiled, {
      alert,
      bounded: alert || options.waitForTurn === true,
    });
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
    query: (projectId, text, options) => run(projectId, text, false, options),
    queryForAlert: (projectId, text) => run(projectId, text, true),
    async columns(projectId, text, options = {}) {
      if (text.length > TQL_MAX_QUERY_LENGTH)
        throw InvalidInputError.forField(
          "query",
          `must be at most ${TQL_MAX_QUERY_LENGTH} characters`,
        );
      const compiled = compileTql(text, {
        database: executor.database,
        rowCap: 0,
        ...(options.parameters ? { parameters: options.parameters } : {}),
      });
      const how = { alert: false, bounded: false };
      return (await execute(projectId, compiled, how, { max_result_rows: 1 })).columns;
    },
  };
}

/** The engine settings of every TQL query: the guard's, the limits, and read-only, niced work. */
function querySettings(limits: TqlLimits, rowCap: number) {
  return {
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
}

/**
 * The engine admission TQL's queries pass (ADR 0021): the ad-hoc sessions' slots, a project's
 * and an organization's bound on queries admitted (429 beyond), an organization never holding
 * every slot, turns between organizations and then projects, and a wait counted in the time limit.
 */
function tqlAdmission(
  slots: number,
  limits: TqlLimits,
  onRefused: ((reason: AdmissionRefusal) => void) | undefined,
): EngineAdmission {
  const perProject = limits.maxConcurrentPerProject ?? MAX_WAITING;
  const perOrganization = limits.maxConcurrentPerOrganization;
  return new EngineAdmission({
    slots,
    maxPending: MAX_WAITING,
    maxPendingPerTenant: perProject,
    ...(perOrganization === undefined ? {} : { maxPendingPerGroup: perOrganization }),
    maxRunningPerGroup: Math.min(perOrganization ?? slots, Math.max(1, slots - 1)),
    ...(onRefused ? { onRefused } : {}),
    refusalError(reason, _detail, typicalMs) {
      // Come back in about the time a query takes now: by then one has finished.
      const seconds = Math.min(
        limits.maxExecutionSeconds,
        Math.max(1, Math.ceil((typicalMs ?? 1000) / 1000)),
      );
      switch (reason) {
        case "tenant":
          return new RateLimitedError(
            `This project already has ${perProject} TQL queries or alert evaluations running or waiting (at most ${perProject} at once); retry when one finishes`,
            seconds,
          );
        case "group":
          return new RateLimitedError(
            `This project's organization already has ${perOrganization} TQL queries or alert evaluations running or waiting across its projects (at most ${perOrganization} at once); retry when one finishes`,
            seconds,
          );
        case "deadline":
          return new UnavailableError(
            `The telemetry engine is busy with other projects' queries: this one waited its whole time limit (${limits.maxExecutionSeconds} s) for its turn; retry in ${seconds} s`,
            seconds,
          );
        default:
          return new UnavailableError(
            `The telemetry engine has ${MAX_WAITING} TQL queries waiting; retry in ${seconds} s`,
            seconds,
          );
      }
    },
  });
}
