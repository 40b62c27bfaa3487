import { afterAll, describe, expect, it } from "vitest";
import { UnavailableError } from "../src/lib/errors.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import { makeTempDir } from "./helpers/temp-dir.js";

describe("chDB executor shutdown", () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it("lets in-flight queries finish before closing, and refuses new work once closing", async () => {
    const executor = createChdbExecutor({ path: dir.path, database: "drain_test" });
    const slow = executor.query<{ done: number }>("SELECT sleep(0.5), 1 AS done");
    const started = performance.now();
    const closed = executor.close();
    await expect(executor.query("SELECT 1")).rejects.toBeInstanceOf(UnavailableError);
    await closed;
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    expect((await slow)[0]?.done).toBe(1);
  });
});
