/** The TelemetryExecutor contract against chDB, the embedded engine. */
import { afterAll, beforeAll, describe } from "vitest";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { telemetryExecutorContract } from "./helpers/telemetry-executor-contract.js";
import { makeTempDir } from "./helpers/temp-dir.js";

describe("TelemetryExecutor contract on chDB", () => {
  const dir = makeTempDir("vigil-executor-chdb-");
  const open = () => createChdbExecutor({ path: dir.path, database: "contract", sessions: 4 });
  let executor: TelemetryExecutor;
  beforeAll(() => {
    executor = open();
  });
  afterAll(async () => {
    await executor?.close();
    dir.remove();
  });
  telemetryExecutorContract({ executor: () => executor, open });
});
