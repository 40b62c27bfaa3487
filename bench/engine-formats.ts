/**
 * npm run bench:engine-formats — what each insert format costs the embedded engine (chDB) and
 * Vigil's event loop, for the rows ingestion writes (ADR 0015).
 *
 * The rows: realistic trace spans (the demo generator's, mapped by the OTLP mapper), in batches
 * of BENCH_BATCH (5,000, about what the batch writer coalesces under load). For each format:
 * - encode: JavaScript time per row to build the batch's bytes (the event loop's share);
 * - engine: process CPU per row (every thread: parsing, sorting, compressing, writing the part)
 *   of inserting the same batch BENCH_INSERTS (20) times with background merges stopped, so only
 *   the insert is measured (merges cost the same whatever the format).
 * Text formats go through chDB's insert API (what JSONCompactEachRow used before); binary ones,
 * which that API does not take, through a spooled file and `INSERT … SELECT FROM file()` (what the
 * product does for Native). RowBinary is produced by the engine itself from the stored rows, so
 * its encode time is not measured (Vigil has no RowBinary encoder). Baseline: JSONCompactEachRow,
 * the earlier path. Every variant stores the same rows (a checksum over every column).
 * The last line is one JSON object.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Session } from "chdb";
import { demoRequests } from "../src/demo/generator.js";
import { PriceTable } from "../src/ingest/derive/ai-prices.js";
import type { Row } from "../src/ingest/ingest-batch.js";
import { mapTraces } from "../src/ingest/map-traces.js";
import type { TracesRequest } from "../src/ingest/otlp/otlp-messages.js";
import { stringLiteral } from "../src/telemetry/chdb/session-params.js";
import { encodeRows } from "../src/telemetry/clickhouse/insert-formats.js";
import { encodeNativeBlock, nativePlan } from "../src/telemetry/native/block.js";
import { createTableSql } from "../src/telemetry/schema.js";
import { type TableDef, TELEMETRY_TABLES } from "../src/telemetry/tables.js";
import { UnixTime } from "../src/telemetry/unix-time.js";
import { printTable } from "./harness/table.js";

const BATCH = Number(process.env.BENCH_BATCH ?? 5000);
const INSERTS = Number(process.env.BENCH_INSERTS ?? 20);

const traces = ((table) => {
  if (!table) throw new Error("no traces table");
  return table;
})(TELEMETRY_TABLES.find((t) => t.name === "traces"));
const rows: Row[] = [];
const options = {
  projectId: "bench",
  limits: { maxValueLength: 8192, maxAttributes: 128 },
  received: UnixTime.fromMillis(Date.now()),
};
for (const request of demoRequests({
  spans: BATCH,
  batchSpans: 1000,
  windowMs: 3600_000,
  nowMs: Date.now(),
})) {
  if (request.signal === "traces")
    rows.push(
      ...mapTraces(request.body as unknown as TracesRequest, options, new PriceTable()).batch
        .traces,
    );
}
const columns = Object.keys(rows[0] ?? {});
const plan = nativePlan(columns, new Map(traces.columns.map((c) => [c.name, c.type])));
if (!plan) throw new Error("the traces table has a type the Native encoder does not write");

const dir = mkdtempSync(join(tmpdir(), "vigil-engine-formats-"));
const session = new Session(join(dir, "engine"));
const cpuMicros = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

/** JavaScript µs per row to encode the batch (median of 7 after a warm-up). */
function encodeCost(encode: () => unknown): number {
  for (let i = 0; i < 3; i++) encode();
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const started = performance.now();
    encode();
    times.push(((performance.now() - started) * 1000) / rows.length);
  }
  return times.sort((a, b) => a - b)[3] as number;
}

interface Variant {
  name: string;
  encodeMicrosPerRow: number | undefined;
  insert: (table: string) => Promise<unknown>;
}

const json = encodeRows("JSONCompactEachRow", rows);
const tsv = encodeRows("TabSeparated", rows);
const viaApi = (format: "JSONCompactEachRow" | "TabSeparated", body: Buffer) => (table: string) =>
  session.insert({ table: `bench.${table}`, values: body, format, columns });
const viaFile = (file: string, format: string) => (table: string) =>
  session.queryAsync(
    `INSERT INTO bench.${table} (${columns.join(", ")}) SELECT * FROM file(${stringLiteral(file)}, '${format}')`,
    { format: "CSV" },
  );

async function main() {
  session.query("CREATE DATABASE bench");
  const create = (name: string) => {
    session.query(createTableSql("bench", { ...traces, name } as TableDef, 30));
    session.query(`SYSTEM STOP MERGES bench.${name}`);
  };
  create("traces");
  // RowBinary and Native files of the same rows, written by the engine from a stored copy.
  await viaApi("JSONCompactEachRow", json.body)("traces");
  const nativeFile = join(dir, "rows.native");
  writeFileSync(nativeFile, encodeNativeBlock(plan as NonNullable<typeof plan>, rows));
  const structure = traces.columns.map((c) => `${c.name} ${c.type}`).join(", ");
  const rowBinaryFile = join(dir, "rows.rowbinary");
  session.query(
    `INSERT INTO FUNCTION file(${stringLiteral(rowBinaryFile)}, 'RowBinary', ${stringLiteral(structure)}) SELECT ${columns.join(", ")} FROM bench.traces`,
  );

  const variants: Variant[] = [
    {
      name: "JSONCompactEachRow, insert API (before)",
      encodeMicrosPerRow: encodeCost(() => encodeRows("JSONCompactEachRow", rows)),
      insert: viaApi("JSONCompactEachRow", json.body),
    },
    {
      name: "TabSeparated, insert API",
      encodeMicrosPerRow: encodeCost(() => encodeRows("TabSeparated", rows)),
      insert: viaApi("TabSeparated", tsv.body),
    },
    {
      name: "RowBinary, spooled file",
      encodeMicrosPerRow: undefined,
      insert: viaFile(rowBinaryFile, "RowBinary"),
    },
    {
      name: "Native, spooled file (product)",
      encodeMicrosPerRow: encodeCost(() =>
        encodeNativeBlock(plan as NonNullable<typeof plan>, rows),
      ),
      insert: viaFile(nativeFile, "Native"),
    },
  ];

  const results = [];
  for (const [i, variant] of variants.entries()) {
    const table = `t${i}`;
    create(table);
    await variant.insert(table); // warm-up
    const before = cpuMicros();
    for (let n = 0; n < INSERTS; n++) await variant.insert(table);
    const engineMicrosPerRow = (cpuMicros() - before) / (INSERTS * rows.length);
    const checksum = session
      .query(`SELECT count(), sum(cityHash64(*)) FROM bench.${table}`, "CSV")
      .trim();
    results.push({ ...variant, engineMicrosPerRow, checksum });
  }
  const expected = session
    .query(
      `SELECT count() * ${INSERTS + 1}, sum(cityHash64(*)) * ${INSERTS + 1} FROM bench.traces`,
      "CSV",
    )
    .trim();
  const baseline = results[0]?.engineMicrosPerRow ?? 1;

  console.log(
    `Insert formats, ${rows.length} trace rows per insert, ${INSERTS} inserts each, merges stopped`,
  );
  printTable(
    ["format", "encode µs/row (JS)", "engine CPU µs/row", "x baseline", "same rows"],
    results.map((r) => [
      r.name,
      r.encodeMicrosPerRow === undefined ? "-" : r.encodeMicrosPerRow.toFixed(2),
      r.engineMicrosPerRow.toFixed(2),
      (r.engineMicrosPerRow / baseline).toFixed(2),
      r.checksum === expected ? "yes" : `NO (${r.checksum} vs ${expected})`,
    ]),
  );
  console.log(
    JSON.stringify({
      bench: "engine-formats",
      rowsPerInsert: rows.length,
      inserts: INSERTS,
      formats: results.map((r) => ({
        format: r.name,
        encodeMicrosPerRow: r.encodeMicrosPerRow && Math.round(r.encodeMicrosPerRow * 100) / 100,
        engineMicrosPerRow: Math.round(r.engineMicrosPerRow * 100) / 100,
        sameRows: r.checksum === expected,
      })),
    }),
  );
}

try {
  await main();
} finally {
  session.close();
  rmSync(dir, { recursive: true, force: true });
}
