import { type Kysely, type RawBuilder, type SqlBool, sql } from "kysely";
import type { AlertEventKind, AlertSeverity } from "../../contracts/alert-catalog.js";
import type { MetaEngine } from "../database.js";
import type { AlertEventRow, MetaSchema } from "../schema.js";
import { parseLabels } from "./alert-series.js";

/** One recorded happening of a rule's series: a fire, a resolve, an error, … */
export interface AlertEventRecord {
  id: string;
  ruleId: string;
  projectId: string;
  seriesKey: string;
  labels: Record<string, string>;
  kind: AlertEventKind;
  /** The rule's severity when it happened (fires are counted by it). */
  severity: AlertSeverity;
  value: number | null;
  threshold: number;
  at: string;
  /** False while the rule was muted: recorded, not notified. */
  notified: boolean;
  incidentId: string | null;
  /** The rendered message template, or the error text. */
  message: string | null;
}

/** Whose events to list: one rule's or a whole project's, optionally of some kinds and a window. */
export type AlertEventScope = { ruleId: string } | { projectId: string };
export interface AlertEventPage {
  limit: number;
  offset: number;
  kinds?: readonly AlertEventKind[] | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** A time window, ISO bounds, either open. */
export interface EventWindow {
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * The fires and resolves of `alert_events` that speak of [from, to): each one inside it, and a
 * fire before it whose series had not resolved when it began (the series fired into the window).
 */
export function transitionsActiveIn(window: EventWindow): RawBuilder<SqlBool> {
  const parts = [sql`alert_events.kind in ('fired', 'resolved')`];
  if (window.to !== undefined) parts.push(sql`alert_events.at < ${window.to}`);
  if (window.from !== undefined)
    parts.push(sql`(alert_events.at >= ${window.from} or (alert_events.kind = 'fired' and not exists (
      select 1 from alert_events later
      where later.rule_id = alert_events.rule_id and later.series_key = alert_events.series_key
        and later.kind = 'resolved' and later.at >= alert_events.at and later.at < ${window.from})))`);
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

const toRecord = (row: AlertEventRow): AlertEventRecord => ({
  id: row.id,
  ruleId: row.rule_id,
  projectId: row.project_id,
  seriesKey: row.series_key,
  labels: parseLabels(row.labels),
  kind: row.kind as AlertEventKind,
  severity: row.severity as AlertSeverity,
  value: row.value === null ? null : Number(row.value),
  threshold: Number(row.threshold),
  at: row.at,
  notified: row.notified === 1,
  incidentId: row.incident_id,
  message: row.message,
});

/** A project's fire/resolve counts of a window, aggregated in SQL for the dashboard. */
export interface AlertTransitionStats {
  /** Per bucket start (epoch ms, a multiple of the step) with any event: fires and resolves. */
  buckets: { startMs: number; fires: number; resolves: number }[];
  firesBySeverity: { severity: AlertSeverity; fires: number }[];
  /** The rules that fired most, most first (ties by name). */
  topRules: { ruleId: string; name: string; severity: AlertSeverity; fires: number }[];
  /** Mean of resolve time minus its series' latest fire before it; null without such pairs. */
  meanTimeToResolveMs: number | null;
}

/** An ISO-8601 text timestamp as epoch milliseconds, in either engine's SQL (exact to the ms). */
const epochMs = (engine: MetaEngine, column: RawBuilder<unknown>): RawBuilder<number> =>
  engine === "postgres"
    ? sql<number>`(extract(epoch from cast(${column} as timestamptz)) * 1000)`
    : sql<number>`round((julianday(${column}) - 2440587.5) * 86400000.0)`;
/** The bucket number of a timestamp (start = number × step); literal step, so GROUP BY matches. */
const bucketOf = (engine: MetaEngine, column: RawBuilder<unknown>, stepMs: number) =>
  engine === "postgres"
    ? sql<number>`floor(${epochMs(engine, column)} / ${sql.lit(Math.trunc(stepMs))})`
    : sql<number>`cast(${epochMs(engine, column)} / ${sql.lit(Math.trunc(stepMs))} as integer)`;

export function createAlertEventRepository(db: Kysely<MetaSchema>, engine: MetaEngine) {
  const scoped = (scope: AlertEventScope, page: Omit<AlertEventPage, "limit" | "offset">) => {
    let query = db.selectFrom("alert_events");
    query =
      "ruleId" in scope
        ? query.where("rule_id", "=", scope.ruleId)
        : query.where("project_id", "=", scope.projectId);
    if (page.kinds !== undefined && page.kinds.length > 0)
      query = query.where("kind", "in", page.kinds);
    if (page.from !== undefined) query = query.where("at", ">=", page.from);
    if (page.to !== undefined) query = query.where("at", "<", page.to);
    return query;
  };
  return {
    async insertMany(events: readonly AlertEventRecord[]): Promise<void> {
      if (events.length === 0) return;
      await db
        .insertInto("alert_events")
        .values(
          events.map((e) => ({
            id: e.id,
            rule_id: e.ruleId,
            project_id: e.projectId,
            series_key: e.seriesKey,
            labels: JSON.stringify(e.labels),
            kind: e.kind,
            severity: e.severity,
            value: e.value,
            threshold: e.threshold,
            at: e.at,
            notified: e.notified ? 1 : 0,
            incident_id: e.incidentId,
            message: e.message,
          })),
        )
        .execute();
    },
    /** A page of a rule's or a project's events, newest first. */
    async list(scope: AlertEventScope, page: AlertEventPage): Promise<AlertEventRecord[]> {
      const rows = await scoped(scope, page)
        .selectAll()
        .orderBy("at", "desc")
        .orderBy("id", "desc")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toRecord);
    },
    /**
     * The latest events of each of these rules (at most `perRule` each, newest first) in one
     * query: numbered per rule by a window function, which SQLite and PostgreSQL both run.
     */
    /**
     * Each rule's latest events, newest first. `activeIn`: only fires and resolves of that window
     * (transitionsActiveIn), so a series firing since before it shows the fire that began it.
     */
    async listRecent(
      ruleIds: readonly string[],
      page: Omit<AlertEventPage, "limit" | "offset"> & {
        perRule: number;
        activeIn?: EventWindow | undefined;
      },
    ): Promise<Map<string, AlertEventRecord[]>> {
      const byRule = new Map<string, AlertEventRecord[]>();
      if (ruleIds.length === 0) return byRule;
      let inner = db
        .selectFrom("alert_events")
        .selectAll()
        .select(
          sql<number>`row_number() over (partition by rule_id order by at desc, id desc)`.as("rn"),
        )
        .where("rule_id", "in", ruleIds);
      if (page.kinds !== undefined && page.kinds.length > 0)
        inner = inner.where("kind", "in", page.kinds);
      if (page.from !== undefined) inner = inner.where("at", ">=", page.from);
      if (page.to !== undefined) inner = inner.where("at", "<", page.to);
      if (page.activeIn !== undefined) inner = inner.where(transitionsActiveIn(page.activeIn));
      const rows = await db
        .selectFrom(inner.as("e"))
        .selectAll()
        .where("rn", "<=", page.perRule)
        .orderBy("rule_id")
        .orderBy("rn")
        .execute();
      for (const { rn: _rn, ...row } of rows) {
        const list = byRule.get(row.rule_id) ?? [];
        list.push(toRecord(row));
        byRule.set(row.rule_id, list);
      }
      return byRule;
    },
    /** Fires and resolves of a project in [from, to): per bucket, by severity, top rules, MTTR. */
    async transitionStats(
      projectId: string,
      window: { from: string; to: string; stepMs: number; top: number },
    ): Promise<AlertTransitionStats> {
      const inWindow = db
        .selectFrom("alert_events")
        .where("alert_events.project_id", "=", projectId)
        .where("alert_events.at", ">=", window.from)
        .where("alert_events.at", "<", window.to);
      const bucket = bucketOf(engine, sql.ref("alert_events.at"), window.stepMs);
      const fires = inWindow.where("alert_events.kind", "=", "fired");
      const [buckets, severities, top, mttr] = await Promise.all([
        inWindow
          .where("alert_events.kind", "in", ["fired", "resolved"])
          .select((eb) => [
            bucket.as("bucket"),
            "alert_events.kind",
            eb.fn.countAll<number | string>().as("n"),
          ])
          .groupBy([bucket, "alert_events.kind"])
          .execute(),
        fires
          .select((eb) => ["alert_events.severity", eb.fn.countAll<number | string>().as("n")])
          .groupBy("alert_events.severity")
          .execute(),
        fires
          .innerJoin("alert_rules", "alert_rules.id", "alert_events.rule_id")
          .select((eb) => [
            "alert_events.rule_id",
            "alert_rules.name",
            "alert_rules.severity",
            eb.fn.countAll<number | string>().as("n"),
          ])
          .groupBy(["alert_events.rule_id", "alert_rules.name", "alert_rules.severity"])
          .orderBy("n", "desc")
          .orderBy("alert_rules.name")
          .limit(window.top)
          .execute(),
        // Each resolve's fire: the latest fire of its series before it (by the series index).
        db
          .selectFrom("alert_events as r")
          .select((eb) =>
            sql<number | string | null>`avg(${epochMs(engine, sql.ref("r.at"))} - ${epochMs(
              engine,
              sql`(${eb
                .selectFrom("alert_events as f")
                .select((f) => f.fn.max("f.at").as("fired_at"))
                .whereRef("f.rule_id", "=", "r.rule_id")
                .whereRef("f.series_key", "=", "r.series_key")
                .where("f.kind", "=", "fired")
                .whereRef("f.at", "<=", "r.at")})`,
            )})`.as("mean"),
          )
          .where("r.project_id", "=", projectId)
          .where("r.kind", "=", "resolved")
          .where("r.at", ">=", window.from)
          .where("r.at", "<", window.to)
          .executeTakeFirst(),
      ]);
      const byBucket = new Map<number, { startMs: number; fires: number; resolves: number }>();
      for (const row of buckets) {
        const startMs = Number(row.bucket) * window.stepMs;
        const entry = byBucket.get(startMs) ?? { startMs, fires: 0, resolves: 0 };
        if (row.kind === "fired") entry.fires += Number(row.n);
        else entry.resolves += Number(row.n);
        byBucket.set(startMs, entry);
      }
      const mean = mttr?.mean;
      return {
        buckets: [...byBucket.values()],
        firesBySeverity: severities.map((r) => ({
          severity: r.severity as AlertSeverity,
          fires: Number(r.n),
        })),
        topRules: top.map((r) => ({
          ruleId: r.rule_id,
          name: r.name,
          severity: r.severity as AlertSeverity,
          fires: Number(r.n),
        })),
        meanTimeToResolveMs: mean === null || mean === undefined ? null : Math.round(Number(mean)),
      };
    },
    async count(scope: AlertEventScope, page: Omit<AlertEventPage, "limit" | "offset"> = {}) {
      const row = await scoped(scope, page)
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
export type AlertEventRepository = ReturnType<typeof createAlertEventRepository>;
