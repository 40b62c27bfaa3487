import type { Kysely } from "kysely";
import type { SeriesState } from "../../contracts/alert-catalog.js";
import type { AlertSeriesRow, MetaSchema } from "../schema.js";

/** One series of a rule (one distinct label set) and its state machine. */
export interface AlertSeriesRecord {
  ruleId: string;
  /** The labels sorted by name, JSON-encoded (`{}` without labels). */
  seriesKey: string;
  labels: Record<string, string>;
  state: SeriesState;
  pendingSince: string | null;
  firedAt: string | null;
  lastValue: number | null;
  lastEvaluatedAt: string | null;
  lastNotifiedAt: string | null;
  incidentId: string | null;
}

export function parseLabels(text: string): Record<string, string> {
  const value: unknown = JSON.parse(text);
  const labels: Record<string, string> = {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) return labels;
  for (const [name, label] of Object.entries(value)) labels[name] = String(label);
  return labels;
}

const toRecord = (row: AlertSeriesRow): AlertSeriesRecord => ({
  ruleId: row.rule_id,
  seriesKey: row.series_key,
  labels: parseLabels(row.labels),
  state: row.state as SeriesState,
  pendingSince: row.pending_since,
  firedAt: row.fired_at,
  lastValue: row.last_value === null ? null : Number(row.last_value),
  lastEvaluatedAt: row.last_evaluated_at,
  lastNotifiedAt: row.last_notified_at,
  incidentId: row.incident_id,
});

export function createAlertSeriesRepository(db: Kysely<MetaSchema>) {
  return {
    /** A rule's series, by key. */
    async list(ruleId: string): Promise<AlertSeriesRecord[]> {
      const rows = await db
        .selectFrom("alert_series")
        .selectAll()
        .where("rule_id", "=", ruleId)
        .orderBy("series_key")
        .execute();
      return rows.map(toRecord);
    },
    /** The series of several rules, grouped by rule id. */
    async listForRules(ruleIds: readonly string[]): Promise<Map<string, AlertSeriesRecord[]>> {
      const byRule = new Map<string, AlertSeriesRecord[]>();
      if (ruleIds.length === 0) return byRule;
      const rows = await db
        .selectFrom("alert_series")
        .selectAll()
        .where("rule_id", "in", ruleIds)
        .orderBy("rule_id")
        .orderBy("series_key")
        .execute();
      for (const row of rows) {
        const list = byRule.get(row.rule_id) ?? [];
        list.push(toRecord(row));
        byRule.set(row.rule_id, list);
      }
      return byRule;
    },
    /** Inserts the series or replaces every column of the stored one. */
    async upsert(series: AlertSeriesRecord): Promise<void> {
      const values = {
        labels: JSON.stringify(series.labels),
        state: series.state,
        pending_since: series.pendingSince,
        fired_at: series.firedAt,
        last_value: series.lastValue,
        last_evaluated_at: series.lastEvaluatedAt,
        last_notified_at: series.lastNotifiedAt,
        incident_id: series.incidentId,
      };
      await db
        .insertInto("alert_series")
        .values({ rule_id: series.ruleId, series_key: series.seriesKey, ...values })
        .onConflict((oc) => oc.columns(["rule_id", "series_key"]).doUpdateSet(values))
        .execute();
    },
    async delete(ruleId: string, seriesKey: string): Promise<void> {
      await db
        .deleteFrom("alert_series")
        .where("rule_id", "=", ruleId)
        .where("series_key", "=", seriesKey)
        .execute();
    },
    /** How many series of a project's rules are firing now. */
    async countFiring(projectId: string): Promise<number> {
      const row = await db
        .selectFrom("alert_series")
        .innerJoin("alert_rules", "alert_rules.id", "alert_series.rule_id")
        .where("alert_rules.project_id", "=", projectId)
        .where("alert_series.state", "=", "firing")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
export type AlertSeriesRepository = ReturnType<typeof createAlertSeriesRepository>;
