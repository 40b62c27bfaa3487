import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExploreSource } from "../src/contracts/explore-filters.js";
import { demoRequests } from "../src/demo/generator.js";
import { PriceTable } from "../src/ingest/derive/ai-prices.js";
import { catalogRows, isNumericText } from "../src/ingest/derive/attribute-catalog.js";
import type { Row } from "../src/ingest/ingest-batch.js";
import { mapLogs } from "../src/ingest/map-logs.js";
import { mapMetrics } from "../src/ingest/map-metrics.js";
import { mapTraces } from "../src/ingest/map-traces.js";
import { decodeRequest, encodeRequest } from "../src/ingest/otlp/codec.js";
import type {
  LogsRequest,
  MetricsRequest,
  TracesRequest,
} from "../src/ingest/otlp/otlp-messages.js";
import { ATTRIBUTE_VALUES } from "../src/telemetry/attribute-catalog-tables.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import { derivedSelect } from "../src/telemetry/derived-view.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { UnixTime } from "../src/telemetry/unix-time.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/**
 * Ingestion counts the attribute catalog in JavaScript (src/ingest/derive/attribute-catalog.ts);
 * the engine counts the rows already stored when the catalog is created over them, with the SQL
 * the materialized views ran before (ATTRIBUTE_VALUES.fills). Both must count the same rows alike.
 */
describe("the attribute catalog's counts: ingestion's against the engine's SQL", () => {
  const dir = makeTempDir();
  let executor: TelemetryExecutor;
  beforeAll(async () => {
    executor = createChdbExecutor({ path: dir.path, database: "vigil" });
    await ensureTelemetrySchema(executor, { retentionDays: 3650 });
  });
  afterAll(async () => {
    await executor.close();
    dir.remove();
  });

  type Count = {
    signal: string;
    field: string;
    value: string;
    day: string;
    rows: number;
    numeric: number;
  };
  const sorted = (counts: Count[]) =>
    [...counts].sort((a, b) =>
      `${a.signal} ${a.field} ${a.value} ${a.day}`.localeCompare(
        `${b.signal} ${b.field} ${b.value} ${b.day}`,
      ),
    );

  /** The engine's counts of the project's rows of `source`: the backfill's SQL over them. */
  async function engineCounts(source: ExploreSource, projectId: string): Promise<Count[]> {
    const fill = ATTRIBUTE_VALUES.fills?.find((f) => f.source === source);
    if (!fill) throw new Error(`no fill for ${source}`);
    const select = derivedSelect(fill, `vigil.${source}`, `project_id = '${projectId}'`);
    const rows = await executor.query<Count>(
      `SELECT signal, field, value, toString(day) AS day, toUInt64(sum(row_count)) AS rows,
         toUInt64(sum(numeric_count)) AS numeric
       FROM (${select}) GROUP BY signal, field, value, day`,
    );
    return sorted(rows.map((r) => ({ ...r, rows: Number(r.rows), numeric: Number(r.numeric) })));
  }

  /** Ingestion's counts of the same rows, written to attribute_values and read back summed. */
  async function ingestionCounts(source: ExploreSource, projectId: string, rows: Row[]) {
    await executor.insert("attribute_values", catalogRows(source, rows));
    const counts = await executor.query<Count>(
      `SELECT signal, field, value, toString(day) AS day, sum(row_count) AS rows,
         sum(numeric_count) AS numeric
       FROM vigil.attribute_values WHERE project_id = {p:String} AND signal = {s:String}
       GROUP BY signal, field, value, day`,
      { params: { p: projectId, s: source } },
    );
    return sorted(counts.map((r) => ({ ...r, rows: Number(r.rows), numeric: Number(r.numeric) })));
  }

  async function same(source: ExploreSource, projectId: string, rows: Row[]) {
    await executor.insert(source, rows);
    const ours = await ingestionCounts(source, projectId, rows);
    expect(ours.length).toBeGreaterThan(0);
    expect(ours).toEqual(await engineCounts(source, projectId));
  }

  it("counts the demo's spans, logs and metric points as the engine does", async () => {
    const options = {
      projectId: "prj_demo",
      limits: { maxValueLength: 8192, maxAttributes: 128 },
      received: UnixTime.fromMillis(Date.now()),
    };
    const rows: Record<ExploreSource, Row[]> = { traces: [], logs: [], metrics: [] };
    const prices = new PriceTable();
    for (const request of demoRequests({
      spans: 3000,
      batchSpans: 1000,
      windowMs: 3 * 86_400_000,
      nowMs: Date.now(),
    })) {
      const body = Buffer.from(encodeRequest(request.signal, request.body));
      const decoded = decodeRequest(request.signal, "protobuf", body);
      const mapped =
        request.signal === "traces"
          ? mapTraces(decoded as TracesRequest, options, prices)
          : request.signal === "logs"
            ? mapLogs(decoded as LogsRequest, options)
            : mapMetrics(decoded as MetricsRequest, options);
      rows[request.signal].push(...mapped.batch[request.signal]);
    }
    for (const source of ["traces", "logs", "metrics"] as const)
      await same(source, "prj_demo", rows[source]);
  });

  it("keeps, drops and marks values at the edges of the rules alike", async () => {
    const day = 86_400;
    const midnight = Math.floor(Date.now() / 1000 / day) * day;
    const shared = { "host.name": "web-1", "service.name": "edge" };
    const x = (n: number) => "x".repeat(n);
    const tricky = [
      x(256),
      x(257),
      "😀".repeat(256),
      "😀".repeat(257),
      "é".repeat(257),
      `\ud800${x(255)}`,
      "",
      " 1",
      "1e5",
      "nan(1)",
      "-.5",
      "inf",
      "0x10",
      "200",
    ];
    const edgeFields = (k: number): Record<string, string> => ({
      ...(k < 240 ? { many: `v${k % 101}` } : {}),
      ...(k < 202 ? { most: `v${k % 101}` } : {}),
      ...(k < 201 ? { mostly: `v${k % 101}` } : {}),
      ...(k < 200 ? { hundred: `v${k % 100}` } : {}),
      ...(k < 150 ? { fewer: `v${k % 100}` } : {}),
    });
    const rows: Row[] = Array.from({ length: 600 }, (_, i) => ({
      project_id: i < 500 ? "prj_edge" : "prj_other_edge",
      // Both sides of a UTC midnight.
      timestamp: new UnixTime(midnight + (i % 2 ? -1 : 1) * (i + 1), 0),
      trace_id: "0af7651916cd43dd8448eb211c80319c",
      span_id: (i + 1).toString(16).padStart(16, "0"),
      service_name: "edge",
      operation_name: i % 3 ? "GET /a" : "",
      span_kind: "server",
      status: "unset",
      http_method: i % 4 ? "GET" : "",
      http_route: "/a",
      http_status_code: i % 7 === 0 ? 0 : 200 + (i % 3),
      resource_attributes: i % 2 ? shared : { "host.name": `web-${i % 4}` },
      attributes: {
        "request.id": `req-${i}`,
        tricky: tricky[i % tricky.length] as string,
        // At the "too varied" rule's edges (over 100 values, over half the rows), on one day,
        // k counting its rows: 101 values in 240 rows and in 202 (kept), in 201 (not); 100 in
        // 200 and in 150 (kept).
        ...(i % 2 === 0 ? edgeFields(i / 2) : {}),
        size: String(1000 + (i % 50)),
      },
    }));
    await same(
      "traces",
      "prj_edge",
      rows.filter((r) => r.project_id === "prj_edge"),
    );
    await same(
      "traces",
      "prj_other_edge",
      rows.filter((r) => r.project_id === "prj_other_edge"),
    );
  });

  it("reads as a number exactly the text the engine's toFloat64OrNull reads", async () => {
    const corpus = [
      ...["1", "-1", "+1", "1.5", ".5", "5.", "1e5", "1E5", "1e+5", "1e-5", "1e", "e5", "1.2.3"],
      ...[" 1", "1 ", "\t1", "1\n", "inf", "-inf", "+inf", "INF", "infinity", "-Infinity"],
      ...["nan", "NaN", "-nan", "nan(123)", "nan()", "nan(abc_1)", "nan(-)", "inf(1)", "nan(a b)"],
      ...["0x10", "0X1A", "0b101", "1_000", "1,5", "", "-", "+", ".", "-.5", "+.5", "00012"],
      ...["1e400", "1e-400", "1.e5", ".e5", "1ee5", "infinit", "infinityx", "１", "٣", "true"],
      ...["1e+", "1e-", "+-1", "-.", "0.e1", "1e1e1", "00.00", "nan(", "nan(é)", "\u00a01"],
    ];
    const alphabet = "0123456789.eE+-naifty()x _";
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 3000; i++) {
      const length = 1 + Math.floor(random() * 6);
      let text = "";
      for (let j = 0; j < length; j++) text += alphabet[Math.floor(random() * alphabet.length)];
      corpus.push(text);
    }
    const engine = await executor.query<{ v: string; n: number }>(
      "SELECT v, isNotNull(toFloat64OrNull(v)) AS n FROM (SELECT arrayJoin({vs:Array(String)}) AS v)",
      { params: { vs: corpus } },
    );
    expect(engine).toHaveLength(corpus.length);
    const differ = engine.filter((r) => isNumericText(r.v) !== Boolean(Number(r.n)));
    expect(differ).toEqual([]);
  });
});
