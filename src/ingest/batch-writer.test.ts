import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-dir.js";
import { InvalidInputError } from "../lib/domain-errors.js";
import { createChdbExecutor } from "../telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import { ensureTelemetrySchema } from "../telemetry/schema.js";
import { BatchWriter, IngestOverloadedError } from "./batch-writer.js";
import type { CatalogRow } from "./derive/attribute-catalog.js";
import { CatalogBuffer } from "./derive/catalog-buffer.js";
import { ErrorGroupStore } from "./error-groups.js";
import { emptyBatch, type IngestBatch } from "./ingest-batch.js";

/** An engine whose inserts wait until released, recording what each insert carried. */
function fakeEngine() {
  const inserts: { table: string; rows: number }[] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let fail = false;
  const executor = {
    engine: "fake",
    database: "vigil",
    insert: async (table: string, rows: readonly unknown[]) => {
      await gate;
      if (fail) throw new Error("disk full");
      inserts.push({ table, rows: rows.length });
      return { rowsWritten: rows.length };
    },
    query: async () => [],
  } as unknown as TelemetryExecutor;
  return {
    executor,
    inserts,
    open() {
      release();
    },
    failNext() {
      fail = true;
    },
  };
}

const spans = (n: number): IngestBatch => ({
  ...emptyBatch(),
  traces: Array.from({ length: n }, (_, i) => ({ span_id: String(i) })),
});

const writer = (engine: ReturnType<typeof fakeEngine>, maxQueuedRows = 1000) =>
  new BatchWriter(engine.executor, new ErrorGroupStore(engine.executor), {
    maxQueuedRows,
    maxBatchRows: 10_000,
    lingerMs: 1,
    logger: pino({ level: "silent" }),
  });

describe("BatchWriter", () => {
  it("acknowledges only after the engine has the rows, coalescing concurrent requests", async () => {
    const engine = fakeEngine();
    const w = writer(engine);
    let done = 0;
    const requests = [spans(10), spans(20), spans(30)].map((b) => w.submit(b).then(() => done++));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(0);
    engine.open();
    await Promise.all(requests);
    expect(done).toBe(3);
    expect(engine.inserts).toEqual([{ table: "traces", rows: 60 }]);
  });

  it("refuses with 503 and Retry-After instead of queueing beyond its bound", async () => {
    const engine = fakeEngine();
    const w = writer(engine, 100);
    const first = w.submit(spans(80));
    const error = await w.submit(spans(50)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestOverloadedError);
    expect((error as IngestOverloadedError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(w.pendingRows).toBe(80);
    engine.open();
    await first;
    expect(w.pendingRows).toBe(0);
    await w.submit(spans(50));
  });

  it("reports how long the oldest request not yet acknowledged has waited", async () => {
    const engine = fakeEngine();
    const w = writer(engine);
    expect(w.oldestWaitMs).toBe(0);
    const pending = w.submit(spans(3));
    // The write has started (past the linger) and is held by the engine.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(w.oldestWaitMs).toBeGreaterThanOrEqual(50);
    engine.open();
    await pending;
    expect(w.oldestWaitMs).toBe(0);
  });

  it("fails every request of a failed write as retryable and keeps going", async () => {
    const engine = fakeEngine();
    const w = writer(engine);
    engine.failNext();
    engine.open();
    await expect(w.submit(spans(5))).rejects.toMatchObject({
      code: "unavailable",
      retryAfterSeconds: 5,
    });
  });

  it("writes everything accepted before close resolves", async () => {
    const engine = fakeEngine();
    const w = writer(engine);
    const pending = w.submit(spans(7));
    const closed = w.close();
    engine.open();
    await closed;
    await pending;
    expect(engine.inserts).toEqual([{ table: "traces", rows: 7 }]);
    await expect(w.submit(spans(1))).rejects.toBeInstanceOf(IngestOverloadedError);
  });
});

describe("BatchWriter's attribute catalog", () => {
  it("counts each table's rows once, when they are written: not before a table is tried again", async () => {
    let logFailures = 1;
    const executor = {
      engine: "fake",
      database: "vigil",
      insert: async (table: string, rows: readonly unknown[]) => {
        if (table === "logs" && logFailures-- > 0) throw new Error("disk full");
        return { rowsWritten: rows.length };
      },
      query: async () => [],
    } as unknown as TelemetryExecutor;
    const counted: CatalogRow[] = [];
    const w = new BatchWriter(executor, new ErrorGroupStore(executor), {
      maxQueuedRows: 1000,
      maxBatchRows: 10_000,
      lingerMs: 20,
      logger: pino({ level: "silent" }),
      catalog: { add: (rows) => counted.push(...rows) },
    });
    const rows = (project: string, n: number) =>
      Array.from({ length: n }, () => ({ project_id: project, service_name: "api" }));
    const request = (project: string, n: number): IngestBatch => ({
      ...emptyBatch(),
      traces: rows(project, n),
      logs: rows(project, n),
    });
    await Promise.all([w.submit(request("prj_a", 2)), w.submit(request("prj_b", 3))]);
    const total = (signal: string, project: string) =>
      counted
        .filter((r) => r.signal === signal && r.project_id === project)
        .reduce((sum, r) => sum + r.row_count, 0);
    expect([total("traces", "prj_a"), total("traces", "prj_b")]).toEqual([2, 3]);
    expect([total("logs", "prj_a"), total("logs", "prj_b")]).toEqual([2, 3]);
  });
});

describe("BatchWriter's write interval", () => {
  /** An engine that takes each insert at once and records when each write's traces came. */
  function timedEngine() {
    const writes: { at: number; rows: number }[] = [];
    const executor = {
      engine: "fake",
      database: "vigil",
      insert: async (table: string, rows: readonly unknown[]) => {
        if (table === "traces") writes.push({ at: performance.now(), rows: rows.length });
        return { rowsWritten: rows.length };
      },
      query: async () => [],
    } as unknown as TelemetryExecutor;
    return { executor, writes };
  }
  const spaced = (engine: ReturnType<typeof timedEngine>, writeIntervalMs: number, lingerMs = 1) =>
    new BatchWriter(engine.executor, new ErrorGroupStore(engine.executor), {
      maxQueuedRows: 100_000,
      maxBatchRows: 1_000,
      lingerMs,
      writeIntervalMs,
      logger: pino({ level: "silent" }),
    });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  const rowsOf = (engine: ReturnType<typeof timedEngine>) => engine.writes.map((w) => w.rows);

  /** Two and then three rows, 20 ms apart, from these senders; resolves once both are written. */
  async function twoMore(w: BatchWriter, first: string, second: string) {
    const later = [w.submit(spans(2), first)];
    await sleep(20);
    later.push(w.submit(spans(3), second));
    await Promise.all(later);
  }

  /** Milliseconds between the starts of the first two writes. */
  const gap = ({ writes: [first, second] }: ReturnType<typeof timedEngine>) =>
    (second?.at ?? 0) - (first?.at ?? 0);

  it("spaces writes by the interval while senders seen lately may still join", async () => {
    const engine = timedEngine();
    const w = spaced(engine, 300);
    const started = performance.now();
    // After a quiet spell a write goes at once.
    await Promise.all([w.submit(spans(1), "a"), w.submit(spans(1), "b"), w.submit(spans(1), "c")]);
    expect(performance.now() - started).toBeLessThan(150);
    // b and c send again; a, seen lately, might too: the write waits out the interval.
    await twoMore(w, "b", "c");
    expect(rowsOf(engine)).toEqual([3, 5]);
    expect(gap(engine)).toBeGreaterThanOrEqual(290);
  });

  it("writes at once when every sender seen lately is already waiting on the write", async () => {
    const engine = timedEngine();
    const w = spaced(engine, 10_000);
    await Promise.all([w.submit(spans(1), "a"), w.submit(spans(1), "b")]);
    const started = performance.now();
    const first = w.submit(spans(2), "a");
    await sleep(20);
    expect(rowsOf(engine)).toEqual([2]);
    await Promise.all([first, w.submit(spans(3), "b")]);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(rowsOf(engine)).toEqual([2, 5]);
  });

  it("holds a write back for a sender that sends several requests at once", async () => {
    const engine = timedEngine();
    const w = spaced(engine, 300);
    await Promise.all([w.submit(spans(1), "a"), w.submit(spans(1), "a")]);
    await twoMore(w, "a", "a");
    expect(rowsOf(engine)).toEqual([2, 5]);
    expect(gap(engine)).toBeGreaterThanOrEqual(290);
  });

  it("never holds back a sender alone, nor requests whose sender is unknown", async () => {
    const engine = timedEngine();
    const w = spaced(engine, 10_000);
    const started = performance.now();
    for (let i = 1; i <= 3; i++) await w.submit(spans(i), "a");
    for (let i = 4; i <= 5; i++) await w.submit(spans(i));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(rowsOf(engine)).toEqual([1, 2, 3, 4, 5]);
  });

  it("without an interval writes as soon as the engine is free", async () => {
    const engine = timedEngine();
    const w = spaced(engine, 0);
    await Promise.all([w.submit(spans(1), "a"), w.submit(spans(1), "b")]);
    const later = w.submit(spans(2), "a");
    await sleep(20);
    expect(rowsOf(engine)).toEqual([2, 2]);
    await later;
  });

  it("does not stretch the linger while requests keep arriving", async () => {
    const engine = timedEngine();
    const w = spaced(engine, 10_000, 50);
    const started = performance.now();
    const requests = [];
    for (let i = 0; i < 10; i++) {
      requests.push(w.submit(spans(1)));
      await sleep(15);
    }
    await Promise.all(requests);
    expect((engine.writes[0]?.at ?? Number.POSITIVE_INFINITY) - started).toBeLessThan(100);
  });

  it("does not hold back a full batch", async () => {
    const engine = timedEngine();
    const w = spaced(engine, 10_000);
    await Promise.all([w.submit(spans(1), "a"), w.submit(spans(1), "b")]);
    const started = performance.now();
    await w.submit(spans(1_000), "a");
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(rowsOf(engine)).toEqual([2, 1_000]);
  });

  it("writes what waits out the interval at once when closed", async () => {
    const engine = timedEngine();
    const w = spaced(engine, 10_000);
    await Promise.all([w.submit(spans(1), "a"), w.submit(spans(1), "b")]);
    const waiting = w.submit(spans(4), "a");
    await sleep(20);
    expect(rowsOf(engine)).toEqual([2]);
    const started = performance.now();
    await w.close();
    await waiting;
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(rowsOf(engine)).toEqual([2, 4]);
  });
});

describe("BatchWriter over the real engine, one request's rows refused", () => {
  const dir = makeTempDir();
  const executor = createChdbExecutor({ path: dir.path, database: "vigil" });
  beforeAll(() => ensureTelemetrySchema(executor, { retentionDays: 30 }));
  afterAll(async () => {
    await executor.close();
    dir.remove();
  });

  const now = Math.floor(Date.now() / 1000);
  const span = (project: string, id: string, timestamp = `${now}.000000000`) => ({
    project_id: project,
    timestamp,
    end_timestamp: `${now}.000000000`,
    trace_id: "0af7651916cd43dd8448eb211c80319c",
    span_id: id,
    attributes: { "span.key": "v" },
  });
  const log = (project: string, id: string, severity: number) => ({
    project_id: project,
    id,
    timestamp: `${now}.000000000`,
    observed_timestamp: `${now}.000000000`,
    severity_number: severity,
    attributes: { "log.key": "v" },
  });
  /** Rows the attribute catalog counted with the field, per source. */
  const counted = async (project: string, field: string) =>
    Object.fromEntries(
      (
        await executor.query<{ signal: string; n: string }>(
          `SELECT signal, sum(row_count) AS n FROM vigil.attribute_values
           WHERE project_id = {p:String} AND field = {f:String} GROUP BY signal`,
          { params: { p: project, f: field } },
        )
      ).map((r) => [r.signal, Number(r.n)]),
    );
  const count = async (table: string, project: string) =>
    Number(
      (
        await executor.query<{ n: string }>(
          `SELECT count() AS n FROM vigil.${table} WHERE project_id = {p:String}`,
          { params: { p: project } },
        )
      )[0]?.n,
    );

  it("fails only the guilty request, with 400, and writes every other row exactly once", async () => {
    const logger = pino({ level: "silent" });
    const catalog = new CatalogBuffer(executor, { flushMs: 60_000, maxRows: 1000, logger });
    const w = new BatchWriter(executor, new ErrorGroupStore(executor), {
      maxQueuedRows: 1000,
      maxBatchRows: 10_000,
      lingerMs: 20,
      logger,
      catalog,
    });
    // The guilty request's spans are fine and go in with the others' in one insert; its log
    // holds a severity beyond its UInt8 column, which fails the coalesced logs insert.
    const guilty = w.submit({
      ...emptyBatch(),
      traces: [span("attacker", "a1")],
      logs: [log("attacker", "l1", 300)],
    });
    const innocent = ["v1", "v2", "v3"].map((id) =>
      w.submit({
        ...emptyBatch(),
        traces: [span("victim", id)],
        logs: [log("victim", `l-${id}`, 9)],
      }),
    );
    const outcomes = await Promise.allSettled([guilty, ...innocent]);
    expect(outcomes.map((o) => o.status)).toEqual([
      "rejected",
      "fulfilled",
      "fulfilled",
      "fulfilled",
    ]);
    const error = (outcomes[0] as PromiseRejectedResult).reason;
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as Error).message).toContain("VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE");
    expect(await count("traces", "victim")).toBe(3);
    expect(await count("logs", "victim")).toBe(3);
    // The spans table went in once, before the logs failed: not written again.
    expect(await count("traces", "attacker")).toBe(1);
    expect(await count("logs", "attacker")).toBe(0);
    // The catalog counts what went in, once: the refused log not at all.
    await catalog.flush();
    expect(await counted("victim", "attributes.span.key")).toEqual({ traces: 3 });
    expect(await counted("victim", "attributes.log.key")).toEqual({ logs: 3 });
    expect(await counted("attacker", "attributes.span.key")).toEqual({ traces: 1 });
    expect(await counted("attacker", "attributes.log.key")).toEqual({});
  });

  it("a request alone with a value out of the column's range is 400, not 503", async () => {
    const w = new BatchWriter(executor, new ErrorGroupStore(executor), {
      maxQueuedRows: 1000,
      maxBatchRows: 10_000,
      lingerMs: 1,
      logger: pino({ level: "silent" }),
    });
    await expect(
      w.submit({ ...emptyBatch(), traces: [span("alone", "b1", "9223372036.854775808")] }),
    ).rejects.toMatchObject({ code: "invalid_input" });
    expect(await count("traces", "alone")).toBe(0);
  });
});
