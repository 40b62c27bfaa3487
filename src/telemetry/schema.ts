import { quoteIdentifier, type TelemetryExecutor } from "./executor.js";
import { INTERNAL_TABLES, type TableDef, TELEMETRY_TABLES } from "./tables.js";

const ALL_TABLES = [...TELEMETRY_TABLES, ...INTERNAL_TABLES];

/** The CREATE TABLE statement of one telemetry table. */
export function createTableSql(database: string, table: TableDef, retentionDays: number): string {
  const columns = table.columns.map((col) => `${quoteIdentifier(col.name)} ${col.type}`);
  return [
    `CREATE TABLE IF NOT EXISTS ${quoteIdentifier(database)}.${quoteIdentifier(table.name)} (`,
    [...columns, ...table.indexes].map((line) => `  ${line}`).join(",\n"),
    `) ENGINE = ${table.engine}`,
    `PARTITION BY ${table.partitionBy}`,
    `ORDER BY ${table.orderBy}`,
    `TTL ${ttlClause(table, retentionDays)}`,
  ].join("\n");
}

function ttlClause(table: TableDef, retentionDays: number): string {
  return `${table.ttlExpression} + toIntervalDay(${retentionDays})`;
}

/**
 * Creates the database and the tables (six for TQL, internal ones) when missing, adds columns and
 * skip indexes a newer release defines,
 * and applies the configured retention. Safe to run at every start.
 */
export async function ensureTelemetrySchema(
  executor: TelemetryExecutor,
  options: { retentionDays: number },
): Promise<void> {
  const db = executor.database;
  await executor.command(`CREATE DATABASE IF NOT EXISTS ${quoteIdentifier(db)}`);
  for (const table of ALL_TABLES) {
    await executor.command(createTableSql(db, table, options.retentionDays));
  }
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
  const indexed = new Set(indexes.map((i) => `${i.table}.${i.name}`));
  const present = new Set(columns.map((c) => `${c.table}.${c.name}`));
  const engines = new Map(tables.map((t) => [t.name, t.engine_full]));
  for (const table of ALL_TABLES) {
    const target = `${quoteIdentifier(db)}.${quoteIdentifier(table.name)}`;
    for (const column of table.columns.filter((c) => !present.has(`${table.name}.${c.name}`))) {
      await executor.command(
        `ALTER TABLE ${target} ADD COLUMN IF NOT EXISTS ${quoteIdentifier(column.name)} ${column.type}`,
      );
    }
    for (const index of table.indexes) {
      // "INDEX name expr TYPE …": older data dirs get the index for new parts; old parts merge into it.
      const definition = index.replace(/^INDEX /, "");
      if (indexed.has(`${table.name}.${definition.split(" ")[0]}`)) continue;
      await executor.command(`ALTER TABLE ${target} ADD INDEX IF NOT EXISTS ${definition}`);
    }
    if (!engines.get(table.name)?.includes(`toIntervalDay(${options.retentionDays})`)) {
      // Old parts pick up the new TTL at their next merge instead of a full rewrite now.
      await executor.command(
        `ALTER TABLE ${target} MODIFY TTL ${ttlClause(table, options.retentionDays)}`,
        { settings: { materialize_ttl_after_modify: 0 } },
      );
    }
  }
}
