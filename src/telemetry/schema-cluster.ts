import { createViewSql, type DerivedTableDef, type DerivedView } from "./derived-view.js";
import { qualifiedName, quoteIdentifier } from "./executor.js";
import type { SchemaLayout } from "./schema-layout.js";
import { settingsLines, type TableDef, ttlClause } from "./tables.js";

/** The suffix of the table on each node that holds the rows. */
export const LOCAL_SUFFIX = "_local";

/** A single-quoted ClickHouse string literal. */
const literal = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/**
 * `MergeTree` → `ReplicatedMergeTree(path, replica)`, `ReplacingMergeTree(version)` →
 * `ReplicatedReplacingMergeTree(path, replica, version)`. The Keeper path is per shard, database
 * and table; `{shard}`, `{replica}` come from each node's macros, `{database}` from the server.
 */
export function replicatedEngine(engine: string, localTable: string): string {
  const match = /^(\w*)MergeTree(?:\((.*)\))?$/.exec(engine);
  if (!match) throw new Error(`No replicated form for the engine ${engine}`);
  const [, family = "", args] = match;
  const path = literal(`/clickhouse/tables/{shard}/{database}/${localTable}`);
  const params = [path, literal("{replica}"), ...(args ? [args] : [])];
  return `Replicated${family}MergeTree(${params.join(", ")})`;
}

/**
 * A cluster (the server's `remote_servers`): each definition becomes `<name>_local`, a Replicated
 * MergeTree table on every node holding that node's shard, and `<name>`, a Distributed table over
 * them, so every reader and TQL query keeps its table names. Each statement runs ON CLUSTER, so
 * one start of Vigil creates or migrates the tables on every node; all are IF NOT EXISTS, so a
 * node that already has them is left alone.
 */
export function clusterLayout(cluster: string): SchemaLayout {
  const onCluster = ` ON CLUSTER ${quoteIdentifier(cluster)}`;

  function localTableSql(database: string, table: TableDef, retentionDays: number): string {
    const local = `${table.name}${LOCAL_SUFFIX}`;
    const columns = table.columns.map((col) => `${quoteIdentifier(col.name)} ${col.type}`);
    return [
      `CREATE TABLE IF NOT EXISTS ${qualifiedName(database, local)}${onCluster} (`,
      [...columns, ...table.indexes].map((line) => `  ${line}`).join(",\n"),
      `) ENGINE = ${replicatedEngine(table.engine, local)}`,
      `PARTITION BY ${table.partitionBy}`,
      `ORDER BY ${table.orderBy}`,
      `TTL ${ttlClause(table, retentionDays)}`,
      ...settingsLines(table),
    ].join("\n");
  }

  // On each node, over its shard: the view reads the local inserts and writes the local table.
  const viewSql = (database: string, table: DerivedTableDef, view: DerivedView) =>
    createViewSql(view, {
      view: qualifiedName(database, view.name),
      target: qualifiedName(database, `${table.name}${LOCAL_SUFFIX}`),
      source: qualifiedName(database, `${view.source}${LOCAL_SUFFIX}`),
      onCluster,
    });

  // Columns listed, not `AS <local>`: the statement stands alone and reads as the table it makes.
  function distributedTableSql(database: string, table: TableDef): string {
    const columns = table.columns.map((col) => `  ${quoteIdentifier(col.name)} ${col.type}`);
    const engineArgs = [
      literal(cluster),
      literal(database),
      literal(`${table.name}${LOCAL_SUFFIX}`),
      table.shardingKey,
    ];
    return [
      `CREATE TABLE IF NOT EXISTS ${qualifiedName(database, table.name)}${onCluster} (`,
      columns.join(",\n"),
      `) ENGINE = Distributed(${engineArgs.join(", ")})`,
    ].join("\n");
  }

  return {
    createDatabase: (database) =>
      `CREATE DATABASE IF NOT EXISTS ${quoteIdentifier(database)}${onCluster}`,
    createTables: (database, table, retentionDays) => [
      localTableSql(database, table, retentionDays),
      distributedTableSql(database, table),
    ],
    createView: viewSql,
    targets: (table) => [
      { name: `${table.name}${LOCAL_SUFFIX}`, stores: true },
      { name: table.name, stores: false },
    ],
    onCluster,
  };
}
