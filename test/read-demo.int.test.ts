import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { type DemoRequest, demoRequests } from "../src/demo/generator.js";
import { sendAll } from "../src/demo/sender.js";
import { initialize } from "../src/setup/initialize.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

type Obj = Record<string, unknown>;
const hex = (id: unknown) => (id instanceof Uint8Array ? Buffer.from(id).toString("hex") : "");

/** What the demo requests contain, counted from the requests themselves. */
function tally(requests: readonly DemoRequest[]) {
  const spansPerTrace = new Map<string, number>();
  const errorSpansPerTrace = new Map<string, number>();
  let exceptions = 0;
  let logs = 0;
  /** One per error occurrence: `trace span type message`, whichever sources sent it. */
  const occurrences = new Set<string>();
  const attr = (item: Obj, name: string) =>
    String(
      (item.attributes as { key: string; value: { stringValue?: string } }[]).find(
        (a) => a.key === name,
      )?.value.stringValue ?? "",
    );
  const logsByLevel = { info: 0, error: 0 };
  for (const request of requests) {
    const body = request.body as Obj;
    for (const rs of (body.resourceSpans as Obj[] | undefined) ?? [])
      for (const ss of rs.scopeSpans as Obj[])
        for (const span of ss.spans as Obj[]) {
          const trace = hex(span.traceId);
          spansPerTrace.set(trace, (spansPerTrace.get(trace) ?? 0) + 1);
          if ((span.status as Obj).code === 2)
            errorSpansPerTrace.set(trace, (errorSpansPerTrace.get(trace) ?? 0) + 1);
          for (const e of (span.events as Obj[]).filter((e) => e.name === "exception")) {
            exceptions++;
            occurrences.add(
              `${trace} ${hex(span.spanId)} ${attr(e, "exception.type")} ${attr(e, "exception.message")}`,
            );
          }
        }
    for (const rl of (body.resourceLogs as Obj[] | undefined) ?? [])
      for (const sl of rl.scopeLogs as Obj[])
        for (const record of sl.logRecords as Obj[]) {
          logs++;
          if (Number(record.severityNumber) >= 17) {
            logsByLevel.error++;
            const body = (record.body as { stringValue: string }).stringValue;
            occurrences.add(
              hex(record.spanId)
                ? `${hex(record.traceId)} ${hex(record.spanId)} ${attr(record, "exception.type") || "error"} ${attr(record, "exception.message") || body}`
                : `log ${logs}`,
            );
          } else logsByLevel.info++;
        }
  }
  return {
    spansPerTrace,
    errorSpansPerTrace,
    exceptions,
    errorOccurrences: occurrences.size,
    logs,
    logsByLevel,
  };
}

describe("the read API over the `vigil demo` dataset", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let expected: ReturnType<typeof tally>;

  const get = async (path: string) => {
    const response = await service.fetch(path, { headers: { "x-api-key": key } });
    const body = (await response.json()) as Obj;
    expect(response.status, `${path}: ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
    return body;
  };
  const total = async (path: string) => ((await get(path)).pagination as { total: number }).total;

  beforeAll(async () => {
    service = await startTestService(dir.path, { VIGIL_RATE_LIMIT_PER_MINUTE: "10000" });
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "demo@example.com",
        password: "correct horse battery",
      },
    });
    key = setup.apiKey ?? "";
    const requests = [
      ...demoRequests({ spans: 4000, batchSpans: 500, windowMs: 3_600_000, nowMs: Date.now() }),
    ];
    expected = tally(requests);
    await sendAll(requests, { url: service.url, key, concurrency: 2 });
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("lists every log record, by level", async () => {
    expect(await total("/v1/logs?limit=1")).toBe(expected.logs);
    expect(await total("/v1/logs?limit=1&level=error")).toBe(expected.logsByLevel.error);
    expect(await total("/v1/logs?limit=1&level=info")).toBe(expected.logsByLevel.info);
    const dashboard = await get("/v1/logs/dashboard?time_range=2h");
    expect(dashboard.total).toBe(expected.logs);
    expect(dashboard.byLevel).toMatchObject(expected.logsByLevel);
  });

  it("summarizes every trace with its span and error counts", async () => {
    const traces = expected.spansPerTrace.size;
    expect(await total("/v1/traces?limit=1")).toBe(traces);
    expect(await total("/v1/traces?limit=1&status=error")).toBe(expected.errorSpansPerTrace.size);
    const page = await get("/v1/traces?limit=1000");
    for (const summary of page.data as {
      traceId: string;
      spanCount: number;
      errorCount: number;
    }[]) {
      expect(summary.spanCount, summary.traceId).toBe(expected.spansPerTrace.get(summary.traceId));
      expect(summary.errorCount).toBe(expected.errorSpansPerTrace.get(summary.traceId) ?? 0);
    }
    const [first] = page.data as { traceId: string }[];
    const detail = await get(`/v1/traces/${first?.traceId}`);
    expect(detail.spanCount).toBe(expected.spansPerTrace.get(String(first?.traceId)));
    expect(detail.orphanCount).toBe(0);
    expect(detail.hasRoot).toBe(true);
  });

  it("counts every error occurrence in some group", async () => {
    const groups = (await get("/v1/errors?limit=1000")).data as {
      id: string;
      occurrences: number;
    }[];
    const occurrences = groups.reduce((sum, g) => sum + g.occurrences, 0);
    // Every demo exception is also logged in its span: one occurrence each, not two.
    expect(expected.errorOccurrences).toBe(expected.exceptions);
    expect(expected.logsByLevel.error).toBe(expected.exceptions);
    expect(occurrences).toBe(expected.errorOccurrences);
    const dashboard = await get("/v1/errors/dashboard?time_range=2h");
    expect(dashboard.occurrences).toBe(occurrences);
    const [top] = groups;
    const detail = await get(`/v1/errors/${top?.id}`);
    expect(detail.occurrencesInWindow).toBe(top?.occurrences);
  });

  it("answers every read endpoint of the OpenAPI document", async () => {
    const openapi = (await (await service.fetch("/openapi.json")).json()) as {
      paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
    };
    const paths = Object.entries(openapi.paths).filter(
      ([path, methods]) =>
        path.startsWith("/v1/") &&
        methods.get &&
        !(methods.get.parameters ?? []).some((p) => p.in === "path"),
    );
    expect(paths.length).toBeGreaterThanOrEqual(7);
    for (const [path, methods] of paths) {
      const needsRange = (methods.get?.parameters ?? []).some((p) => p.name === "time_range");
      await get(needsRange ? `${path}?time_range=24h` : path);
    }
  });
});
