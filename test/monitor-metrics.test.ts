import pino from "pino";
import { describe, expect, it } from "vitest";
import type { MetricsRequest } from "../src/ingest/otlp/otlp-messages.js";
import { checkMetricsRequest, MONITOR_METRICS_SERVICE } from "../src/monitors/check-metrics.js";
import { createCheckMetricsBuffer } from "../src/monitors/check-metrics-buffer.js";
import type { RecordedCheck } from "../src/monitors/check-recording.js";
import type { StepResult } from "../src/monitors/check-result.js";

/** The points a recorded check becomes, and how the buffer batches and survives their writes. */
const logger = pino({ level: "silent" });

function step(overrides: Partial<StepResult> = {}): StepResult {
  return {
    name: "Health",
    status: "passed",
    method: "GET",
    url: "https://example.com/health",
    statusCode: 200,
    durationMs: 42,
    transportError: null,
    assertions: [],
    extracted: {},
    responseBody: null,
    responseBodyTruncated: false,
    ...overrides,
  };
}

function check(
  overrides: { passed?: boolean; projectId?: string; steps?: StepResult[] } = {},
): RecordedCheck {
  const steps = overrides.steps ?? [step()];
  return {
    id: "run_1",
    monitorId: "mon_1",
    monitor: {
      projectId: overrides.projectId ?? "prj_1",
      name: "Checkout API",
      type: steps.length > 1 ? "flow" : "api",
      location: "default",
    },
    trigger: "scheduled",
    result: {
      passed: overrides.passed ?? true,
      startedAt: "2026-03-01T10:00:00.000Z",
      durationMs: steps.reduce((sum, s) => sum + (s.durationMs ?? 0), 0),
      steps,
      traceId: "0af7651916cd43dd8448eb211c80319c",
    },
  } as RecordedCheck;
}

type Point = { attributes: { key: string; value: Record<string, unknown> }[]; asDouble: number };

/** metric name → its points, each with its attributes as a plain record. */
function pointsOf(request: MetricsRequest) {
  const out = new Map<string, { value: number; attributes: Record<string, unknown> }[]>();
  for (const rm of request.resourceMetrics ?? [])
    for (const sm of rm?.scopeMetrics ?? [])
      for (const metric of sm?.metrics ?? []) {
        const points = (metric.gauge?.dataPoints ?? []) as Point[];
        out.set(
          String(metric.name),
          points.map((p) => ({
            value: p.asDouble,
            attributes: Object.fromEntries(
              p.attributes.map((a) => [a.key, Object.values(a.value)[0]]),
            ),
          })),
        );
      }
  return out;
}

describe("monitor check metrics", () => {
  it("writes up, duration and step durations with the monitor's attributes", () => {
    const request = checkMetricsRequest([check()]);
    const resource = request.resourceMetrics?.[0]?.resource?.attributes ?? [];
    expect(resource).toContainEqual({
      key: "service.name",
      value: { stringValue: MONITOR_METRICS_SERVICE },
    });
    const points = pointsOf(request);
    expect([...points.keys()]).toEqual([
      "vigil.monitor.up",
      "vigil.monitor.duration",
      "vigil.monitor.step.duration",
    ]);
    expect(points.get("vigil.monitor.up")).toEqual([
      {
        value: 1,
        attributes: {
          "monitor.id": "mon_1",
          "monitor.name": "Checkout API",
          "monitor.type": "api",
          location: "default",
          "check.trigger": "scheduled",
        },
      },
    ]);
    expect(points.get("vigil.monitor.duration")?.[0]?.value).toBe(42);
    expect(points.get("vigil.monitor.step.duration")?.[0]?.attributes).toMatchObject({
      "step.index": 0,
      "step.name": "Health",
      "step.status": "passed",
      "http.response.status_code": 200,
    });
    const units = request.resourceMetrics?.[0]?.scopeMetrics?.[0]?.metrics?.map((m) => m?.unit);
    expect(units).toEqual(["1", "ms", "ms"]);
  });

  it("marks a failed check 0 with its reason, and skips steps that never ran", () => {
    const failed = check({
      passed: false,
      steps: [
        step({
          name: "Login",
          status: "failed",
          statusCode: null,
          durationMs: 3,
          transportError: { code: "ECONNREFUSED", message: "connection refused" },
        }),
        step({ name: "Cart", status: "skipped", statusCode: null, durationMs: null }),
      ],
    });
    const points = pointsOf(checkMetricsRequest([failed]));
    expect(points.get("vigil.monitor.up")?.[0]).toMatchObject({
      value: 0,
      attributes: { "monitor.type": "flow", "check.failure": "connection refused" },
    });
    const steps = points.get("vigil.monitor.step.duration") ?? [];
    expect(steps).toHaveLength(1);
    expect(steps[0]?.attributes).not.toHaveProperty("http.response.status_code");
  });

  it("writes the days left of a tls check's or an https step's certificate", () => {
    const tls = {
      subject: "api.example.com",
      issuer: "Example CA",
      validFrom: "2026-01-01T00:00:00.000Z",
      validTo: "2026-03-31T00:00:00.000Z",
      daysLeft: 29,
      authorized: true,
      authorizationError: null,
      hostnameMatches: true,
    };
    const points = pointsOf(
      checkMetricsRequest([check({ steps: [step({ tls }), step({ name: "Plain", tls: null })] })]),
    );
    expect(points.get("vigil.monitor.tls.days_left")).toEqual([
      {
        value: 29,
        attributes: expect.objectContaining({
          "monitor.id": "mon_1",
          "step.index": 0,
          "step.name": "Health",
          "tls.subject": "api.example.com",
          "tls.issuer": "Example CA",
        }),
      },
    ]);
    // Without a certificate there is no such metric at all.
    expect(pointsOf(checkMetricsRequest([check()])).has("vigil.monitor.tls.days_left")).toBe(false);
  });

  it("writes one request per project per flush, holding every check of the project", async () => {
    const writes: { projectId: string; request: MetricsRequest }[] = [];
    const buffer = createCheckMetricsBuffer({
      logger,
      flushIntervalMs: 60_000,
      write: async (projectId, request) => {
        writes.push({ projectId, request });
      },
    });
    buffer.add(check());
    buffer.add(check({ passed: false }));
    buffer.add(check({ projectId: "prj_2" }));
    expect(writes).toHaveLength(0);
    await buffer.flush();
    expect(writes.map((w) => w.projectId).sort()).toEqual(["prj_1", "prj_2"]);
    const first = writes.find((w) => w.projectId === "prj_1");
    expect(
      pointsOf(first?.request ?? {})
        .get("vigil.monitor.up")
        ?.map((p) => p.value),
    ).toEqual([1, 0]);
    await buffer.flush();
    expect(writes).toHaveLength(2);
  });

  it("writes on its own after the interval, or at once when many checks wait", async () => {
    const writes: string[] = [];
    const buffer = createCheckMetricsBuffer({
      logger,
      flushIntervalMs: 20,
      maxChecks: 3,
      write: async (projectId) => {
        writes.push(projectId);
      },
    });
    buffer.add(check());
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(writes).toEqual(["prj_1"]);
    for (let i = 0; i < 3; i++) buffer.add(check({ projectId: "prj_3" }));
    await Promise.resolve();
    expect(writes).toEqual(["prj_1", "prj_3"]);
    await buffer.close();
    buffer.add(check());
    await buffer.flush();
    expect(writes).toHaveLength(2);
  });

  it("logs a failed write instead of throwing, and keeps going", async () => {
    const warnings: string[] = [];
    const warnLogger = pino(
      { level: "warn" },
      { write: (line: string) => void warnings.push(line) },
    );
    let fail = true;
    const written: string[] = [];
    const buffer = createCheckMetricsBuffer({
      logger: warnLogger,
      write: async (projectId) => {
        if (fail) throw new Error("The ingestion queue is full");
        written.push(projectId);
      },
    });
    buffer.add(check());
    await expect(buffer.flush()).resolves.toBeUndefined();
    expect(warnings.join("")).toContain("monitor check metrics were not written");
    fail = false;
    buffer.add(check());
    await buffer.close();
    expect(written).toEqual(["prj_1"]);
  });
});
