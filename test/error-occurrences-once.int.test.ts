import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compilePreset } from "../src/alerts/presets.js";
import { seriesFromResult } from "../src/alerts/query-check.js";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import {
  hexId,
  type LogSpec,
  logsBody,
  type SpanSpec,
  sendOtlp,
  tracesBody,
} from "./helpers/otlp.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const NOW = Date.now();
const MIN = 60_000;
const SESSION = "sess-once";
const EXCEPTION = {
  "exception.type": "TypeError",
  "exception.message": "Cannot read properties of undefined (reading 'total')",
  "exception.stacktrace":
    "TypeError: Cannot read properties of undefined (reading 'total')\n    at priceOrder (/srv/app/src/orders.ts:42:17)\n    at handle (/srv/app/src/server.ts:3:1)",
};

/** A failed span recording the exception, as an OTel SDK does. */
const failedSpan = (n: number, startMs: number): SpanSpec => ({
  traceId: hexId(n, 32),
  spanId: hexId(n, 16),
  name: "POST /orders",
  startMs,
  durationMs: 20,
  error: true,
  attributes: { "session.id": SESSION },
  events: [{ name: "exception", timeMs: startMs + 10, attributes: EXCEPTION }],
});

/** The same exception logged in the same span, as a logging bridge does. */
const errorLog = (n: number, timeMs: number): LogSpec => ({
  timeMs,
  severityNumber: 17,
  severityText: "ERROR",
  body: "order failed",
  traceId: hexId(n, 32),
  spanId: hexId(n, 16),
  attributes: { ...EXCEPTION, "session.id": SESSION },
});

interface Group {
  id: string;
  occurrences: number;
}

/**
 * One occurrence: an exception event of a span and an error log of the same span with the same
 * type and message count once, whichever request comes first, in every place that counts errors.
 */
describe("an exception recorded on a span and logged in the same span is one occurrence", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let projectId: string;

  const get = async <T>(path: string): Promise<T> => {
    const response = await service.fetch(path, { headers: { "x-api-key": key } });
    const body = (await response.json()) as T;
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

  /** Every count of the one group the fixture produces, as each read tells it. */
  const counts = async () => {
    const list = await get<{ data: Group[] }>("/v1/errors");
    expect(list.data).toHaveLength(1);
    const group = list.data[0] as Group;
    const detail = await get<{
      occurrencesInWindow: number;
      occurrencesOverTime: { count: number }[];
      affectedServices: { occurrences: number }[];
    }>(`/v1/errors/${group.id}?time_range=1h`);
    const dashboard = await get<{
      occurrences: number;
      series: { occurrences: number }[];
      byService: { occurrences: number }[];
      topErrors: { occurrencesInWindow: number }[];
    }>("/v1/errors/dashboard?time_range=1h");
    const trends = await get<{ trends: { total: number; counts: number[] }[] }>(
      `/v1/errors/trends?time_range=1h&ids=${group.id}`,
    );
    const busiest = await get<{ trends: { total: number }[] }>("/v1/errors/trends?time_range=1h");
    const sessions = await get<{ data: { id: string; counts: { errors: number } }[] }>(
      "/v1/sessions",
    );
    const session = await get<{ counts: { errors: number }; timeline: { kind: string }[] }>(
      `/v1/sessions/${SESSION}`,
    );
    const { query } = compilePreset({
      kind: "error_group_occurrences",
      params: { errorId: group.id, window: "1h" },
    });
    const preset = seriesFromResult(await service.deps.tql.query(projectId, query));
    return {
      group: group.occurrences,
      detail: detail.occurrencesInWindow,
      detailSeries: sum(detail.occurrencesOverTime.map((b) => b.count)),
      detailServices: sum(detail.affectedServices.map((s) => s.occurrences)),
      total: dashboard.occurrences,
      totalSeries: sum(dashboard.series.map((b) => b.occurrences)),
      byService: sum(dashboard.byService.map((s) => s.occurrences)),
      top: dashboard.topErrors[0]?.occurrencesInWindow,
      sparkline: sum(trends.trends[0]?.counts ?? []),
      sparklineTotal: trends.trends[0]?.total,
      busiest: busiest.trends[0]?.total,
      sessionListed: sessions.data.find((s) => s.id === SESSION)?.counts.errors,
      session: session.counts.errors,
      sessionTimeline: session.timeline.filter((e) => e.kind === "error").length,
      alertPreset: preset[0]?.value,
    };
  };
  const everywhere = (n: number) => ({
    group: n,
    detail: n,
    detailSeries: n,
    detailServices: n,
    total: n,
    totalSeries: n,
    byService: n,
    top: n,
    sparkline: n,
    sparklineTotal: n,
    busiest: n,
    sessionListed: n,
    session: n,
    sessionTimeline: n,
    alertPreset: n,
  });

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "once@example.com",
        password: "correct horse battery",
      },
    });
    key = setup.apiKey ?? "";
    projectId = setup.projectId;
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("counts a span's exception and its log once, the log sent first", async () => {
    const t = NOW - 10 * MIN;
    await sendOtlp(service, key, "logs", logsBody("api", [errorLog(1, t + 11)]));
    await sendOtlp(service, key, "traces", tracesBody("api", [failedSpan(1, t)]));
    expect(await counts()).toEqual(everywhere(1));
  });

  it("counts a second failing span as a second occurrence, its span sent first", async () => {
    const t = NOW - 5 * MIN;
    await sendOtlp(service, key, "traces", tracesBody("api", [failedSpan(2, t)]));
    await sendOtlp(service, key, "logs", logsBody("api", [errorLog(2, t + 11)]));
    expect(await counts()).toEqual(everywhere(2));
  });

  it("keeps both sources of the occurrence: the span's exception and the log", async () => {
    const trace = await get<{
      errorGroups: { spanId: string; occurrences: number }[];
    }>(`/v1/traces/${hexId(2, 32)}`);
    expect(trace.errorGroups).toEqual([
      expect.objectContaining({ spanId: hexId(2, 16), occurrences: 1 }),
    ]);
    const span = await get<{ errorGroups: { occurrences: number }[] }>(
      `/v1/traces/${hexId(2, 32)}/spans/${hexId(2, 16)}`,
    );
    expect(span.errorGroups.map((g) => g.occurrences)).toEqual([1]);
    // The same from error_occurrences, for a trace stored before trace_data.
    await service.deps.telemetry.command(
      `TRUNCATE TABLE ${service.deps.telemetry.database}.trace_data`,
    );
    const stored = await get<typeof trace>(`/v1/traces/${hexId(2, 32)}`);
    expect(stored.errorGroups).toEqual(trace.errorGroups);
    const rows = await service.deps.telemetry.query<{ log_id: string }>(
      `SELECT log_id FROM ${service.deps.telemetry.database}.error_occurrences
       WHERE project_id = {p:String} AND trace_id = {t:String} ORDER BY log_id`,
      { params: { p: projectId, t: hexId(2, 32) } },
    );
    expect(rows).toHaveLength(2);
    const logs = await get<{ data: { id: string; spanId: string | null }[] }>(
      "/v1/logs?level=error",
    );
    const log = logs.data.find((l) => l.spanId === hexId(2, 16));
    expect(rows.map((r) => r.log_id)).toEqual(["", log?.id]);
    // The group's sample of that trace links the log too.
    const [group] = (await get<{ data: Group[] }>("/v1/errors")).data;
    const detail = await get<{ sampleTraces: { traceId: string; logId: string | null }[] }>(
      `/v1/errors/${group?.id}`,
    );
    expect(detail.sampleTraces.find((s) => s.traceId === hexId(2, 32))?.logId).toBe(log?.id);
  });
});
