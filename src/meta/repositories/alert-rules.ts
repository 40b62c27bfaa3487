import { type Kysely, sql } from "kysely";
import {
  ALERT_INTERVALS,
  type AlertRuleState,
  type AlertSeverity,
  type AlertStatus,
} from "../../contracts/alert-catalog.js";
import type { AlertRuleRow, MetaSchema } from "../schema.js";
import { SEVERITY_RANK_SQL as SEVERITY_RANK } from "../severity-sql.js";
import { type EventWindow, transitionsActiveIn } from "./alert-events.js";
import { type AlertRuleDefinition, parseAlertRuleDefinition } from "./alert-rule-definition.js";
import { links } from "./links.js";
import { lockRow } from "./row-lock.js";

/** An alert rule as stored: its definition (parsed), its query, mute and last evaluation. */
export interface AlertRuleRecord {
  id: string;
  projectId: string;
  name: string;
  description: string;
  severity: AlertSeverity;
  definition: AlertRuleDefinition;
  /** The TQL evaluated: the user's query or the preset compiled. */
  query: string;
  channelIds: string[];
  muted: boolean;
  /** While muted: until when, or null for indefinitely. */
  mutedUntil: string | null;
  state: AlertRuleState;
  lastEvaluatedAt: string | null;
  lastDurationMs: number | null;
  lastValue: number | null;
  lastSeries: number | null;
  lastError: string | null;
  /** Consecutive failed evaluations; 0 after one that worked. */
  failures: number;
  /** When the current run of failed evaluations began; null while evaluations work. */
  failingSince: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A rule as first stored: unmuted, state ok, never evaluated, created and updated `at`. */
export function newAlertRuleRecord(
  fields: Pick<
    AlertRuleRecord,
    "id" | "projectId" | "name" | "description" | "severity" | "definition" | "query" | "channelIds"
  > & { createdBy?: string | null; at: string },
): AlertRuleRecord {
  const { at, createdBy = null, ...rule } = fields;
  return {
    ...rule,
    muted: false,
    mutedUntil: null,
    state: "ok",
    lastEvaluatedAt: null,
    lastDurationMs: null,
    lastValue: null,
    lastSeries: null,
    lastError: null,
    failures: 0,
    failingSince: null,
    createdBy,
    createdAt: at,
    updatedAt: at,
  };
}

/** What one evaluation writes on its rule. */
export interface AlertRuleEvaluation {
  state: AlertRuleState;
  lastEvaluatedAt: string;
  lastDurationMs: number;
  lastValue: number | null;
  lastSeries: number;
  lastError: string | null;
  failures: number;
  failingSince: string | null;
}

/** Which rules a list shows: a project's, optionally by alert status (computed at `now`). */
export interface AlertRuleFilter {
  projectId: string;
  status?: AlertStatus | undefined;
  severity?: AlertSeverity | undefined;
  /** true: only rules whose evaluations fail now (failures in a row); false: only the others. */
  failing?: boolean | undefined;
  now: string;
  /**
   * Only rules active in [from, to): a fire or resolve in it, or a series firing since before it
   * (transitionsActiveIn).
   */
  activeIn?: EventWindow | undefined;
}

export const ALERT_RULE_SORTS = ["created_at", "name", "severity", "last_evaluated_at"] as const;
export type AlertRuleSort = (typeof ALERT_RULE_SORTS)[number];

const toRecord = (row: AlertRuleRow, channelIds: string[]): AlertRuleRecord => ({
  id: row.id,
  projectId: row.project_id,
  name: row.name,
  description: row.description,
  severity: row.severity as AlertSeverity,
  definition: parseAlertRuleDefinition(row.definition),
  query: row.query,
  channelIds,
  muted: row.muted === 1,
  mutedUntil: row.muted_until,
  state: row.state as AlertRuleState,
  lastEvaluatedAt: row.last_evaluated_at,
  lastDurationMs: row.last_duration_ms === null ? null : Number(row.last_duration_ms),
  lastValue: row.last_value === null ? null : Number(row.last_value),
  lastSeries: row.last_series === null ? null : Number(row.last_series),
  lastError: row.last_error,
  failures: Number(row.failures),
  failingSince: row.failing_since,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function createAlertRuleRepository(db: Kysely<MetaSchema>) {
  const channels = links(db, {
    table: "alert_rule_channels",
    owner: "rule_id",
    item: "channel_id",
  });
  const withChannels = (rows: AlertRuleRow[]): Promise<AlertRuleRecord[]> =>
    channels.attach(rows, toRecord);
  const filtered = (filter: AlertRuleFilter) => {
    let query = db.selectFrom("alert_rules").where("project_id", "=", filter.projectId);
    if (filter.severity !== undefined) query = query.where("severity", "=", filter.severity);
    if (filter.failing !== undefined)
      query = query.where("failures", filter.failing ? ">" : "=", 0);
    const activeIn = filter.activeIn;
    if (activeIn !== undefined)
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom("alert_events")
            .select("alert_events.id")
            .whereRef("alert_events.rule_id", "=", "alert_rules.id")
            .where(transitionsActiveIn(activeIn)),
        ),
      );
    if (filter.status !== undefined) {
      const status = filter.status;
      query = query.where((eb) => {
        const muted = eb.and([
          eb("muted", "=", 1),
          eb.or([eb("muted_until", "is", null), eb("muted_until", ">", filter.now)]),
        ]);
        const firing = eb.exists(
          eb
            .selectFrom("alert_series")
            .select("alert_series.rule_id")
            .whereRef("alert_series.rule_id", "=", "alert_rules.id")
            .where("alert_series.state", "=", "firing"),
        );
        if (status === "muted") return muted;
        if (status === "active") return eb.and([eb.not(muted), firing]);
        return eb.and([eb.not(muted), eb.not(firing)]);
      });
    }
    return query;
  };

  return {
    async insert(rule: AlertRuleRecord): Promise<AlertRuleRecord> {
      await db
        .insertInto("alert_rules")
        .values({
          id: rule.id,
          project_id: rule.projectId,
          name: rule.name,
          description: rule.description,
          severity: rule.severity,
          definition: JSON.stringify(rule.definition),
          query: rule.query,
          muted: rule.muted ? 1 : 0,
          muted_until: rule.mutedUntil,
          state: rule.state,
          last_evaluated_at: rule.lastEvaluatedAt,
          last_duration_ms: rule.lastDurationMs,
          last_value: rule.lastValue,
          last_series: rule.lastSeries,
          last_error: rule.lastError,
          failures: rule.failures,
          failing_since: rule.failingSince,
          created_by: rule.createdBy,
          created_at: rule.createdAt,
          updated_at: rule.updatedAt,
        })
        .execute();
      await channels.set(rule.id, rule.channelIds);
      return rule;
    },
    /** The names of these rules (ids not found are left out). */
    async namesByIds(ids: readonly string[]): Promise<{ id: string; name: string }[]> {
      if (ids.length === 0) return [];
      return db.selectFrom("alert_rules").select(["id", "name"]).where("id", "in", ids).execute();
    },
    async findById(id: string): Promise<AlertRuleRecord | undefined> {
      const row = await db
        .selectFrom("alert_rules")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && (await withChannels([row]))[0];
    },
    async findByName(projectId: string, name: string): Promise<AlertRuleRecord | undefined> {
      const row = await db
        .selectFrom("alert_rules")
        .selectAll()
        .where("project_id", "=", projectId)
        .where("name", "=", name)
        .executeTakeFirst();
      return row && (await withChannels([row]))[0];
    },
    /** A project's rules, oldest first. */
    async listByProject(projectId: string): Promise<AlertRuleRecord[]> {
      const rows = await db
        .selectFrom("alert_rules")
        .selectAll()
        .where("project_id", "=", projectId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return withChannels(rows);
    },
    /** A page of a project's rules by filter, in the given order. */
    async list(
      filter: AlertRuleFilter,
      page: { limit: number; offset: number; sort: AlertRuleSort; order: "asc" | "desc" },
    ): Promise<AlertRuleRecord[]> {
      // Never-evaluated rules sort as the oldest on both engines (PostgreSQL would put NULL
      // last ascending, SQLite first): last in desc, first in asc.
      const neverFirst = page.order === "asc" ? "desc" : "asc";
      const rows = await filtered(filter)
        .selectAll()
        .$if(page.sort === "last_evaluated_at", (q) =>
          q.orderBy(sql`(case when last_evaluated_at is null then 1 else 0 end)`, neverFirst),
        )
        .orderBy(page.sort === "severity" ? SEVERITY_RANK : page.sort, page.order)
        .orderBy("id", page.order)
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return withChannels(rows);
    },
    async count(filter: AlertRuleFilter): Promise<number> {
      const row = await filtered(filter)
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** A cheap fingerprint of the rules (count and latest edit): see monitors' activeVersion. */
    async schedulableVersion(): Promise<string> {
      const row = await db
        .selectFrom("alert_rules")
        .select((eb) => [
          eb.fn.countAll<number | string>().as("n"),
          eb.fn.max("updated_at").as("latest"),
        ])
        .executeTakeFirst();
      return `${Number(row?.n ?? 0)}@${row?.latest ?? ""}`;
    },
    /** Every rule with its evaluation period, for the scheduler (muted rules are evaluated too). */
    async listSchedulable(): Promise<
      {
        id: string;
        projectId: string;
        orgId: string;
        intervalMs: number;
        lastEvaluatedAt: string | null;
      }[]
    > {
      const rows = await db
        .selectFrom("alert_rules")
        .innerJoin("projects", "projects.id", "alert_rules.project_id")
        .select([
          "alert_rules.id",
          "alert_rules.project_id",
          "projects.org_id",
          "alert_rules.definition",
          "alert_rules.last_evaluated_at",
        ])
        .execute();
      return rows.map((r) => ({
        id: r.id,
        projectId: r.project_id,
        orgId: r.org_id,
        intervalMs: ALERT_INTERVALS[parseAlertRuleDefinition(r.definition).interval] * 1000,
        lastEvaluatedAt: r.last_evaluated_at,
      }));
    },
    /** The rule's channel ids. */
    async listChannels(id: string): Promise<string[]> {
      return (await channels.of([id])).get(id) ?? [];
    },
    async updateDefinition(
      id: string,
      change: {
        name: string;
        description: string;
        severity: AlertSeverity;
        definition: AlertRuleDefinition;
        query: string;
        channelIds: readonly string[];
        updatedAt: string;
      },
    ): Promise<void> {
      await db
        .updateTable("alert_rules")
        .set({
          name: change.name,
          description: change.description,
          severity: change.severity,
          definition: JSON.stringify(change.definition),
          query: change.query,
          updated_at: change.updatedAt,
          // An edit ends a failing rule's backoff: its next evaluation tells whether it works.
          failures: 0,
        })
        .where("id", "=", id)
        .execute();
      await channels.set(id, change.channelIds);
    },
    /** Mutes (until a time, or indefinitely with null) or unmutes. */
    async setMute(
      id: string,
      mute: { muted: boolean; mutedUntil: string | null; updatedAt: string },
    ): Promise<void> {
      await db
        .updateTable("alert_rules")
        .set({
          muted: mute.muted ? 1 : 0,
          muted_until: mute.muted ? mute.mutedUntil : null,
          updated_at: mute.updatedAt,
        })
        .where("id", "=", id)
        .execute();
    },
    /** Takes the rule's row lock for the rest of the transaction; false when it is gone. */
    lock: (id: string): Promise<boolean> => lockRow(db, "alert_rules", id),
    /** Writes one evaluation's outcome; leaves the definition and mute alone. */
    async recordEvaluation(id: string, evaluation: AlertRuleEvaluation): Promise<void> {
      await db
        .updateTable("alert_rules")
        .set({
          state: evaluation.state,
          last_evaluated_at: evaluation.lastEvaluatedAt,
          last_duration_ms: evaluation.lastDurationMs,
          last_value: evaluation.lastValue,
          last_series: evaluation.lastSeries,
          last_error: evaluation.lastError,
          failures: evaluation.failures,
          failing_since: evaluation.failingSince,
        })
        .where("id", "=", id)
        .execute();
    },
    /** Deletes the rule with its series and events; false when it was gone. */
    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom("alert_rules").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
export type AlertRuleRepository = ReturnType<typeof createAlertRuleRepository>;
