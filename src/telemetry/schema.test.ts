/**
 * Golden tests of the telemetry DDL: the statements are compared with files under test/fixtures/.
 * After an intended change to the schema, regenerate them and review the diff:
 *
 *   VIGIL_UPDATE_GOLDEN=1 npx vitest run src/telemetry/schema.test.ts
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderSettings } from "./executor.js";
import { DERIVED_TABLES, INTERNAL_TABLES, OBSOLETE } from "./internal-tables.js";
import {
  backfillStatements,
  createSchemaStatements,
  migrationStatements,
  type SchemaStatement,
} from "./schema.js";
import { replicatedEngine } from "./schema-cluster.js";
import type { SchemaState } from "./schema-layout.js";
import { settingsLines, TELEMETRY_TABLES } from "./tables.js";

const ALL_TABLES = [...TELEMETRY_TABLES, ...INTERNAL_TABLES, ...DERIVED_TABLES];
const VIEWS = DERIVED_TABLES.flatMap((t) => t.views);
const DROPS = OBSOLETE.views.length + OBSOLETE.tables.length;
/** Safe to run again: creates only what is missing, drops only what is there. */
const CREATE_IF_MISSING = /^(CREATE (\w+ )+IF NOT EXISTS|DROP \w+ IF EXISTS) /;
const UPDATE = process.env.VIGIL_UPDATE_GOLDEN === "1";

function matchesGolden(name: string, text: string): void {
  const url = new URL(`../../test/fixtures/${name}`, import.meta.url);
  if (UPDATE) writeFileSync(url, text);
  expect(text, `${name} (VIGIL_UPDATE_GOLDEN=1 regenerates it)`).toBe(readFileSync(url, "utf8"));
}

/** Statements as the engine runs them, one per paragraph. */
const render = (statements: readonly (string | SchemaStatement)[]) =>
  `${statements
    .map((s) => (typeof s === "string" ? s : `${s.sql}${renderSettings(s.settings)}`))
    .map((sql) => `${sql};`)
    .join("\n\n")}\n`;

/**
 * Every table and column present under `names(table)`, except: traces lacks `scope_version`
 * and its `idx_session_id` index, logs still has a 7-day retention, and metrics lacks its live
 * settings.
 */
function stateMissingSome(names: (table: string) => { name: string; stores: boolean }[]) {
  const state: SchemaState = { columns: [], tables: [], indexes: [] };
  const columns: { table: string; name: string }[] = [];
  const tables: { name: string; engine_full: string }[] = [];
  const indexes: { table: string; name: string }[] = [];
  for (const table of ALL_TABLES) {
    for (const target of names(table.name)) {
      for (const column of table.columns)
        if (!(table.name === "traces" && column.name === "scope_version"))
          columns.push({ table: target.name, name: column.name });
      const days = table.name === "logs" ? 7 : 30;
      const settings = table.name === "metrics" ? "" : settingsLines(table).join("");
      tables.push({
        name: target.name,
        engine_full: target.stores
          ? `MergeTree TTL x + toIntervalDay(${days}) ${settings}`
          : "Distributed",
      });
      if (!target.stores) continue;
      for (const index of table.indexes) {
        const name = index.split(" ")[1] ?? "";
        if (!(table.name === "traces" && name === "idx_session_id"))
          indexes.push({ table: target.name, name });
      }
    }
  }
  return { ...state, columns, tables, indexes };
}

describe("telemetry DDL on one server", () => {
  it("stays byte for byte what existing data directories were created with", () => {
    matchesGolden(
      "telemetry-single-server-ddl.sql",
      render(createSchemaStatements("vigil", { retentionDays: 30 })),
    );
  });

  it("migrates a table missing a column, an index and the retention", () => {
    const state = stateMissingSome((name) => [{ name, stores: true }]);
    const statements = migrationStatements("vigil", { retentionDays: 30 }, state);
    matchesGolden("telemetry-single-server-migration.sql", render(statements));
  });

  it("has nothing to migrate on current tables", () => {
    const statements = createSchemaStatements("vigil", { retentionDays: 30 });
    expect(statements.length).toBe(1 + DROPS + ALL_TABLES.length + VIEWS.length);
    const state: SchemaState = {
      columns: ALL_TABLES.flatMap((t) => t.columns.map((c) => ({ table: t.name, name: c.name }))),
      tables: ALL_TABLES.map((t) => ({
        name: t.name,
        engine_full: `TTL x + toIntervalDay(30) ${settingsLines(t).join("")}`,
      })),
      indexes: ALL_TABLES.flatMap((t) =>
        t.indexes.map((i) => ({ table: t.name, name: i.split(" ")[1] ?? "" })),
      ),
    };
    expect(migrationStatements("vigil", { retentionDays: 30 }, state)).toEqual([]);
  });
});

describe("telemetry DDL on a cluster", () => {
  const options = { retentionDays: 30, cluster: "vigil_cluster" };

  it("creates Replicated local tables and Distributed tables of the same names, ON CLUSTER", () => {
    const statements = createSchemaStatements("vigil", options);
    matchesGolden("clickhouse-cluster-ddl.sql", render(statements));
    // Obsolete tables are dropped twice: the Distributed table and the local one.
    expect(statements.length).toBe(
      1 + DROPS + OBSOLETE.tables.length + 2 * ALL_TABLES.length + VIEWS.length,
    );
    for (const sql of statements) expect(sql).toContain(" ON CLUSTER `vigil_cluster`");
    for (const sql of statements) expect(sql).toMatch(CREATE_IF_MISSING);
  });

  it("adds a missing column to the local and the Distributed table, indexes, TTL and settings to the local one", () => {
    const state = stateMissingSome((name) => [
      { name: `${name}_local`, stores: true },
      { name, stores: false },
    ]);
    const statements = migrationStatements("vigil", options, state);
    matchesGolden("clickhouse-cluster-migration.sql", render(statements));
    expect(statements.map((s) => s.sql.split(" ADD ")[0]?.split(" MODIFY ")[0])).toEqual([
      "ALTER TABLE `vigil`.`traces_local` ON CLUSTER `vigil_cluster`",
      "ALTER TABLE `vigil`.`traces_local` ON CLUSTER `vigil_cluster`",
      "ALTER TABLE `vigil`.`traces` ON CLUSTER `vigil_cluster`",
      "ALTER TABLE `vigil`.`logs_local` ON CLUSTER `vigil_cluster`",
      "ALTER TABLE `vigil`.`metrics_local` ON CLUSTER `vigil_cluster`",
    ]);
  });

  it("names the Replicated engines with a Keeper path per shard, database and table", () => {
    expect(replicatedEngine("MergeTree", "traces_local")).toBe(
      "ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/traces_local', '{replica}')",
    );
    expect(replicatedEngine("ReplacingMergeTree(version)", "error_groups_local")).toBe(
      "ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/error_groups_local', '{replica}', version)",
    );
    expect(() => replicatedEngine("Log", "x")).toThrow(/No replicated form/);
  });
});

describe("backfill of derived tables created over existing data", () => {
  const targets = (existing: string[]) =>
    backfillStatements("vigil", new Set(existing)).map(
      (sql) =>
        `${/^INSERT INTO `vigil`\.`(\w+)`/.exec(sql)?.[1]} <- ${/FROM `vigil`\.`(\w+)`/.exec(sql)?.[1]}`,
    );
  const sources = ["traces", "logs", "metrics", "error_occurrences"];

  it("copies the last day of each new view's source, the catalog's keys through its values", () => {
    expect(targets(sources)).toEqual([
      "trace_data <- traces",
      "trace_data <- error_occurrences",
      "attribute_values <- traces",
      "attribute_values <- logs",
      "attribute_values <- metrics",
    ]);
  });

  it("counts the catalog from its sources only when its table is new: ingestion writes it", () => {
    const views = DERIVED_TABLES.flatMap((t) => t.views.map((v) => v.name));
    expect(targets([...sources, "attribute_values", "attribute_keys", ...views])).toEqual([]);
    expect(targets([...sources, "attribute_keys", ...views])).toEqual([
      "attribute_values <- traces",
      "attribute_values <- logs",
      "attribute_values <- metrics",
    ]);
  });

  it("copies the keys from the values when only the keys' view is new", () => {
    const views = DERIVED_TABLES.flatMap((t) => t.views.map((v) => v.name)).filter(
      (name) => name !== "attribute_keys_mv",
    );
    const sql = backfillStatements("vigil", new Set([...sources, "attribute_values", ...views]));
    expect(sql).toHaveLength(1);
    expect(sql[0]).toContain("FROM `vigil`.`attribute_values`\nWHERE day >= yesterday()");
  });
});
