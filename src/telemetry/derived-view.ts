import type { InternalTableName, TableDef, TelemetryTableName } from "./tables.js";

/**
 * A table the engine fills itself: each of its materialized views inserts `SELECT columns FROM
 * source …` of every block inserted into `source` (it reads only that block: a cost per insert).
 */
export interface DerivedTableDef extends TableDef {
  views: readonly DerivedView[];
  /**
   * For a table ingestion writes itself (no view): the selects that count, as ingestion does, the
   * rows its sources already hold when the table is created over them (schema.ts's backfill).
   */
  fills?: readonly DerivedView[];
}

/**
 * One materialized view: `SELECT columns FROM source [ARRAY JOIN arrayJoin] [WHERE where]
 * [GROUP BY groupBy]`.
 */
export interface DerivedView {
  name: string;
  /** A telemetry table, or another derived table (its view then fills this one from that one's inserts). */
  source: TelemetryTableName | InternalTableName;
  columns: string;
  /**
   * `<array expression> AS <name>`: one row per element of each source row (a span's
   * attributes), which `columns`, `where` and `groupBy` may name. Rows with an empty array go.
   */
  arrayJoin?: string;
  where?: string;
  groupBy?: string;
  /** What a backfill copies of `source` (schema.ts): its rows of the last BACKFILL_DAYS by default. */
  backfillSince?: string;
}

/** `SELECT … FROM source …` of one of a derived table's views, from the given table. */
export function derivedSelect(view: DerivedView, source: string, where?: string): string {
  const conditions = [view.where, where].filter((c): c is string => Boolean(c));
  return [
    `SELECT ${view.columns}`,
    `FROM ${source}`,
    ...(view.arrayJoin ? [`ARRAY JOIN ${view.arrayJoin}`] : []),
    ...(conditions.length > 0 ? [`WHERE ${conditions.join(" AND ")}`] : []),
    ...(view.groupBy ? [`GROUP BY ${view.groupBy}`] : []),
  ].join("\n");
}

/** `CREATE MATERIALIZED VIEW` of a derived table: `view` fills `target` from `source`'s inserts. */
export function createViewSql(
  view: DerivedView,
  names: { view: string; target: string; source: string; onCluster?: string },
): string {
  return [
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${names.view}${names.onCluster ?? ""} TO ${names.target} AS`,
    derivedSelect(view, names.source),
  ].join("\n");
}
