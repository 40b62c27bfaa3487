import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorGroupStore } from "../src/ingest/error-groups.js";
import type { ErrorOccurrence } from "../src/ingest/ingest-batch.js";
import { openMetaDatabase } from "../src/meta/database.js";
import { processLocalLock } from "../src/meta/key-lock.js";
import { createMetaStore, type MetaStore } from "../src/meta/meta-store.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { hexId } from "./helpers/otlp.js";
import {
  findPostgresBin,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "./helpers/postgres.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const binDir = findPostgresBin();

const occurrence = (projectId: string, timestampMs: number): ErrorOccurrence => ({
  projectId,
  fingerprint: "fp_shared",
  type: "TypeError",
  message: "x is undefined",
  stacktrace: "at handler (app.js:1:1)",
  culprit: "app.js in handler",
  timestampMs,
  service: "api",
  traceId: "",
  spanId: "",
  source: "backend",
  logId: "",
  severity: "high",
});

/**
 * Two ingesting nodes fold occurrences of the same error group into one telemetry store at the
 * same time. Each node's store serializes only its own changes; across nodes, the PostgreSQL
 * advisory lock per group keeps every count. Without it (each node on its own lock and cache),
 * the same interleaving loses counts, which shows the test can tell.
 */
describe.skipIf(!binDir)("error groups with several ingesting nodes", () => {
  const dir = makeTempDir();
  let postgres: ThrowawayPostgres;
  let meta: MetaStore;
  let executor: TelemetryExecutor;

  beforeAll(async () => {
    postgres = await startThrowawayPostgres(binDir ?? "");
    const database = openMetaDatabase({ url: postgres.url, dataDir: dir.path });
    meta = createMetaStore(database);
    await meta.migrate();
    executor = createChdbExecutor({ path: dir.path, database: "vigil", sessions: 4 });
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
  }, 60_000);
  afterAll(async () => {
    await executor?.close();
    await meta?.close();
    await postgres?.stop();
    dir.remove();
  });

  async function countAfterConcurrentNodes(projectId: string, shared: boolean): Promise<number> {
    // Unshared: each node trusts its own queue and cache, as one process alone may.
    const lock = shared ? meta.keyLock : processLocalLock;
    const nodes = [new ErrorGroupStore(executor, lock), new ErrorGroupStore(executor, lock)];
    const rounds = 15;
    const base = Date.now() - 60_000;
    await Promise.all(
      nodes.map(async (node, n) => {
        for (let i = 0; i < rounds; i++) {
          await node.record([
            occurrence(projectId, base + i * 10 + n),
            occurrence(projectId, base + i * 10 + n + 1),
          ]);
        }
      }),
    );
    const [row] = await executor.query<{ occurrence_count: string | number }>(
      "SELECT occurrence_count FROM vigil.error_groups FINAL WHERE project_id = {p:String} AND fingerprint = 'fp_shared'",
      { params: { p: projectId } },
    );
    return Number(row?.occurrence_count);
  }

  it("keeps every occurrence count under the shared lock", async () => {
    expect(meta.keyLock.shared).toBe(true);
    expect(await countAfterConcurrentNodes("prj_locked", true)).toBe(2 * 15 * 2);
  }, 60_000);

  it("counts a span's exception and its log once when two nodes record them at once", async () => {
    const nodes = [
      new ErrorGroupStore(executor, meta.keyLock),
      new ErrorGroupStore(executor, meta.keyLock),
    ];
    const base = Date.now() - 60_000;
    const inSpan = (n: number, logId: string): ErrorOccurrence => ({
      ...occurrence("prj_sources", base + n),
      traceId: hexId(n, 32),
      spanId: hexId(n, 16),
      logId,
    });
    // Ten failed spans, each exception event on one node and its log record on the other.
    await Promise.all(
      nodes.map(async (node, n) => {
        for (let i = 0; i < 10; i++) await node.record([inSpan(i + 1, n === 0 ? "" : `log_${i}`)]);
      }),
    );
    const [row] = await executor.query<{ occurrence_count: string | number }>(
      "SELECT occurrence_count FROM vigil.error_groups FINAL WHERE project_id = 'prj_sources' AND fingerprint = 'fp_shared'",
    );
    expect(Number(row?.occurrence_count)).toBe(10);
    const [rows] = await executor.query<{ n: string | number }>(
      "SELECT count() AS n FROM vigil.error_occurrences WHERE project_id = 'prj_sources'",
    );
    expect(Number(rows?.n)).toBe(20);
  }, 60_000);

  it("loses counts without it (the interleaving the lock prevents)", async () => {
    expect(await countAfterConcurrentNodes("prj_unlocked", false)).toBeLessThan(2 * 15 * 2);
  }, 60_000);
});
