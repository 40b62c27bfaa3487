/**
 * TQL conformance through the ClickHouse HTTP adapter: the same corpus, dataset and expected
 * results as test/tql-conformance.int.test.ts (chDB in-process), with the telemetry engine
 * reached over HTTP through the chDB-backed ClickHouse shim. Then failing and limited queries run
 * on both adapters side by side (the shim and an in-process chDB executor share one data
 * directory, in two databases) and must fail the same way, with the same message.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import { createClickHouseExecutor } from "../src/telemetry/clickhouse/clickhouse-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { createTqlService, type TqlLimits, type TqlService } from "../src/tql/tql-service.js";
import { type ClickHouseShim, startClickHouseShim } from "./helpers/clickhouse-shim.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { tqlConformanceCases } from "./tql/conformance.js";
import { loadTqlDataset, MAIN_PROJECT } from "./tql/dataset.js";

const LIMITS: TqlLimits = {
  maxExecutionSeconds: 30,
  maxMemoryBytes: 2 * 1024 ** 3,
  maxRowsToRead: 2_000_000_000,
};

/** Queries at the edges (engine errors, limits), the limits they run with, and their outcome. */
const EDGES: { tql: string; limits?: Partial<TqlLimits>; code: string | undefined }[] = [
  { tql: "SELECT toUInt8('x') FROM traces", code: "invalid_input" },
  {
    tql: "SELECT toUInt8(service_name) FROM traces WHERE service_name = 'api-gateway'",
    code: "invalid_input",
  },
  { tql: "SELECT toDateTime('not a time') FROM logs", code: "invalid_input" },
  { tql: "SELECT nosuch FROM traces", code: "invalid_input" },
  { tql: "SELECT arrayElement([1, 2], 0) FROM traces", code: undefined },
  {
    tql: "SELECT count() FROM traces",
    limits: { maxRowsToRead: 10 },
    code: "query_limit_exceeded",
  },
  {
    tql: "SELECT count() FROM traces a CROSS JOIN traces b CROSS JOIN traces c CROSS JOIN traces d CROSS JOIN traces e WHERE cityHash64(a.span_id, b.span_id, c.span_id, d.span_id, e.span_id) % 1000 = 7",
    limits: { maxExecutionSeconds: 1 },
    code: "query_timeout",
  },
  { tql: "SELECT count() FROM traces WHERE attributes['http.method'] = 'GET'", code: undefined },
];

describe("TQL conformance corpus over the ClickHouse HTTP adapter", () => {
  const dir = makeTempDir("vigil-tql-conformance-http-");
  let shim: ClickHouseShim;
  let http: TelemetryExecutor;
  let chdb: TelemetryExecutor;
  let tql: TqlService;

  beforeAll(async () => {
    shim = await startClickHouseShim({ dataDir: dir.path });
    http = createClickHouseExecutor({ url: shim.url, database: "vigil" });
    chdb = createChdbExecutor({ path: dir.path, database: "vigil_chdb" });
    for (const executor of [http, chdb]) {
      await ensureTelemetrySchema(executor, { retentionDays: 3650 });
      await loadTqlDataset(executor);
    }
    tql = createTqlService({ executor: http, limits: LIMITS });
  });
  afterAll(async () => {
    await Promise.all([http?.close(), chdb?.close()]);
    await shim?.close();
    dir.remove();
  });

  it("sends each TQL query over HTTP, with the TQL settings as URL parameters", async () => {
    const before = shim.requests.length;
    await tql.query(MAIN_PROJECT, "SELECT count() FROM traces");
    const [sent] = shim.requests.slice(before);
    expect(sent?.settings).toMatchObject({
      readonly: "1",
      priority: "10",
      max_execution_time: "30",
      output_format_json_quote_64bit_integers: "1",
    });
  });

  for (const { tql: text, limits, code } of EDGES) {
    it(`fails or answers as chDB does: ${text.slice(0, 70)}`, async () => {
      const outcome = async (executor: TelemetryExecutor) => {
        const service = createTqlService({ executor, limits: { ...LIMITS, ...limits } });
        try {
          const { columns, rows } = await service.query(MAIN_PROJECT, text);
          return { columns, rows };
        } catch (error) {
          const { code, message } = error as { code?: string; message: string };
          return { code, message };
        }
      };
      const [overHttp, embedded] = await Promise.all([outcome(http), outcome(chdb)]);
      expect(overHttp).toEqual(embedded);
      expect((overHttp as { code?: string }).code).toBe(code);
    });
  }

  tqlConformanceCases(() => tql);
});
