import type { Kysely } from "kysely";
import type { AlertEventKind } from "../../alerts/definition.js";
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

const toRecord = (row: AlertEventRow): AlertEventRecord => ({
  id: row.id,
  ruleId: row.rule_id,
  projectId: row.project_id,
  seriesKey: row.series_key,
  labels: parseLabels(row.labels),
  kind: row.kind as AlertEventKind,
  value: row.value === null ? null : Number(row.value),
  threshold: Number(row.threshold),
  at: row.at,
  notified: row.notified === 1,
  incidentId: row.incident_id,
  message: row.message,
});

export function createAlertEventRepository(db: Kysely<MetaSchema>) {
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
    /** The fire and resolve events of a project in [from, to): rule, kind and time only. */
    async listTransitions(
      projectId: string,
      from: string,
      to: string,
    ): Promise<{ ruleId: string; kind: "fired" | "resolved"; at: string }[]> {
      const rows = await db
        .selectFrom("alert_events")
        .select(["rule_id", "kind", "at"])
        .where("project_id", "=", projectId)
        .where("kind", "in", ["fired", "resolved"])
        .where("at", ">=", from)
        .where("at", "<", to)
        .execute();
      return rows.map((r) => ({
        ruleId: r.rule_id,
        kind: r.kind as "fired" | "resolved",
        at: r.at,
      }));
    },
    /** Each resolve in [from, to) with the time its series fired (the latest fire before it). */
    async listResolutions(
      projectId: string,
      from: string,
      to: string,
    ): Promise<{ at: string; firedAt: string | null }[]> {
      const rows = await db
        .selectFrom("alert_events as r")
        .select((eb) => [
          "r.at",
          eb
            .selectFrom("alert_events as f")
            .select((f) => f.fn.max("f.at").as("fired_at"))
            .whereRef("f.rule_id", "=", "r.rule_id")
            .whereRef("f.series_key", "=", "r.series_key")
            .where("f.kind", "=", "fired")
            .whereRef("f.at", "<=", "r.at")
            .as("fired_at"),
        ])
        .where("r.project_id", "=", projectId)
        .where("r.kind", "=", "resolved")
        .where("r.at", ">=", from)
        .where("r.at", "<", to)
        .execute();
      return rows.map((r) => ({ at: r.at, firedAt: r.fired_at ?? null }));
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
