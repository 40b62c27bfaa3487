import type { Kysely } from "kysely";
import type { CheckTrigger } from "../../contracts/monitor-catalog.js";
import type { MetaSchema, MonitorResultRow } from "../schema.js";
import { deleteBatchBefore } from "./batches.js";
import { parametersFor, runStatement } from "./raw-sql.js";

/** One stored check result; `detail` holds the step results as JSON. */
export interface MonitorResultRecord {
  id: string;
  monitorId: string;
  startedAt: string;
  durationMs: number;
  passed: boolean;
  /** scheduled | manual | ping | missed */
  trigger: CheckTrigger;
  detail: unknown;
}

/** A result without its step details. */
export type MonitorResultSummary = Omit<MonitorResultRecord, "trigger" | "detail">;

/** Which results to list: a monitor's, optionally only passed or failed ones, within a window. */
export interface ResultFilter {
  monitorId: string;
  passed?: boolean | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const toRecord = (row: MonitorResultRow): MonitorResultRecord => ({
  id: row.id,
  monitorId: row.monitor_id,
  startedAt: row.started_at,
  durationMs: row.duration_ms,
  passed: row.passed === 1,
  trigger: row.trigger as MonitorResultRecord["trigger"],
  detail: JSON.parse(row.detail),
});

// Run by every check's record, in repositories made per transaction: the work is in functions
// made once, which the repository's methods call (docs/monitors.md, "Hot functions").
async function insertResult(db: Kysely<MetaSchema>, result: MonitorResultRecord): Promise<void> {
  const p = parametersFor(db);
  await runStatement(
    db,
    `INSERT INTO monitor_results
       (id, monitor_id, started_at, duration_ms, passed, trigger, detail)
     VALUES (${p(result.id)}, ${p(result.monitorId)}, ${p(result.startedAt)},
       ${p(result.durationMs)}, ${p(result.passed ? 1 : 0)}, ${p(result.trigger)},
       ${p(JSON.stringify(result.detail))})`,
    p,
  );
}

export function createMonitorResultRepository(db: Kysely<MetaSchema>) {
  const filtered = (filter: ResultFilter) => {
    let query = db.selectFrom("monitor_results").where("monitor_id", "=", filter.monitorId);
    if (filter.passed !== undefined) query = query.where("passed", "=", filter.passed ? 1 : 0);
    if (filter.from !== undefined) query = query.where("started_at", ">=", filter.from);
    if (filter.to !== undefined) query = query.where("started_at", "<", filter.to);
    return query;
  };
  return {
    /** Written on every check, as SQL text. */
    insert: (result: MonitorResultRecord): Promise<void> => insertResult(db, result),
    async findById(monitorId: string, id: string): Promise<MonitorResultRecord | undefined> {
      const row = await db
        .selectFrom("monitor_results")
        .selectAll()
        .where("monitor_id", "=", monitorId)
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /** The summary of each result of `ids` (the monitors' last results), without step details. */
    async summariesByIds(ids: readonly string[]): Promise<MonitorResultSummary[]> {
      const rows = [];
      // In slices, so a project with many monitors stays under the engines' parameter limits.
      for (let at = 0; at < ids.length; at += 500)
        rows.push(
          ...(await db
            .selectFrom("monitor_results")
            .select(["id", "monitor_id", "started_at", "duration_ms", "passed"])
            .where("id", "in", ids.slice(at, at + 500))
            .execute()),
        );
      return rows.map((row) => ({
        id: row.id,
        monitorId: row.monitor_id,
        startedAt: row.started_at,
        durationMs: row.duration_ms,
        passed: row.passed === 1,
      }));
    },
    /** A page of results, newest first. */
    async list(
      filter: ResultFilter,
      page: { limit: number; offset: number },
    ): Promise<MonitorResultRecord[]> {
      const rows = await filtered(filter)
        .selectAll()
        .orderBy("started_at", "desc")
        .orderBy("id", "desc")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toRecord);
    },
    async count(filter: ResultFilter): Promise<number> {
      const row = await filtered(filter)
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** Deletes up to `limit` results started before `cutoff`; returns how many went. */
    deleteOlderThan: (cutoff: string, limit: number) =>
      deleteBatchBefore(db, "monitor_results", "started_at", cutoff, limit),
  };
}
export type MonitorResultRepository = ReturnType<typeof createMonitorResultRepository>;
