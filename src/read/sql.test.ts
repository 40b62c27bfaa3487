import { describe, expect, it } from "vitest";
import type { QueryOptions, TelemetryExecutor } from "../telemetry/executor.js";
import { type PageSelect, Sql, selectPage } from "./sql.js";
import { TotalCache, totalKey } from "./total-cache.js";

/** An executor answering each query with the next canned rows, noting its SQL. */
function cannedExecutor(answers: Record<string, unknown>[][]) {
  const statements: string[] = [];
  const executor: TelemetryExecutor = {
    engine: "fake",
    database: "db",
    command: async () => undefined,
    query: async <T>(sql: string, _options?: QueryOptions) => {
      statements.push(sql.replace(/\s+/g, " "));
      return (answers.shift() ?? []) as T[];
    },
    queryCompact: async () => ({ columns: [], rows: [], rowsRead: 0, elapsedSeconds: 0 }),
    insert: async () => ({ rowsWritten: 0 }),
    ping: async () => undefined,
    close: async () => undefined,
  };
  return { executor, statements };
}

const rows = (n: number, total: number) =>
  Array.from({ length: n }, (_, i) => ({ id: i, total: String(total) }));
const page = (
  executor: TelemetryExecutor,
  query: { page: number; limit: number },
  select: PageSelect,
) => selectPage(new Sql(executor, "prj_1"), query, select, (row: { id: number }) => row.id);
const logs = (cap?: number): PageSelect => ({
  columns: "id",
  from: "`db`.`logs` WHERE project_id = {p0:String}",
  orderBy: "timestamp DESC",
  total: { kind: "count", cap },
});

describe("selectPage", () => {
  it("reads one row past the page: hasMore without a count, the count in the same statement", async () => {
    const { executor, statements } = cannedExecutor([rows(3, 40)]);
    const answer = await page(executor, { page: 1, limit: 2 }, logs());
    expect(answer).toEqual({
      data: [0, 1],
      pagination: { page: 1, limit: 2, total: 40, totalPages: 20, hasMore: true },
    });
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain("(SELECT count() AS total FROM `db`.`logs` WHERE");
    expect(statements[0]).toContain("LIMIT 3 OFFSET 0");
  });

  it("gives a page that shows the end its exact total, whatever the count said", async () => {
    const { executor } = cannedExecutor([rows(2, 99)]);
    const answer = await page(executor, { page: 3, limit: 5 }, logs());
    expect(answer.pagination).toEqual({
      page: 3,
      limit: 5,
      total: 12,
      totalPages: 3,
      hasMore: false,
    });
  });

  it("stops a capped count at the cap: the total is then a lower bound, flagged", async () => {
    const { executor, statements } = cannedExecutor([rows(51, 10_000)]);
    const answer = await page(executor, { page: 1, limit: 50 }, logs(10_000));
    expect(statements[0]).toContain(
      "(SELECT count() AS total FROM (SELECT 1 FROM `db`.`logs` WHERE project_id = {p0:String} LIMIT 10000))",
    );
    expect(answer.pagination).toEqual({
      page: 1,
      limit: 50,
      total: 10_000,
      totalPages: 200,
      hasMore: true,
      totalExact: false,
    });
    const under = cannedExecutor([rows(51, 9_999)]);
    expect((await page(under.executor, { page: 1, limit: 50 }, logs(10_000))).pagination).toEqual({
      page: 1,
      limit: 50,
      total: 9_999,
      totalPages: 200,
      hasMore: true,
    });
  });

  it("counts again for a page past the end, which has no row to carry the total", async () => {
    const { executor, statements } = cannedExecutor([[], [{ total: "7" }]]);
    const answer = await page(executor, { page: 9, limit: 3 }, logs(10_000));
    expect(answer.pagination).toEqual({
      page: 9,
      limit: 3,
      total: 7,
      totalPages: 3,
      hasMore: false,
    });
    expect(statements[1]).toBe(
      "SELECT count() AS total FROM (SELECT 1 FROM `db`.`logs` WHERE project_id = {p0:String} LIMIT 10000)",
    );
  });

  it("lets later pages of a grouped list take the total an earlier page counted", async () => {
    let now = 1_000_000;
    const cache = new TotalCache({ now: () => new Date(now) });
    const grouped = (reuse: boolean): PageSelect => ({
      columns: "*",
      from: "(SELECT trace_id FROM t GROUP BY trace_id)",
      orderBy: "trace_id",
      total: { kind: "window", cached: { cache, key: "q", reuse } },
    });
    const first = cannedExecutor([rows(3, 30)]);
    expect(
      (await page(first.executor, { page: 1, limit: 2 }, grouped(false))).pagination.total,
    ).toBe(30);
    expect(first.statements[0]).toContain("count() OVER () AS total");

    const second = cannedExecutor([[{ id: 2 }, { id: 3 }, { id: 4 }]]);
    const answer = await page(second.executor, { page: 2, limit: 2 }, grouped(true));
    expect(second.statements[0]).not.toContain("OVER");
    expect(answer.pagination).toEqual({
      page: 2,
      limit: 2,
      total: 30,
      totalPages: 15,
      hasMore: true,
    });

    now += 30_000;
    const stale = cannedExecutor([rows(3, 31)]);
    expect(
      (await page(stale.executor, { page: 2, limit: 2 }, grouped(true))).pagination.total,
    ).toBe(31);
    expect(stale.statements[0]).toContain("count() OVER ()");
  });
});

describe("TotalCache", () => {
  it("keys a list's total by project and filters, not by page, limit, count or sort", () => {
    const a = totalKey("traces", "p", { service: "api", page: 1, limit: 50, sort_by: "duration" });
    const b = totalKey("traces", "p", {
      page: 4,
      service: "api",
      count: "estimate",
      status: undefined,
    });
    expect(a).toBe(b);
    expect(totalKey("traces", "p", { service: "web" })).not.toBe(a);
    expect(totalKey("traces", "q", { service: "api" })).not.toBe(a);
  });

  it("forgets a total after its time, and the oldest when full", () => {
    let now = 0;
    const cache = new TotalCache({ now: () => new Date(now) }, 1000);
    cache.set("a", 1);
    now = 999;
    expect(cache.get("a")).toBe(1);
    now = 1000;
    expect(cache.get("a")).toBeUndefined();
    for (let i = 0; i <= 1000; i++) cache.set(`k${i}`, i);
    expect(cache.get("k0")).toBeUndefined();
    expect(cache.get("k1000")).toBe(1000);
  });
});
