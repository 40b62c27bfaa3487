import { z } from "zod";
import {
  DEVICES,
  SESSION_SORTS,
  type SessionDetail,
  type SessionSummary,
} from "../contracts/browser-sessions.js";
import type { Page } from "../contracts/pagination.js";
import { NotFoundError } from "../lib/domain-errors.js";
import { isoMs, listQuery, resolveWindow, type TimeWindow } from "../lib/list-params.js";
import type { ReadCtx } from "./read-deps.js";
import { readTimeline } from "./session-timeline.js";
import { num, Sql, selectPage, textOrNull, whereClause } from "./sql.js";

/** The `session.id` values the API can look up: the characters SDKs use (uuids, hex, prefixed ids). */
export const SessionIdParam = z
  .string()
  .regex(
    /^[A-Za-z0-9._:-]{1,100}$/,
    "must be 1–100 characters of A–Z, a–z, 0–9, '.', '_', ':', '-'",
  );

const SORT_COLUMNS: Record<(typeof SESSION_SORTS)[number], string> = {
  started_at: "start_ms",
  last_seen: "last_ms",
  duration: "duration_ms",
  errors: "errors",
  spans: "spans",
};

const Text = (what: string) => z.string().min(1).max(256).describe(what);

export const ListSessionsQuery = listQuery(
  SESSION_SORTS,
  z
    .object({
      user_id: Text("Only sessions of this user (`user.id`), exact"),
      browser: Text("Only sessions in this browser, e.g. Chrome (case-insensitive)"),
      os: Text("Only sessions on this operating system, e.g. Windows, iOS (case-insensitive)"),
      device: z.enum(DEVICES).describe("Only sessions on this device type"),
      country: z
        .string()
        .regex(/^[A-Za-z]{2}$/, "must be a two-letter ISO country code")
        .describe("Only sessions from this country (ISO 3166-1 alpha-2, case-insensitive)"),
      has_errors: z
        .enum(["true", "false"])
        .describe("`true`: sessions with at least one error; `false`: sessions without"),
    })
    .partial().shape,
);
export type ListSessionsQuery = z.infer<typeof ListSessionsQuery>;

/**
 * A session's errors from its partial rows: its distinct error keys (sessionErrorKey), a failed
 * span's own key (`<trace><span>:`, 49 characters) only when no other error of that span is
 * there; rows written before error_keys count their error_count, unless the upgrade's recount
 * row (keys, no spans or logs: occurrence-recount.ts) stands in for them.
 */
export const SESSION_ERRORS = `if(countIf(span_count = 0 AND log_count = 0 AND notEmpty(error_keys)) > 0, 0,
    sumIf(error_count, empty(error_keys))) + length(arrayFilter(
    k -> NOT (endsWith(k, ':') AND has(arrayMap(o -> substring(o, 1, 49),
      arrayFilter(o -> NOT endsWith(o, ':'), groupUniqArrayArray(error_keys))), k)),
    groupUniqArrayArray(error_keys)))`;

/**
 * One row per session from its partial rows (one per ingest batch): times and counts combine,
 * and each descriptive field comes from the earliest partial row that has it. `(first_seen, x)`
 * as the argMin key makes ties between rows of the same millisecond deterministic.
 */
const MERGED_SELECT = `session_id,
  toUnixTimestamp64Milli(min(first_seen)) AS start_ms,
  toUnixTimestamp64Milli(max(last_seen)) AS last_ms,
  last_ms - start_ms AS duration_ms,
  sum(span_count) AS spans,
  sum(log_count) AS logs,
  ${SESSION_ERRORS} AS errors,
  sum(ai_span_count) AS ai_spans,
  argMinIf(user_id, (first_seen, user_id), user_id != '') AS uid,
  argMinIf(user_agent, (first_seen, user_agent), user_agent != '') AS agent,
  argMinIf(browser, (first_seen, user_agent), user_agent != '') AS browser_name,
  argMinIf(browser_version, (first_seen, user_agent), user_agent != '') AS browser_ver,
  argMinIf(os, (first_seen, user_agent), user_agent != '') AS os_name,
  argMinIf(device, (first_seen, user_agent), user_agent != '') AS device_type,
  argMinIf(country, (first_seen, country), country != '') AS country_code,
  argMinIf(referrer, (first_seen, referrer), referrer != '') AS ref,
  argMinIf(entry_page, (first_seen, entry_page), entry_page != '') AS entry,
  arraySort(groupUniqArrayArray(pages)) AS page_list,
  arraySort(groupUniqArrayArray(services)) AS service_list`;

/**
 * The project's sessions, merged, that overlap the window: started before its end and last seen
 * at or after its start. The whole project's rows are merged first, because a session's rows
 * outside the window still count toward it.
 */
export function mergedSessions(sql: Sql, window: TimeWindow | undefined, extra: string[] = []) {
  const overlap = window
    ? [`start_ms < ${sql.bind(window.toMs)}`, `last_ms >= ${sql.bind(window.fromMs)}`]
    : [];
  const conditions = [...overlap, ...extra];
  return `SELECT * FROM (SELECT ${MERGED_SELECT} FROM ${sql.table("sessions")} ${whereClause(sql, [])}
    GROUP BY session_id)${conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : ""}`;
}

type SessionRow = Record<string, unknown>;

function toSummary(row: SessionRow): SessionSummary {
  return {
    id: String(row.session_id),
    userId: textOrNull(row.uid),
    startedAt: isoMs(num(row.start_ms)),
    lastSeen: isoMs(num(row.last_ms)),
    durationMs: num(row.duration_ms),
    counts: {
      spans: num(row.spans),
      logs: num(row.logs),
      errors: num(row.errors),
      aiSpans: num(row.ai_spans),
    },
    services: (row.service_list as string[]).filter(Boolean),
    browser: textOrNull(row.browser_name),
    browserVersion: textOrNull(row.browser_ver),
    os: textOrNull(row.os_name),
    device: textOrNull(row.device_type),
    country: textOrNull(row.country_code),
    referrer: textOrNull(row.ref),
    entryPage: textOrNull(row.entry),
    pageCount: (row.page_list as string[]).length,
  };
}

/** Sessions overlapping the window (all when none is given), newest first unless sorted otherwise. */
export async function listSessions({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & ListSessionsQuery): Promise<Page<SessionSummary>> {
  const deps = ctx.deps.read;
  const sql = new Sql(deps.telemetry, projectId);
  const window = resolveWindow(query, deps.clock.now().getTime());
  const filters = [
    ...(query.user_id ? [`uid = ${sql.bind(query.user_id)}`] : []),
    ...(query.browser ? [`lower(browser_name) = ${sql.bind(query.browser.toLowerCase())}`] : []),
    ...(query.os ? [`lower(os_name) = ${sql.bind(query.os.toLowerCase())}`] : []),
    ...(query.device ? [`device_type = ${sql.bind(query.device)}`] : []),
    ...(query.country ? [`country_code = ${sql.bind(query.country.toUpperCase())}`] : []),
    ...(query.has_errors === "true" ? ["errors > 0"] : []),
    ...(query.has_errors === "false" ? ["errors = 0"] : []),
  ];
  const sessions = mergedSessions(sql, window, filters);
  const column = SORT_COLUMNS[query.sort_by];
  const direction = query.sort_order === "asc" ? "ASC" : "DESC";
  // Ties: newest start first, then the id, so pages never overlap.
  const order = [`${column} ${direction}`, ...(column === "start_ms" ? [] : ["start_ms DESC"])];
  return selectPage(
    sql,
    query,
    {
      columns: "*",
      from: `(${sessions})`,
      orderBy: `${order.join(", ")}, session_id`,
      total: { kind: "window" },
    },
    toSummary,
  );
}

/** One session: its summary, pages and user agent, and the timeline of everything it sent. */
export async function getSession({
  ctx,
  projectId,
  sessionId,
}: {
  ctx: ReadCtx;
  projectId: string;
  sessionId: string;
}): Promise<SessionDetail> {
  const deps = ctx.deps.read;
  const sql = new Sql(deps.telemetry, projectId);
  const [row] = await sql.query<SessionRow>(
    `SELECT ${MERGED_SELECT} FROM ${sql.table("sessions")}
     ${whereClause(sql, [`session_id = ${sql.bind(sessionId)}`])} GROUP BY session_id`,
  );
  if (!row) throw new NotFoundError("Session", sessionId);
  const summary = toSummary(row);
  // Every item of the session starts within [start, last]: the tables' time keys prune the scan.
  const span = { fromMs: num(row.start_ms), toMs: num(row.last_ms) + 1 };
  const { entries, truncated } = await readTimeline(deps, projectId, sessionId, span);
  return {
    ...summary,
    userAgent: textOrNull(row.agent),
    pages: row.page_list as string[],
    timeline: entries,
    truncated,
  };
}
