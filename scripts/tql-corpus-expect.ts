/**
 * npx tsx scripts/tql-corpus-expect.ts — regenerates test/tql/corpus-expected.json.
 *
 * Loads the conformance dataset into a fresh chDB, runs every corpus entry's hand-written
 * reference SQL directly on the engine (no TQL involved), converts 64-bit integers by TQL's
 * JSON rule, and writes the results by entry id. Entries with an inline `expect` are checked
 * against their reference here, so a wrong hand computation or a wrong reference shows up
 * before the expected file is written. Review the diff of the JSON by eye before committing.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { ResultColumn } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { toJsonRows } from "../src/tql/result-json.js";
import { canonicalRows } from "../test/tql/compare.js";
import { CORPUS, type CorpusEntry } from "../test/tql/corpus.js";
import { loadTqlDataset } from "../test/tql/dataset.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUTPUT = join(root, "test/tql/corpus-expected.json");

export interface ExpectedResult {
  columns: ResultColumn[];
  rows: unknown[][];
}

function checkInline(entry: CorpusEntry, result: ExpectedResult): string[] {
  const problems: string[] = [];
  if (!entry.expect) return problems;
  const rows = entry.ordered ? result.rows : canonicalRows(result.rows);
  const expected = entry.ordered ? entry.expect.rows : canonicalRows(entry.expect.rows);
  if (!isDeepStrictEqual(rows, expected))
    problems.push(
      `rows ${JSON.stringify(result.rows)} ≠ inline ${JSON.stringify(entry.expect.rows)}`,
    );
  if (entry.expect.columns && !isDeepStrictEqual(result.columns, entry.expect.columns))
    problems.push(
      `columns ${JSON.stringify(result.columns)} ≠ inline ${JSON.stringify(entry.expect.columns)}`,
    );
  return problems;
}

async function main() {
  const ids = new Set<string>();
  for (const entry of CORPUS) {
    if (ids.has(entry.id)) throw new Error(`Duplicate corpus id ${entry.id}`);
    ids.add(entry.id);
  }
  const dir = mkdtempSync(join(tmpdir(), "vigil-tql-corpus-"));
  const executor = createChdbExecutor({ path: dir, database: "vigil" });
  const expected: Record<string, ExpectedResult> = {};
  const failures: string[] = [];
  try {
    await ensureTelemetrySchema(executor, { retentionDays: 3650 });
    await loadTqlDataset(executor);
    for (const entry of CORPUS) {
      try {
        const result = await executor.queryCompact(entry.reference, {
          settings: { output_format_json_quote_64bit_integers: 1 },
        });
        const converted = {
          columns: result.columns,
          rows: toJsonRows(result.columns, result.rows),
        };
        if (
          entry.check === "rowCount" &&
          (converted.rows.length !== 1 || converted.rows[0]?.length !== 1)
        )
          failures.push(`${entry.id}: a rowCount reference must return one value`);
        for (const problem of checkInline(entry, converted))
          failures.push(`${entry.id}: ${problem}`);
        expected[entry.id] = converted;
      } catch (error) {
        failures.push(`${entry.id}: reference failed: ${(error as Error).message.split("\n")[0]}`);
      }
    }
  } finally {
    await executor.close();
    rmSync(dir, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    console.error(failures.join("\n"));
    process.exitCode = 1;
    return;
  }
  writeFileSync(OUTPUT, `${JSON.stringify(expected)}\n`);
  // Biome owns the layout of committed JSON (`biome ci` checks it).
  execFileSync(join(root, "node_modules/.bin/biome"), ["format", "--write", OUTPUT], {
    stdio: "inherit",
  });
  const skipped = CORPUS.filter((entry) => entry.skip).length;
  console.log(
    `Wrote ${Object.keys(expected).length} expected results (${skipped} entries skipped by the test) to ${OUTPUT}`,
  );
}

await main();
