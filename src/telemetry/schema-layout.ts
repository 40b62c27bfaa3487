import type { DerivedTableDef, DerivedView } from "./derived-view.js";
import type { TableDef } from "./tables.js";

/** A physical table behind a table definition: one that stores rows, or a Distributed one. */
export interface TableTarget {
  name: string;
  /** True for the MergeTree table holding the rows (skip indexes, TTL); false for Distributed. */
  stores: boolean;
}

/** How the table definitions map onto one server or a cluster. */
export interface SchemaLayout {
  createDatabase(database: string): string;
  createTables(database: string, table: TableDef, retentionDays: number): string[];
  /** A materialized view filling a derived table from its source's inserts. */
  createView(database: string, table: DerivedTableDef, view: DerivedView): string;
  /** Where the table's columns live, rows-storing table first (ALTERs go in this order). */
  targets(table: { name: string }): TableTarget[];
  /** ` ON CLUSTER …` for every ALTER, or nothing. */
  onCluster: string;
}

/** What the server already has, read from its system tables. */
export interface SchemaState {
  columns: readonly { table: string; name: string }[];
  tables: readonly { name: string; engine_full: string }[];
  indexes: readonly { table: string; name: string }[];
}
