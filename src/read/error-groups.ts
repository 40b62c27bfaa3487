import { z } from "zod";
import {
  ERROR_SEVERITIES,
  ERROR_SORTS,
  ERROR_STATUSES,
  type ErrorDetail,
  type ErrorSummary,
  SAMPLE_TRACES,
  UpdateErrorInput,
} from "../contracts/error-groups.js";
import type { Page } from "../contracts/pagination.js";
import { SOURCES } from "../contracts/telemetry-sources.js";
import { annotateStack } from "../ingest/derive/stack-frames.js";
import type { ErrorGroup } from "../ingest/error-groups.js";
import { InvalidInputError, NotFoundError } from "../lib/domain-errors.js";
import {
  bucketMs,
  bucketStarts,
  dashboardWindow,
  hexIdParam,
  isoMs,
  listQuery,
  resolveWindow,
  type TimeWindow,
  WindowQuery,
} from "../lib/list-params.js";
import { parseInput } from "../lib/validation.js";
import { requireProject } from "../projects/projects.js";
import { occurrencesOf } from "./occurrences.js";
import type { ReadCtx } from "./read-deps.js";
import { searchConditions, searchTerms } from "./search.js";
import { num, Sql, selectPage, whereClause } from "./sql.js";

/** Severities in rising order, as the engine ranks them for sorting. */
const SEVERITY_RANK = `indexOf([${ERROR_SEVERITIES.map((s) => `'${s}'`).join(", ")}], severity)`;
const SORT_COLUMNS: Record<(typeof ERROR_SORTS)[number], string> = {
  last_seen: "last_seen",
  first_seen: "first_seen",
  occurrences: "occurrence_count",
  severity: SEVERITY_RANK,
};

export const ErrorIdParam = hexIdParam(32, "an error id: 32 lowercase hex characters");

export const ListErrorsQuery = listQuery(ERROR_SORTS, {
  status: z.enum(ERROR_STATUSES).optional().describe("Only active or only resolved groups"),
  severity: z.enum(ERROR_SEVERITIES).optional().describe("Only groups of this severity"),
  service: z.string().min(1).max(256).optional().describe("Only groups seen in this service"),
  source: z.enum(SOURCES).optional().describe("Only browser (frontend) or server errors"),
  search: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe("Full text over type and message; every word must occur, case-insensitively"),
});
export type ListErrorsQuery = z.infer<typeof ListErrorsQuery>;

/** The error_groups columns a summary is read from (toSummary). */
export const GROUP_COLUMNS = `fingerprint, exception_type, message, culprit, status, severity, occurrence_count,
  toUnixTimestamp64Milli(first_seen) AS first_ms, toUnixTimestamp64Milli(last_seen) AS last_ms,
  toUnixTimestamp64Milli(resolved_at) AS resolved_ms, services, source, sample_trace_id`;

export type GroupRow = Record<string, unknown>;

export function toSummary(row: GroupRow): ErrorSummary {
  const resolvedMs = num(row.resolved_ms);
  return {
    id: String(row.fingerprint),
    type: String(row.exception_type),
    message: String(row.message),
    culprit: String(row.culprit),
    status: row.status === "resolved" ? "resolved" : "active",
    severity: row.severity as ErrorSummary["severity"],
    occurrences: num(row.occurrence_count),
    firstSeen: isoMs(num(row.first_ms)),
    lastSeen: isoMs(num(row.last_ms)),
    resolvedAt: resolvedMs > 0 ? isoMs(resolvedMs) : null,
    services: (row.services as string[]) ?? [],
    source: row.source === "frontend" ? "frontend" : "backend",
    sampleTraceId: row.sample_trace_id ? String(row.sample_trace_id) : null,
  };
}

/** A group is in a window when it occurred at some time during it (first ≤ end, last ≥ start). */
export function overlaps(sql: Sql, window: TimeWindow | undefined): string[] {
  if (!window) return [];
  return [
    `last_seen >= fromUnixTimestamp64Milli(${sql.bind(window.fromMs)}, 'UTC')`,
    `first_seen < fromUnixTimestamp64Milli(${sql.bind(window.toMs)}, 'UTC')`,
  ];
}

/** Error groups, most recently seen first unless sorted otherwise. */
export async function listErrors({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & ListErrorsQuery): Promise<Page<ErrorSummary>> {
  const deps = ctx.deps.read;
  const sql = new Sql(deps.telemetry, projectId);
  const conditions = [
    ...overlaps(sql, resolveWindow(query, deps.clock.now().getTime())),
    ...(query.status ? [`status = ${sql.bind(query.status)}`] : []),
    ...(query.severity ? [`severity = ${sql.bind(query.severity)}`] : []),
    ...(query.service ? [`has(services, ${sql.bind(query.service)})`] : []),
    ...(query.source ? [`source = ${sql.bind(query.source)}`] : []),
    ...searchConditions(
      sql,
      "concat(exception_type, ' ', message)",
      query.search ? searchTerms(query.search) : [],
    ),
  ];
  const groups = `${sql.table("error_groups")} FINAL ${whereClause(sql, conditions)}`;
  const direction = query.sort_order === "asc" ? "ASC" : "DESC";
  return selectPage(
    sql,
    query,
    {
      columns: GROUP_COLUMNS,
      from: groups,
      orderBy: `${SORT_COLUMNS[query.sort_by]} ${direction}, last_seen DESC, fingerprint`,
      total: { kind: "count" },
    },
    toSummary,
  );
}

export const ErrorDetailQuery = z.object(WindowQuery.shape).strict();
export type ErrorDetailQuery = z.infer<typeof ErrorDetailQuery>;

async function findGroup(sql: Sql, errorId: string): Promise<GroupRow | undefined> {
  const [row] = await sql.query<GroupRow>(
    `SELECT ${GROUP_COLUMNS}, stacktrace FROM ${sql.table("error_groups")} FINAL
     ${whereClause(sql, [`fingerprint = ${sql.bind(errorId)}`])}`,
  );
  return row;
}

/** One group with its stack trace and history: occurrences over time, services, sample traces. */
export async function getError({
  ctx,
  projectId,
  errorId,
  ...query
}: { ctx: ReadCtx; projectId: string; errorId: string } & ErrorDetailQuery): Promise<ErrorDetail> {
  const deps = ctx.deps.read;
  const sql = new Sql(deps.telemetry, projectId);
  const group = await findGroup(sql, errorId);
  if (!group) throw new NotFoundError("Error", errorId);
  const window = dashboardWindow(query, deps.clock.now().getTime(), "30d");
  const step = bucketMs(window);
  const occurrences = sql.table("error_occurrences");
  const ofGroup = whereClause(sql, [`fingerprint = ${sql.bind(errorId)}`]);
  const inWindow = whereClause(sql, [
    `fingerprint = ${sql.bind(errorId)}`,
    ...sql.within("timestamp", window),
  ]);
  const [buckets, services, samples] = await Promise.all([
    sql.query<{ bucket: string; count: string }>(
      `SELECT ${sql.bucket("at", step)} AS bucket, count() AS count
       FROM ${occurrencesOf(occurrences, inWindow)} GROUP BY bucket`,
    ),
    sql.query<{ service: string; count: string; last_ms: string }>(
      `SELECT service, count() AS count, toUnixTimestamp64Milli(max(at)) AS last_ms
       FROM ${occurrencesOf(occurrences, ofGroup)} GROUP BY service ORDER BY count DESC, service`,
    ),
    sql.query<Record<string, string>>(
      // Each trace's latest occurrence (its sources together: span, message), with its log.
      `SELECT trace_id, argMax(span_id, at) AS span_id, argMax(service, at) AS service_name,
              toUnixTimestamp64Milli(max(at)) AS ms, argMax(message, at) AS message,
              argMax(log_source, at) AS log_id
       FROM (SELECT trace_id, span_id, message, min(timestamp) AS at,
                    argMin(service_name, timestamp) AS service, anyIf(log_id, log_id != '') AS log_source
             FROM ${occurrences} ${ofGroup} AND trace_id != '' GROUP BY trace_id, span_id, message)
       GROUP BY trace_id ORDER BY ms DESC, trace_id LIMIT ${SAMPLE_TRACES}`,
    ),
  ]);
  const counts = new Map(buckets.map((b) => [num(b.bucket), num(b.count)]));
  return {
    ...toSummary(group),
    stacktrace: String(group.stacktrace),
    stack: annotateStack(String(group.stacktrace)).map(({ text, frame }) => ({
      text,
      frame: frame && { file: frame.file, function: frame.fn, inApp: frame.inApp },
    })),
    window: { from: isoMs(window.fromMs), to: isoMs(window.toMs), bucketSeconds: step / 1000 },
    occurrencesInWindow: [...counts.values()].reduce((a, b) => a + b, 0),
    occurrencesOverTime: bucketStarts(window, step).map((t) => ({
      time: isoMs(t),
      count: counts.get(t) ?? 0,
    })),
    affectedServices: services.map((s) => ({
      service: s.service,
      occurrences: num(s.count),
      lastSeen: isoMs(num(s.last_ms)),
    })),
    sampleTraces: samples.map((s) => ({
      traceId: String(s.trace_id),
      spanId: s.span_id ? String(s.span_id) : null,
      service: String(s.service_name),
      time: isoMs(num(s.ms)),
      message: String(s.message),
      logId: s.log_id ? String(s.log_id) : null,
    })),
  };
}

/**
 * Resolves, reopens or re-grades an error group (members and above). A resolved group becomes
 * active again by itself when it occurs after its resolution.
 */
export async function updateError({
  ctx,
  projectId,
  errorId,
  input,
}: {
  ctx: ReadCtx;
  projectId: string;
  errorId: string;
  input: unknown;
}): Promise<ErrorSummary> {
  const deps = ctx.deps.read;
  await requireProject({ ctx, projectId, access: "write" });
  const { status, severity } = parseInput(UpdateErrorInput, input);
  if (status === undefined && severity === undefined)
    throw new InvalidInputError("Give status and/or severity", [
      { field: "status", message: "status or severity is required" },
    ]);
  // Only the fields given: an absent one must not overwrite the group's value with undefined.
  const change = { ...(status ? { status } : {}), ...(severity ? { severity } : {}) };
  const updated = await deps.errorGroups.update(
    projectId,
    errorId,
    change,
    deps.clock.now().getTime(),
  );
  if (!updated) throw new NotFoundError("Error", errorId);
  return summaryOf(updated);
}

function summaryOf(g: ErrorGroup): ErrorSummary {
  return {
    id: g.fingerprint,
    type: g.exceptionType,
    message: g.message,
    culprit: g.culprit,
    status: g.status,
    severity: g.severity,
    occurrences: g.occurrenceCount,
    firstSeen: isoMs(g.firstSeenMs),
    lastSeen: isoMs(g.lastSeenMs),
    resolvedAt: g.resolvedAtMs > 0 ? isoMs(g.resolvedAtMs) : null,
    services: g.services,
    source: g.source,
    sampleTraceId: g.sampleTraceId || null,
  };
}
