import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { hexId, logsBody, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const NOW = Date.now();
const MIN = 60_000;

interface Page {
  data: unknown[];
  pagination: { total: number; totalPages: number; hasMore: boolean; totalExact?: boolean };
  errors?: { field: string }[];
}

/** How /v1/logs and /v1/traces count their totals (`count=estimate|exact`). */
describe("list totals", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;

  const get = async (path: string) => {
    const response = await service.fetch(path, { headers: { "x-api-key": key } });
    return { status: response.status, body: (await response.json()) as Page };
  };
  const addTraces = (from: number, count: number) =>
    sendOtlp(
      service,
      key,
      "traces",
      tracesBody(
        "api",
        Array.from({ length: count }, (_, i) => ({
          traceId: hexId(from + i, 32),
          spanId: hexId(from + i, 16),
          name: "GET /",
          startMs: NOW - 30 * MIN + (from + i) * 1000,
          durationMs: 5,
        })),
      ),
    );

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "totals@example.com",
        password: "correct horse battery",
      },
    });
    key = setup.apiKey ?? "";
    await addTraces(1, 5);
    await sendOtlp(
      service,
      key,
      "logs",
      logsBody(
        "api",
        Array.from({ length: 6 }, (_, i) => ({
          timeMs: NOW - 10 * MIN + i,
          severityNumber: i % 2 === 0 ? 17 : 9,
          body: `record ${i}`,
        })),
      ),
    );
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("counts exactly below the cap, with or without filters, in either mode", async () => {
    for (const query of ["", "&count=exact", "&level=error", "&level=error&count=exact"]) {
      const { status, body } = await get(`/v1/logs?limit=2${query}`);
      expect(status).toBe(200);
      expect(body.pagination).toEqual({
        page: 1,
        limit: 2,
        total: query.includes("error") ? 3 : 6,
        totalPages: query.includes("error") ? 2 : 3,
        hasMore: true,
      });
    }
  });

  it("refuses an unknown count mode, naming the parameter", async () => {
    for (const path of ["/v1/logs?count=all", "/v1/traces?count=fast"]) {
      const { status, body } = await get(path);
      expect(status).toBe(400);
      expect(body.errors?.map((e) => e.field)).toEqual(["count"]);
    }
  });

  it("lets a later traces page reuse the first page's total; count=exact counts again", async () => {
    expect((await get("/v1/traces?limit=2")).body.pagination).toMatchObject({
      total: 5,
      hasMore: true,
    });
    await addTraces(100, 3);
    // Page 2 of the same query (another sort counts the same traces) takes the total of page 1.
    const later = await get("/v1/traces?limit=2&page=2&sort_order=asc");
    expect(later.body.pagination).toMatchObject({ total: 5, totalPages: 3, hasMore: true });
    const exact = await get("/v1/traces?limit=2&page=2&count=exact");
    expect(exact.body.pagination).toMatchObject({ total: 8, totalPages: 4, hasMore: true });
    // A page that shows the end knows its total, and the first page counts anew.
    expect((await get("/v1/traces?limit=3&page=3")).body.pagination).toMatchObject({
      total: 8,
      hasMore: false,
    });
    expect((await get("/v1/traces?limit=2")).body.pagination.total).toBe(8);
  });
});
