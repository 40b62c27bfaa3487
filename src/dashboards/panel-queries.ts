import type { Ctx, DomainDeps } from "../context.js";
import {
  PanelQueryRequest,
  type PanelQueryResult,
  RESERVED_VARIABLE_NAMES,
} from "../contracts/dashboards.js";
import { TQL_MAX_RESULT_ROWS } from "../contracts/tql-dialect.js";
import { InvalidInputError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import { requireProject } from "../projects/projects.js";
import { compileTql } from "../tql/compile.js";
import { TqlError } from "../tql/tql-errors.js";
import type { TqlService } from "../tql/tql-service.js";
import type { PanelCache } from "./panel-cache.js";
import type { PanelLimiter } from "./panel-limiter.js";
import { resolveWindow } from "./panel-window.js";

/** What panel queries run on besides TQL: the per-project line and the result cache. */
export interface PanelQueryDeps {
  /** The telemetry database the compiled SQL names (part of the cache key). */
  database: string;
  limiter: PanelLimiter;
  cache: PanelCache;
}

export type PanelQueryCtx = Ctx<DomainDeps & { tql: TqlService; dashboards: PanelQueryDeps }>;

/** A result is kept for its bucket's length, within these bounds. */
const MIN_TTL_MS = 5_000;
const MAX_TTL_MS = 60_000;

/** The request's names for what TQL's errors name: `tql` for `query`, `variables.x` for `parameters.x`. */
function renamed(error: TqlError): TqlError {
  const field = error.field.startsWith("parameters.")
    ? `variables.${error.field.slice("parameters.".length)}`
    : error.field === "query"
      ? "tql"
      : error.field;
  const position = error.extensions.position as ConstructorParameters<typeof TqlError>[2];
  return new TqlError(error.message, error.offset, position, field);
}

/**
 * Runs one panel query (or a query variable's) of the project: the dashboard's variables and
 * the window (`{from}`, `{to}`, `{bucket_seconds}`) bound as parameters, never spliced into the
 * text. Equal queries (same compiled SQL and values) within one bucket share one engine query
 * and its result; distinct ones wait in the project's line (429 when it is full) and then run
 * through TQL with its time and row limits.
 */
export async function runPanelQuery({
  ctx,
  projectId,
  input,
}: {
  ctx: PanelQueryCtx;
  projectId: string;
  input: unknown;
}): Promise<PanelQueryResult> {
  await requireProject({ ctx, projectId, access: "read" });
  const request = parseInput(PanelQueryRequest, input);
  for (const name of Object.keys(request.variables))
    if (RESERVED_VARIABLE_NAMES.includes(name))
      throw InvalidInputError.forField(
        `variables.${name}`,
        "is the time window's: it is set from timeRange",
      );
  const window = resolveWindow(request.timeRange, request.maxDataPoints, ctx.deps.clock.now());
  const parameters = {
    ...request.variables,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    bucket_seconds: window.bucketSeconds,
  };
  const { dashboards, tql } = ctx.deps;
  let compiled: ReturnType<typeof compileTql>;
  try {
    compiled = compileTql(request.tql, {
      database: dashboards.database,
      rowCap: TQL_MAX_RESULT_ROWS + 1,
      parameters,
    });
  } catch (error) {
    throw error instanceof TqlError ? renamed(error) : error;
  }
  const key = JSON.stringify([projectId, compiled.sql, compiled.params]);
  const ttlMs = Math.min(MAX_TTL_MS, Math.max(MIN_TTL_MS, window.bucketSeconds * 1000));
  const { result, cached } = await dashboards.cache.get(key, ttlMs, () =>
    dashboards.limiter.run(projectId, () =>
      tql.query(projectId, request.tql, { parameters, waitForTurn: true }),
    ),
  );
  return {
    ...result,
    window: {
      from: window.from.toISOString(),
      to: window.to.toISOString(),
      bucketSeconds: window.bucketSeconds,
    },
    cached,
  };
}
