/**
 * The cluster DDL (src/telemetry/schema-cluster.ts) against ClickHouse's own parser and engine,
 * as far as chDB can take it: chDB has no Keeper and no distributed DDL queue, so ON CLUSTER and
 * Replicated engines cannot run here. What can run does: every statement parses (formatQuery);
 * the Distributed tables are created over local tables on a configured cluster, which checks
 * each sharding key against its columns; and the migration, fed the system tables of that
 * layout, restores a dropped column, index and retention on both tables.
 * The text itself is pinned by the golden files (src/telemetry/schema.test.ts).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Session } from "chdb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderSettings } from "../src/telemetry/executor.js";
import { DERIVED_TABLES, INTERNAL_TABLES } from "../src/telemetry/internal-tables.js";
import { createSchemaStatements, migrationStatements } from "../src/telemetry/schema.js";
import type { SchemaState } from "../src/telemetry/schema-layout.js";
import { TELEMETRY_TABLES } from "../src/telemetry/tables.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const CLUSTER = "vigil_cluster";
const OPTIONS = { retentionDays: 30, cluster: CLUSTER };
const ALL_TABLES = [...TELEMETRY_TABLES, ...INTERNAL_TABLES, ...DERIVED_TABLES];

const CONFIG = `<clickhouse>
  <remote_servers>
    <${CLUSTER}>
      <shard><internal_replication>true</internal_replication>
        <replica><host>localhost</host><port>9000</port></replica></shard>
    </${CLUSTER}>
  </remote_servers>
  <macros><shard>01</shard><replica>r1</replica></macros>
</clickhouse>
`;

/** What chDB can run of a cluster statement: no ON CLUSTER, the unreplicated engine. */
function runnable(sql: string): string {
  return sql
    .replace(` ON CLUSTER \`${CLUSTER}\``, "")
    .replace(/Replicated(\w*MergeTree)\('[^']*', '\{replica\}'(?:, )?/, "$1(")
    .replace(/MergeTree\(\)/, "MergeTree");
}

describe("cluster DDL in ClickHouse's parser and engine (chDB)", () => {
  const dir = makeTempDir("vigil-cluster-ddl-");
  let session: Session;
  const rows = async <T>(sql: string) =>
    (await session.queryAsync(sql, { format: "JSONEachRow" }))
      .text()
      .split("\n")
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as T);

  beforeAll(() => {
    const config = join(dir.path, "cluster.xml");
    writeFileSync(config, CONFIG);
    session = new Session(join(dir.path, "data"), { connectionArgs: [`--config-file=${config}`] });
  });
  afterAll(() => {
    session?.close();
    dir.remove();
  });

  it("parses every statement, ON CLUSTER and Replicated engines included", async () => {
    const state: SchemaState = { columns: [], tables: [], indexes: [] };
    const statements = [
      ...createSchemaStatements("vigil", OPTIONS),
      ...migrationStatements("vigil", OPTIONS, state).map((s) => s.sql),
    ];
    expect(statements.length).toBeGreaterThan(2 * ALL_TABLES.length);
    for (const sql of statements) {
      const [row] = await rows<{ f: string }>(
        `SELECT formatQuery('${sql.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}') AS f`,
      );
      expect(row?.f, sql).toContain("ON CLUSTER vigil_cluster");
    }
  });

  it("creates the Distributed tables over the local ones with valid sharding keys", async () => {
    for (const sql of createSchemaStatements("vigil", OPTIONS))
      await session.queryAsync(runnable(sql), { format: "TSV" });
    const tables = await rows<{ name: string; engine: string; engine_full: string }>(
      "SELECT name, engine, engine_full FROM system.tables WHERE database = 'vigil' ORDER BY name",
    );
    for (const table of ALL_TABLES) {
      const local = tables.find((t) => t.name === `${table.name}_local`);
      const distributed = tables.find((t) => t.name === table.name);
      expect(local?.engine).toMatch(/MergeTree$/);
      expect(local?.engine_full).toContain("toIntervalDay(30)");
      expect(distributed?.engine).toBe("Distributed");
      expect(distributed?.engine_full).toContain(`'${table.name}_local'`);
    }
  });

  it("migrates both tables of the layout from what the system tables say", async () => {
    for (const sql of [
      "ALTER TABLE vigil.traces DROP COLUMN scope_version",
      "ALTER TABLE vigil.traces_local DROP COLUMN scope_version",
      "ALTER TABLE vigil.traces_local DROP INDEX idx_session_id",
      "ALTER TABLE vigil.logs_local MODIFY TTL toDateTime(timestamp) + toIntervalDay(7)",
    ])
      await session.queryAsync(sql, { format: "TSV" });
    const readState = async (): Promise<SchemaState> => ({
      columns: await rows("SELECT table, name FROM system.columns WHERE database = 'vigil'"),
      tables: await rows("SELECT name, engine_full FROM system.tables WHERE database = 'vigil'"),
      indexes: await rows(
        "SELECT table, name FROM system.data_skipping_indices WHERE database = 'vigil'",
      ),
    });
    const statements = migrationStatements("vigil", OPTIONS, await readState());
    expect(statements).toHaveLength(4);
    for (const statement of statements)
      await session.queryAsync(`${runnable(statement.sql)}${renderSettings(statement.settings)}`, {
        format: "TSV",
      });
    expect(migrationStatements("vigil", OPTIONS, await readState())).toEqual([]);
  });
});
