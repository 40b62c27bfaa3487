import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import type { TelemetryExecutor } from "../../telemetry/executor.js";
import type { CatalogRow } from "./attribute-catalog.js";
import { CatalogBuffer, type CatalogScope } from "./catalog-buffer.js";

/** An engine recording each catalog insert; `hold` keeps the next insert waiting until released. */
function engine() {
  const inserts: CatalogRow[][] = [];
  const attempts = { count: 0 };
  let failures = 0;
  let held: Promise<void> | undefined;
  let release: () => void = () => undefined;
  const executor = {
    insert: async (_table: string, rows: CatalogRow[]) => {
      if (held) await held;
      attempts.count++;
      if (failures-- > 0) throw new Error("disk full");
      inserts.push(rows.map((row) => ({ ...row })));
      return { rowsWritten: rows.length };
    },
  } as unknown as TelemetryExecutor;
  return {
    executor,
    inserts,
    attempts,
    fail(n: number) {
      failures = n;
    },
    hold() {
      held = new Promise((resolve) => {
        release = () => {
          held = undefined;
          resolve();
        };
      });
    },
    release: () => release(),
  };
}

const row = (field: string, value: string, rows: number, day = "2026-11-28"): CatalogRow => ({
  project_id: "prj_a",
  signal: "traces",
  field,
  value,
  day,
  row_count: rows,
  numeric_count: /^\d+$/.test(value) ? rows : 0,
});

const buffer = (e: ReturnType<typeof engine>, flushMs = 10_000, maxRows = 100) =>
  new CatalogBuffer(e.executor, { flushMs, maxRows, logger: pino({ level: "silent" }) });

const scope: CatalogScope = {
  projectId: "prj_a",
  source: "traces",
  fromDay: "2026-11-28",
  toDay: "2026-11-29",
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("CatalogBuffer", () => {
  it("sums the counts of many writes and writes them in one insert after flushMs", async () => {
    const e = engine();
    const b = buffer(e, 30);
    b.add([row("service_name", "api", 2), row("attributes.code", "200", 1)]);
    b.add([row("service_name", "api", 3)]);
    expect(e.inserts).toEqual([]);
    await sleep(80);
    expect(e.inserts).toHaveLength(1);
    expect(e.inserts[0]).toEqual(
      expect.arrayContaining([row("service_name", "api", 5), row("attributes.code", "200", 1)]),
    );
    expect(e.inserts[0]).toHaveLength(2);
  });

  it("writes at once past maxRows, and everything at close", async () => {
    const e = engine();
    const b = buffer(e, 10_000, 2);
    b.add([row("a", "1", 1), row("b", "1", 1)]);
    await sleep(1);
    expect(e.inserts).toHaveLength(1);
    b.add([row("c", "x", 1)]);
    await b.close();
    expect(e.inserts.map((rows) => rows.map((r) => r.field))).toEqual([["a", "b"], ["c"]]);
  });

  it("keeps the counts of a failed insert for the next one", async () => {
    const e = engine();
    const b = buffer(e);
    e.fail(1);
    b.add([row("service_name", "api", 2)]);
    await b.flush();
    expect(e.inserts).toEqual([]);
    b.add([row("service_name", "api", 1)]);
    await b.flush();
    expect(e.inserts).toEqual([[row("service_name", "api", 3)]]);
  });

  it("retries a failed insert flushMs on, even past maxRows, and never again after close", async () => {
    vi.useFakeTimers();
    try {
      const e = engine();
      const b = buffer(e, 40, 2);
      e.fail(1_000);
      b.add([row("a", "1", 1), row("b", "1", 1)]);
      // Past maxRows the write is at once; its failure waits flushMs, not a loop of retries.
      await vi.advanceTimersByTimeAsync(39);
      expect(e.attempts.count).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(e.attempts.count).toBe(2);
      await b.close();
      await vi.advanceTimersByTimeAsync(1_000);
      // The store is away at shutdown: one last try, then the counts are dropped.
      expect(e.attempts.count).toBe(3);
      expect(e.inserts).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("after close writes each add at once", async () => {
    const e = engine();
    const b = buffer(e);
    await b.close();
    b.add([row("service_name", "api", 1)]);
    await sleep(5);
    expect(e.inserts).toEqual([[row("service_name", "api", 1)]]);
  });

  it("shows a read the counts not written, of its project, source and days only", async () => {
    const b = buffer(engine());
    b.add([
      row("service_name", "api", 2),
      row("service_name", "web", 1),
      row("attributes.code", "200", 4),
      row("service_name", "api", 7, "2026-11-27"),
      { ...row("service_name", "api", 9), project_id: "prj_b" },
      { ...row("service_name", "api", 9), signal: "logs" },
    ]);
    await b.read(async (unwritten) => {
      expect(unwritten.fields(scope)).toEqual(
        new Map([
          ["service_name", { rows: 3, numeric: 0 }],
          ["attributes.code", { rows: 4, numeric: 4 }],
        ]),
      );
      expect(unwritten.values(scope, "service_name")).toEqual(
        new Map([
          ["api", { rows: 2, numeric: 0 }],
          ["web", { rows: 1, numeric: 0 }],
        ]),
      );
    });
  });

  it("never writes while a read runs, nor lets a read run while it writes", async () => {
    const e = engine();
    const b = buffer(e);
    b.add([row("service_name", "api", 1)]);
    let endRead: () => void = () => undefined;
    const reading = b.read(
      (unwritten) =>
        new Promise<number>((resolve) => {
          endRead = () => resolve(unwritten.fields(scope).size);
        }),
    );
    const flushing = b.flush();
    await sleep(5);
    expect(e.inserts).toEqual([]);
    endRead();
    expect(await reading).toBe(1);
    await flushing;
    expect(e.inserts).toHaveLength(1);

    // A read asked for during an insert runs after it, and sees nothing left to add.
    b.add([row("service_name", "api", 1)]);
    e.hold();
    const writing = b.flush();
    let seen: number | undefined;
    const after = b.read(async (unwritten) => {
      seen = unwritten.fields(scope).size;
    });
    await sleep(5);
    expect(seen).toBeUndefined();
    e.release();
    await Promise.all([writing, after]);
    expect(seen).toBe(0);
  });
});
