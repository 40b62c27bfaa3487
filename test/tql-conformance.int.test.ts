import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { createTqlService, type TqlService } from "../src/tql/tql-service.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { EXPECTED, tqlConformanceCases } from "./tql/conformance.js";
import { CORPUS } from "./tql/corpus.js";
import { loadTqlDataset } from "./tql/dataset.js";

describe("TQL conformance corpus", () => {
  const dir = makeTempDir("vigil-tql-conformance-");
  let executor: TelemetryExecutor;
  let tql: TqlService;

  beforeAll(async () => {
    executor = createChdbExecutor({ path: dir.path, database: "vigil" });
    await ensureTelemetrySchema(executor, { retentionDays: 3650 });
    await loadTqlDataset(executor);
    tql = createTqlService({
      executor,
      limits: {
        maxExecutionSeconds: 30,
        maxMemoryBytes: 2 * 1024 ** 3,
        maxRowsToRead: 2_000_000_000,
      },
    });
  });
  afterAll(async () => {
    await executor?.close();
    dir.remove();
  });

  it("has at least 150 runnable entries with unique ids and an expected result each", () => {
    const ids = CORPUS.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(CORPUS.filter((entry) => !entry.skip).length).toBeGreaterThanOrEqual(150);
    expect(ids.filter((id) => !EXPECTED[id])).toEqual([]);
  });

  tqlConformanceCases(() => tql);
});
