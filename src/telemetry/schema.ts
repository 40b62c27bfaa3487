import { createViewSql, derivedSelect } from "./derived-view.js";
import {
  type QuerySettings,
  qualifiedName,
  quoteIdentifier,
  type TelemetryExecutor,
} from "./executor.js";
import { DERIVED_TABLES, INTERNAL_TABLES, OBSOLETE } from "./internal-tables.js";
import {
  applyRecountStatement,
  countsSecondSources,
  recountMark,
  recountTasksQuery,
  sessionRecountStatement,
  sessionsCountSecondSources,
  takeRecountStatement,
} from "./occurrence-recount.js";
import { clusterLayout } from "./schema-cluster.js";
import type { SchemaLayout, SchemaState } from "./schema-layout.js";
import { settingsLines, type TableDef, TELEMETRY_TABLES, ttlClause } from "./tables.js";

const ALL_TABLES: readonly TableDef[] = [
  ...TELEMETRY_TABLES,
  ...INTERNAL_TABLES,
  ...DERIVED_TABLES,
];

/**
 * How far back a derived table is filled when it is first created over existing data: traces in
 * flight at the upgrade get all their spans and errors copied; older ones are found by the
 * readers' fallback (a trace `trace_data` does not hold is looked up the old way).
 */
export const BACKFILL_DAYS = 1;

export interface SchemaOptions {
  retentionDays: number;
  /**
   * A ClickHouse cluster name: every table becomes a Replicated `<name>_local` table on each node
   * behind a Distributed `<name>` table, all created ON CLUSTER. Unset: plain MergeTree tables.
   */
  cluster?: string | undefined;
}

/** One DDL statement and the settings it runs with. */
export interface SchemaStatement {
  sql: string;
  settings?: QuerySettings;
}

/** The CREATE TABLE statement of one telemetry table. */
export function createTableSql(database: string, table: TableDef, retentionDays: number): string {
  const columns = table.columns.map((col) => `${quoteIdentifier(col.name)} ${col.type}`);
  return [
    `CREATE TABLE IF NOT EXISTS ${qualifiedName(database, table.name)} (`,
    [...columns, ...table.indexes].map((line) => `  ${line}`).join(",\n"),
    `) ENGINE = ${table.engine}`,
    `PARTITION BY ${table.partitionBy}`,
    `ORDER BY ${table.orderBy}`,
    `TTL ${ttlClause(table, retentionDays)}`,
    ...settingsLines(table),
  ].join("\n");
}

/** One server: each definition is one MergeTree table of its own name. */
const singleServerLayout: SchemaLayout = {
  createDatabase: (database) => `CREATE DATABASE IF NOT EXISTS ${quoteIdentifier(database)}`,
  createTables: (database, table, retentionDays) => [
    createTableSql(database, table, retentionDays),
  ],
  createView: (database, table, view) =>
    createViewSql(view, {
      view: qualifiedName(database, view.name),
      target: qualifiedName(database, table.name),
      source: qualifiedName(database, view.source),
    }),
  targets: (table) => [{ name: table.name, stores: true }],
  onCluster: "",
};

function layoutOf(options: SchemaOptions): SchemaLayout {
  return options.cluster === undefined ? singleServerLayout : clusterLayout(options.cluster);
}

/** Drops what OBSOLETE names: the views first, then each table's physical tables, in the reverse of their creation. */
function dropObsoleteStatements(database: string, layout: SchemaLayout): string[] {
  const drop = (kind: string, name: string) =>
    `DROP ${kind} IF EXISTS ${qualifiedName(database, name)}${layout.onCluster}`;
  return [
    ...OBSOLETE.views.map((name) => drop("VIEW", name)),
    ...OBSOLETE.tables.flatMap((name) =>
      layout
        .targets({ name })
        .reverse()
        .map((target) => drop("TABLE", target.name)),
    ),
  ];
}

/** The statements creating the database, every table and view when missing, in order. */
export function createSchemaStatements(database: string, options: SchemaOptions): string[] {
  const layout = layoutOf(options);
  return [
    layout.createDatabase(database),
    ...dropObsoleteStatements(database, layout),
    ...ALL_TABLES.flatMap((table) => layout.createTables(database, table, options.retentionDays)),
    ...DERIVED_TABLES.flatMap((table) =>
      table.views.map((view) => layout.createView(database, table, view)),
    ),
  ];
}

/**
 * What fills a derived table from a view that was missing (`existing`: the tables there were
 * before the schema was created) over data its source already held: the last BACKFILL_DAYS.
 * A table ingestion writes itself is filled by its `fills` when the table itself was missing.
 * Through the tables' own names, so on a cluster the rows go through the Distributed tables to
 * their shards. The view exists by then: a row inserted between its creation and this copy is
 * copied twice, and readers show a span id once. A view reading another derived table is not
 * copied for when that table is (their order in DERIVED_TABLES): that copy's rows reach it.
 */
export function backfillStatements(database: string, existing: ReadonlySet<string>): string[] {
  const filled = new Set<string>();
  return DERIVED_TABLES.flatMap((table) => {
    const fromViews = table.views.filter(
      (view) => !existing.has(view.name) && existing.has(view.source),
    );
    const fromFills = existing.has(table.name)
      ? []
      : (table.fills ?? []).filter((fill) => existing.has(fill.source));
    return [...fromViews, ...fromFills]
      .filter((view) => !filled.has(view.source))
      .map((view) => {
        filled.add(table.name);
        return (
          `INSERT INTO ${qualifiedName(database, table.name)} (${table.columns.map((c) => quoteIdentifier(c.name)).join(", ")})\n` +
          derivedSelect(
            view,
            qualifiedName(database, view.source),
            view.backfillSince ?? `timestamp >= now() - toIntervalDay(${BACKFILL_DAYS})`,
          )
        );
      });
  });
}

/**
 * The ALTERs that bring existing tables up to the definitions: columns, skip indexes and live
 * settings a newer release defines, and a changed retention. Nothing when the tables are current.
 */
export function migrationStatements(
  database: string,
  options: SchemaOptions,
  state: SchemaState,
): SchemaStatement[] {
  const layout = layoutOf(options);
  const indexed = new Set(state.indexes.map((i) => `${i.table}.${i.name}`));
  const present = new Set(state.columns.map((c) => `${c.table}.${c.name}`));
  const engines = new Map(state.tables.map((t) => [t.name, t.engine_full]));
  const statements: SchemaStatement[] = [];
  for (const table of ALL_TABLES) {
    for (const target of layout.targets(table)) {
      const alter = `ALTER TABLE ${qualifiedName(database, target.name)}${layout.onCluster}`;
      for (const column of table.columns.filter((c) => !present.has(`${target.name}.${c.name}`)))
        statements.push({
          sql: `${alter} ADD COLUMN IF NOT EXISTS ${quoteIdentifier(column.name)} ${column.type}`,
        });
      // A Distributed table holds no rows: no skip indexes, no TTL.
      if (!target.stores) continue;
      for (const index of table.indexes) {
        // "INDEX name expr TYPE …": older data dirs get the index for new parts; old parts merge into it.
        const definition = index.replace(/^INDEX /, "");
        if (indexed.has(`${target.name}.${definition.split(" ")[0]}`)) continue;
        statements.push({ sql: `${alter} ADD INDEX IF NOT EXISTS ${definition}` });
      }
      const engine = engines.get(target.name) ?? "";
      const missing = (table.liveSettings ?? "")
        .split(",")
        .map((setting) => setting.trim())
        .filter((setting) => setting && !engine.includes(setting));
      if (missing.length > 0)
        statements.push({ sql: `${alter} MODIFY SETTING ${missing.join(", ")}` });
      if (!engine.includes(`toIntervalDay(${options.retentionDays})`)) {
        // Old parts pick up the new TTL at their next merge instead of a full rewrite now.
        statements.push({
          sql: `${alter} MODIFY TTL ${ttlClause(table, options.retentionDays)}`,
          settings: { materialize_ttl_after_modify: 0 },
        });
      }
    }
  }
  return statements;
}

/** The columns, tables and skip indexes the database has now. */
async function readSchemaState(executor: TelemetryExecutor): Promise<SchemaState> {
  const db = executor.database;
  const [columns, tables, indexes] = await Promise.all([
    executor.query<{ table: string; name: string }>(
      "SELECT table, name FROM system.columns WHERE database = {db:String}",
      { params: { db } },
    ),
    executor.query<{ name: string; engine_full: string }>(
      "SELECT name, engine_full FROM system.tables WHERE database = {db:String}",
      { params: { db } },
    ),
    executor.query<{ table: string; name: string }>(
      "SELECT table, name FROM system.data_skipping_indices WHERE database = {db:String}",
      { params: { db } },
    ),
  ]);
  return { columns, tables, indexes };
}

/**
 * Creates the database and the tables (six for TQL, internal and derived ones) when missing, fills
 * a new derived table from recent data, adds columns and skip indexes a newer release defines, and
 * applies the configured retention. Safe to run at
 * every start; on a cluster every statement runs ON CLUSTER (see schema-cluster.ts).
 */
export async function ensureTelemetrySchema(
  executor: TelemetryExecutor,
  options: SchemaOptions,
): Promise<void> {
  const db = executor.database;
  const existing = await executor.query<{ name: string }>(
    "SELECT name FROM system.tables WHERE database = {db:String}",
    { params: { db } },
  );
  for (const sql of createSchemaStatements(db, options)) await executor.command(sql);
  for (const sql of backfillStatements(db, new Set(existing.map((t) => t.name))))
    await executor.command(sql);
  const state = await readSchemaState(executor);
  // The recounts owed by data an earlier release counted twice (docs/ingestion.md, "One
  // occurrence"), recorded before the columns that mark the new counting are added: a start
  // that dies after adding them, or a node that read the schema before another added them,
  // still finishes them, and none applies twice (occurrence-recount.ts).
  if (countsSecondSources(state)) await executor.command(takeRecountStatement(db));
  if (sessionsCountSecondSources(state))
    await executor.insert("occurrence_recounts", [recountMark("sessions")]);
  for (const statement of migrationStatements(db, options, state)) {
    await executor.command(
      statement.sql,
      statement.settings ? { settings: statement.settings } : undefined,
    );
  }
  const tasks = new Map(
    (await executor.query<{ task: string; at: string }>(recountTasksQuery(db))).map((r) => [
      r.task,
      BigInt(r.at),
    ]),
  );
  // Each recount runs while owed since it was last done, then is marked done, so later starts
  // skip it; both give the same result when run again (a start that dies before the mark).
  const owed = (task: "error_groups" | "sessions") =>
    (tasks.get(task) ?? -1n) > (tasks.get(`${task}_done`) ?? -1n);
  if (owed("error_groups")) {
    await executor.command(applyRecountStatement(db));
    await executor.insert("occurrence_recounts", [recountMark("error_groups_done")]);
  }
  if (owed("sessions")) {
    await executor.command(sessionRecountStatement(db));
    await executor.insert("occurrence_recounts", [recountMark("sessions_done")]);
  }
}
