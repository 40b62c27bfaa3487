import { z } from "zod";
import type { Ctx } from "../context.js";
import type { Page } from "../contracts/pagination.js";
import { annotateStack } from "../ingest/derive/stack-frames.js";
import type { ErrorGroup } from "../ingest/error-groups.js";
import { ERROR_SEVERITIES, ERROR_STATUSES } from "../ingest/ingest-batch.js";
import { InvalidInputError, NotFoundError } from "../lib/domain-errors.js";
import {
  bucketMs,
  bucketStarts,
  countsOf,
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
import type { ReadDeps } from "./read-deps.js";
import { searchConditions, searchTerms } from "./search.js";
import { num, Sql, selectPage, whereClause } from "./sql.js";

const SOURCES = ["frontend", "backend"] as const;
const ERROR_SORTS = ["last_seen", "first_seen", "occurrences", "severity"] as const;
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

export const ErrorSummary = z
  .object({
    id: z.string().describe("The group's fingerprint"),
    type: z.string(),
    message: z.string().describe("Message of the latest occurrence"),
    culprit: z.string().describe("Top in-app frame"),
    status: z.enum(ERROR_STATUSES),
    severity: z.enum(ERROR_SEVERITIES),
    occurrences: z.number().int(),
    firstSeen: z.string(),
    lastSeen: z.string(),
    resolvedAt: z.string().nullable(),
    services: z.array(z.string()),
    source: z.enum(SOURCES),
    sampleTraceId: z.string().nullable(),
  })
  .meta({ id: "ErrorSummary" });
export type ErrorSummary = z.infer<typeof ErrorSummary>;

const GROUP_COLUMNS = `fingerprint, exception_type, message, culprit, status, severity, occurrence_count,
  toUnixTimestamp64Milli(first_seen) AS first_ms, toUnixTimestamp64Milli(last_seen) AS last_ms,
  toUnixTimestamp64Milli(resolved_at) AS resolved_ms, services, source, sample_trace_id`;

type GroupRow = Record<string, unknown>;

function toSummary(row: GroupRow): ErrorSummary {
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
function overlaps(sql: Sql, window: TimeWindow | undefined): string[] {
  if (!window) return [];
  return [
    `last_seen >= fromUnixTimestamp64Milli(${sql.bind(window.fromMs)}, 'UTC')`,
    `first_seen < fromUnixTimestamp64Milli(${sql.bind(window.toMs)}, 'UTC')`,
  ];
}

/** Error groups, most recently seen first unless sorted otherwise. */
export async function listErrors(
  deps: ReadDeps,
  projectId: string,
  query: ListErrorsQuery,
): Promise<Page<ErrorSummary>> {
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

const SAMPLE_TRACES = 10;

export const ErrorDetail = ErrorSummary.extend({
  stacktrace: z.string(),
  stack: z
    .array(
      z.object({
        text: z.string(),
        frame: z
          .object({ file: z.string(), function: z.string(), inApp: z.boolean() })
          .nullable()
          .describe("Set on a frame line: the file and function the grouping reads from it"),
      }),
    )
    .describe(
      "The stack trace line by line; frame lines say whether they are the application's own code (in-app), as the fingerprint decides",
    ),
  window: z.object({ from: z.string(), to: z.string(), bucketSeconds: z.number().int() }),
  occurrencesInWindow: z.number().int(),
  occurrencesOverTime: z
    .array(z.object({ time: z.string(), count: z.number().int() }))
    .describe("Occurrences per bucket over the window (default: the last 30 days)"),
  affectedServices: z
    .array(z.object({ service: z.string(), occurrences: z.number().int(), lastSeen: z.string() }))
    .describe("Every service the error occurred in, with its occurrences over all time"),
  sampleTraces: z
    .array(
      z.object({
        traceId: z.string(),
        spanId: z.string().nullable(),
        service: z.string(),
        time: z.string(),
        message: z.string(),
        logId: z
          .string()
          .nullable()
          .describe(
            "The error log of this occurrence (`/v1/logs/{logId}`) when a log recorded it, beside or instead of the span's exception event",
          ),
      }),
    )
    .describe(`The ${SAMPLE_TRACES} latest occurrences that carry a trace, newest first`),
}).meta({ id: "ErrorDetail" });
export type ErrorDetail = z.infer<typeof ErrorDetail>;

async function findGroup(sql: Sql, errorId: string): Promise<GroupRow | undefined> {
  const [row] = await sql.query<GroupRow>(
    `SELECT ${GROUP_COLUMNS}, stacktrace FROM ${sql.table("error_groups")} FINAL
     ${whereClause(sql, [`fingerprint = ${sql.bind(errorId)}`])}`,
  );
  return row;
}

/** One group with its stack trace and history: occurrences over time, services, sample traces. */
export async function getError(
  deps: ReadDeps,
  projectId: string,
  errorId: string,
  query: ErrorDetailQuery,
): Promise<ErrorDetail> {
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

export const ErrorsDashboardQuery = z.object(WindowQuery.shape).strict();
export type ErrorsDashboardQuery = z.infer<typeof ErrorsDashboardQuery>;

const TOP = 10;
const SeverityCounts = countsOf(ERROR_SEVERITIES);

export const ErrorsDashboard = z
  .object({
    from: z.string(),
    to: z.string(),
    bucketSeconds: z.number().int(),
    occurrences: z.number().int().describe("Occurrences in the window"),
    groupsSeen: z.number().int().describe("Groups with an occurrence in the window"),
    newGroups: z.number().int().describe("Groups first seen in the window"),
    active: z.number().int().describe("Groups currently active (all time)"),
    resolved: z.number().int().describe("Groups currently resolved (all time)"),
    activeBySeverity: SeverityCounts,
    series: z
      .array(z.object({ time: z.string(), occurrences: z.number().int() }))
      .describe("Occurrences per bucket, every bucket present"),
    byService: z.array(z.object({ service: z.string(), occurrences: z.number().int() })),
    topErrors: z
      .array(ErrorSummary.extend({ occurrencesInWindow: z.number().int() }))
      .describe("The groups with the most occurrences in the window"),
  })
  .meta({ id: "ErrorsDashboard" });
export type ErrorsDashboard = z.infer<typeof ErrorsDashboard>;

/** Error statistics over a window (default 24h) plus the current state of every group. */
export async function errorsDashboard(
  deps: ReadDeps,
  projectId: string,
  query: ErrorsDashboardQuery,
): Promise<ErrorsDashboard> {
  const window = dashboardWindow(query, deps.clock.now().getTime());
  const step = bucketMs(window);
  const sql = new Sql(deps.telemetry, projectId);
  const occurrences = sql.table("error_occurrences");
  const groups = `${sql.table("error_groups")} FINAL`;
  const inWindow = whereClause(sql, sql.within("timestamp", window));
  // One pass over the groups gives the current states and the window's seen and new groups.
  const seen = overlaps(sql, window).join(" AND ");
  const created = `${seen} AND first_seen >= fromUnixTimestamp64Milli(${sql.bind(window.fromMs)}, 'UTC')`;
  const inWindowOnce = occurrencesOf(occurrences, inWindow);
  const [buckets, services, states, top] = await Promise.all([
    sql.query<{ bucket: string; count: string }>(
      `SELECT ${sql.bucket("at", step)} AS bucket, count() AS count
       FROM ${inWindowOnce} GROUP BY bucket`,
    ),
    sql.query<{ service: string; count: string }>(
      `SELECT service, count() AS count FROM ${inWindowOnce}
       GROUP BY service ORDER BY count DESC, service LIMIT ${TOP}`,
    ),
    sql.query<{ status: string; severity: string; count: string; seen: string; created: string }>(
      `SELECT status, severity, count() AS count, countIf(${seen}) AS seen, countIf(${created}) AS created
       FROM ${groups} ${whereClause(sql, [])} GROUP BY status, severity`,
    ),
    sql.query<GroupRow>(
      `SELECT ${GROUP_COLUMNS}, o.count AS in_window FROM ${groups}
       INNER JOIN (SELECT fingerprint, count() AS count FROM ${inWindowOnce}
                   GROUP BY fingerprint ORDER BY count DESC, fingerprint LIMIT ${TOP}) AS o USING fingerprint
       ${whereClause(sql, [])} ORDER BY in_window DESC, fingerprint`,
    ),
  ]);
  const counts = new Map(buckets.map((b) => [num(b.bucket), num(b.count)]));
  const activeBySeverity = Object.fromEntries(ERROR_SEVERITIES.map((s) => [s, 0])) as Record<
    (typeof ERROR_SEVERITIES)[number],
    number
  >;
  let active = 0;
  let resolved = 0;
  let groupsSeen = 0;
  let newGroups = 0;
  for (const row of states) {
    const count = num(row.count);
    groupsSeen += num(row.seen);
    newGroups += num(row.created);
    if (row.status === "resolved") resolved += count;
    else {
      active += count;
      const severity = row.severity as (typeof ERROR_SEVERITIES)[number];
      if (severity in activeBySeverity) activeBySeverity[severity] += count;
    }
  }
  return {
    from: isoMs(window.fromMs),
    to: isoMs(window.toMs),
    bucketSeconds: step / 1000,
    occurrences: [...counts.values()].reduce((a, b) => a + b, 0),
    groupsSeen,
    newGroups,
    active,
    resolved,
    activeBySeverity,
    series: bucketStarts(window, step).map((t) => ({
      time: isoMs(t),
      occurrences: counts.get(t) ?? 0,
    })),
    byService: services.map((s) => ({ service: s.service, occurrences: num(s.count) })),
    topErrors: top.map((row) => ({ ...toSummary(row), occurrencesInWindow: num(row.in_window) })),
  };
}

export const UpdateErrorInput = z
  .object({
    status: z.enum(ERROR_STATUSES).optional().describe("`resolved` to resolve, `active` to reopen"),
    severity: z.enum(ERROR_SEVERITIES).optional(),
  })
  .strict()
  .meta({ id: "UpdateErrorInput", example: { status: "resolved" } });
export type UpdateErrorInput = z.infer<typeof UpdateErrorInput>;

/**
 * Resolves, reopens or re-grades an error group (members and above). A resolved group becomes
 * active again by itself when it occurs after its resolution.
 */
export async function updateError(
  deps: ReadDeps,
  {
    ctx,
    projectId,
    errorId,
    input,
  }: { ctx: Ctx; projectId: string; errorId: string; input: unknown },
): Promise<ErrorSummary> {
  await requireProject(ctx, projectId, "write");
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
