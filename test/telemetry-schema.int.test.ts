import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { PROJECT_COLUMN, TELEMETRY_TABLES } from "../src/telemetry/tables.js";
import { renderTqlTablesDoc } from "../src/telemetry/tables-doc.js";
import { makeTempDir } from "./helpers/temp-dir.js";

describe("telemetry schema on chDB", () => {
  const dir = makeTempDir();
  let executor: TelemetryExecutor;

  beforeAll(async () => {
    executor = createChdbExecutor({ path: dir.path, database: "schema_test" });
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
  });
  afterAll(async () => {
    await executor?.close();
    dir.remove();
  });

  const tableInfo = async (name: string) => {
    const [row] = await executor.query<{
      engine_full: string;
      sorting_key: string;
      partition_key: string;
    }>(
      "SELECT engine_full, sorting_key, partition_key FROM system.tables WHERE database = 'schema_test' AND name = {name:String}",
      { params: { name } },
    );
    return row;
  };

  it.each(TELEMETRY_TABLES.map((t) => [t.name, t] as const))(
    "%s: MergeTree keyed by project, daily partitions, TTL",
    async (name, table) => {
      const info = await tableInfo(name);
      expect(info?.engine_full).toMatch(/MergeTree/);
      expect(info?.sorting_key.startsWith(PROJECT_COLUMN)).toBe(true);
      expect(info?.partition_key).toMatch(/^toDate\(/);
      expect(info?.engine_full).toContain("toIntervalDay(30)");
      const columns = await executor.query<{ name: string; type: string }>(
        "SELECT name, type FROM system.columns WHERE database = 'schema_test' AND table = {name:String} ORDER BY position",
        { params: { name } },
      );
      expect(columns).toEqual(table.columns.map((c) => ({ name: c.name, type: c.type })));
    },
  );

  it("applies a changed retention to existing tables at the next start", async () => {
    await ensureTelemetrySchema(executor, { retentionDays: 7 });
    for (const table of TELEMETRY_TABLES)
      expect((await tableInfo(table.name))?.engine_full).toContain("toIntervalDay(7)");
  });

  it("adds a column a newer release defines to an existing table", async () => {
    await executor.command("ALTER TABLE schema_test.logs DROP COLUMN scope_version");
    await ensureTelemetrySchema(executor, { retentionDays: 7 });
    const [row] = await executor.query<{ n: string }>(
      "SELECT count() AS n FROM system.columns WHERE database = 'schema_test' AND table = 'logs' AND name = 'scope_version'",
    );
    expect(Number(row?.n)).toBe(1);
  });

  it("round-trips rows with maps, arrays and nanosecond timestamps", async () => {
    // Today's date: the tables keep 7 days by now, and an older row would be dropped by the TTL.
    const timestamp = `${new Date().toISOString().slice(0, 10)} 00:00:00.123456789`;
    await executor.insert("traces", [
      {
        project_id: "prj_a",
        timestamp,
        trace_id: "0af7651916cd43dd8448eb211c80319c",
        span_id: "b7ad6b7169203331",
        operation_name: "GET /checkout",
        service_name: "shop",
        duration_ms: 12.5,
        status: "error",
        attributes: { "http.method": "GET" },
        events_name: ["exception"],
        events_attributes: [{ "exception.type": "TypeError" }],
      },
    ]);
    const result = await executor.queryCompact(
      "SELECT timestamp, attributes['http.method'] AS method, events_attributes[1]['exception.type'] AS type FROM schema_test.traces WHERE project_id = {p:String}",
      { params: { p: "prj_a" } },
    );
    expect(result.columns).toEqual([
      { name: "timestamp", type: "DateTime64(9, 'UTC')" },
      { name: "method", type: "String" },
      { name: "type", type: "String" },
    ]);
    expect(result.rows).toEqual([[timestamp, "GET", "TypeError"]]);
  });

  it("applies query settings such as readonly", async () => {
    await expect(
      executor.command("CREATE TABLE schema_test.forbidden (x UInt8) ENGINE = Memory", {
        settings: { readonly: 1 },
      }),
    ).rejects.toThrow(/readonly/i);
  });

  it("keeps docs/tql-tables.md in step with the schema", () => {
    const doc = readFileSync(new URL("../docs/tql-tables.md", import.meta.url), "utf8");
    expect(doc).toBe(renderTqlTablesDoc());
  });
});
