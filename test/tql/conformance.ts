/**
 * The TQL conformance cases as a function of the TQL service under test: every corpus query must
 * give the same columns and rows as its reference SQL gave (test/tql/corpus-expected.json).
 * Registers one `it` per corpus entry; call it inside a describe whose beforeAll loaded
 * loadTqlDataset into the service's engine.
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { TQL_MAX_RESULT_ROWS } from "../../src/contracts/tql-dialect.js";
import type { ResultColumn } from "../../src/telemetry/executor.js";
import type { TqlService } from "../../src/tql/tql-service.js";
import { canonicalRows, markersIn } from "./compare.js";
import { CORPUS } from "./corpus.js";
import { MAIN_PROJECT, OTHER_PROJECT_MARKERS } from "./dataset.js";

interface ExpectedResult {
  columns: ResultColumn[];
  rows: unknown[][];
}

export const EXPECTED = JSON.parse(
  readFileSync(new URL("./corpus-expected.json", import.meta.url), "utf8"),
) as Record<string, ExpectedResult>;

export function tqlConformanceCases(getTql: () => TqlService): void {
  for (const entry of CORPUS) {
    it.skipIf(entry.skip !== undefined)(entry.id, async () => {
      const expected = EXPECTED[entry.id];
      if (!expected)
        throw new Error(`No expected result for ${entry.id}: run scripts/tql-corpus-expect.ts`);
      const result = await getTql().query(MAIN_PROJECT, entry.tql);

      expect(markersIn(result, OTHER_PROJECT_MARKERS), "proj_other data in the result").toEqual([]);
      expect(result.rowCount).toBe(result.rows.length);

      if (entry.check === "rowCount") {
        const total = Number(expected.rows[0]?.[0]);
        expect(result.rowCount).toBe(Math.min(total, TQL_MAX_RESULT_ROWS));
        expect(result.truncated).toBe(total > TQL_MAX_RESULT_ROWS);
        expect(entry.truncated ?? false).toBe(total > TQL_MAX_RESULT_ROWS);
        return;
      }

      expect(result.truncated).toBe(entry.truncated ?? false);
      expect(result.columns).toEqual(expected.columns);
      if (entry.ordered) expect(result.rows).toEqual(expected.rows);
      else expect(canonicalRows(result.rows)).toEqual(canonicalRows(expected.rows));
      if (entry.expect) {
        const inline = entry.ordered ? entry.expect.rows : canonicalRows(entry.expect.rows);
        expect(entry.ordered ? result.rows : canonicalRows(result.rows)).toEqual(inline);
        if (entry.expect.columns) expect(result.columns).toEqual(entry.expect.columns);
      }
    });
  }
}
