import { createApiKey, revokeApiKey } from "../../src/auth/api-keys.js";
import { systemCtx } from "../../src/context.js";
import type { CreateApiKeyInput } from "../../src/contracts/auth.js";
import { initialize } from "../../src/setup/initialize.js";
import { hexId, type LogSpec, logsBody, type SpanSpec, sendOtlp, tracesBody } from "./otlp.js";
import { startTestService, type TestService } from "./test-service.js";

/**
 * Hand-built browser sessions for the sessions and traffic tests, sent through real OTLP
 * ingestion so the sessions table is derived as in production. Times are offsets from BASE,
 * an hour boundary six hours before the test started (inside every default window).
 */
export const SEC = 1000;
export const MIN = 60 * SEC;
export const HOUR = 60 * MIN;
export const BASE = Math.floor(Date.now() / HOUR) * HOUR - 6 * HOUR;

export const UA = {
  chromeWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  firefoxLinux: "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  chromeAndroid:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
};

export const TRACE_A = hexId(0xa, 32);
export const TRACE_B = hexId(0xb, 32);
const REFERER = "http.request.header.referer";
const COUNTRY = "client.geo.country.iso_code";
const WEB = { "telemetry.sdk.language": "webjs" };

/** Several resources (services) in one export request, so they land in one ingest batch. */
const traces = (...bodies: ReturnType<typeof tracesBody>[]) => ({
  resourceSpans: bodies.flatMap((b) => b.resourceSpans),
});
/** A span or log record of the given session. */
export const sessionSpan = (
  s: Omit<SpanSpec, "attributes"> & { attributes?: SpanSpec["attributes"] },
  session: string,
) => ({
  ...s,
  attributes: { "session.id": session, ...s.attributes },
});
export const sessionLog = (l: LogSpec, session: string): LogSpec => ({
  ...l,
  attributes: { "session.id": session, ...l.attributes },
});

/** Project A: five sessions. sess-alpha arrives in two requests (two partial rows). */
export async function sendProjectA(service: TestService, key: string): Promise<void> {
  const alpha = "sess-alpha";
  await sendOtlp(
    service,
    key,
    "traces",
    traces(
      tracesBody(
        "web-frontend",
        [
          sessionSpan(
            {
              traceId: TRACE_A,
              spanId: hexId(0x11, 16),
              name: "GET /",
              startMs: BASE,
              durationMs: 100,
              attributes: {
                "user.id": "u1",
                "page.path": "/",
                [COUNTRY]: "us",
                [REFERER]: "https://www.google.com/search?q=vigil",
              },
            },
            alpha,
          ),
        ],
        WEB,
      ),
      tracesBody("api-gateway", [
        sessionSpan(
          {
            traceId: TRACE_A,
            spanId: hexId(0x12, 16),
            parentSpanId: hexId(0x11, 16),
            name: "POST /api/pay",
            startMs: BASE + 10,
            durationMs: 50,
            kind: 2,
            error: true,
            events: [
              {
                name: "exception",
                timeMs: BASE + 40,
                attributes: {
                  "exception.type": "PaymentError",
                  "exception.message": "card declined",
                },
              },
              { name: "retry", timeMs: BASE + 42, attributes: {} },
              {
                name: "exception",
                timeMs: BASE + 45,
                attributes: { "exception.type": "RetryError", "exception.message": "retry failed" },
              },
            ],
          },
          alpha,
        ),
        // Two spans and an AI span at the same instant as a log: the timeline's tie order.
        sessionSpan(
          {
            traceId: TRACE_B,
            spanId: hexId(0x16, 16),
            name: "GET /api/flaky",
            startMs: BASE + 30 * SEC,
            durationMs: 5,
            error: true,
          },
          alpha,
        ),
        sessionSpan(
          {
            traceId: TRACE_B,
            spanId: hexId(0x15, 16),
            name: "GET /api/health",
            startMs: BASE + 30 * SEC,
            durationMs: 2,
          },
          alpha,
        ),
      ]),
      tracesBody("assistant", [
        sessionSpan(
          {
            traceId: TRACE_B,
            spanId: hexId(0x14, 16),
            name: "chat gpt-4o-mini",
            startMs: BASE + 30 * SEC,
            durationMs: 800,
            kind: 3,
            attributes: {
              "gen_ai.operation.name": "chat",
              "gen_ai.provider.name": "openai",
              "gen_ai.request.model": "gpt-4o-mini",
              "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
              "gen_ai.usage.input_tokens": 100,
              "gen_ai.usage.output_tokens": 50,
            },
          },
          alpha,
        ),
      ]),
    ),
  );
  await sendOtlp(
    service,
    key,
    "logs",
    logsBody(
      "web-frontend",
      [
        sessionLog(
          {
            timeMs: BASE + 30 * SEC,
            severityNumber: 9,
            body: "checkout opened",
            attributes: { "page.path": "/orders/checkout" },
          },
          alpha,
        ),
        sessionLog(
          {
            timeMs: BASE + 90 * MIN,
            severityNumber: 17,
            body: "payment service unavailable",
            attributes: { "page.path": "/orders" },
          },
          alpha,
        ),
      ],
      { ...WEB, "user_agent.original": UA.chromeWindows },
    ),
  );

  const beta = "sess-beta";
  const betaAttrs = { "user.id": "u2", "page.path": "/", [COUNTRY]: "DE" };
  await sendOtlp(
    service,
    key,
    "traces",
    tracesBody(
      "web-frontend",
      [0, 1 * MIN, 5 * MIN].map((offset, i) =>
        sessionSpan(
          {
            traceId: hexId(0x20 + i, 32),
            spanId: hexId(0x21 + i, 16),
            name: "GET /",
            startMs: BASE + 2 * HOUR + offset,
            durationMs: 20,
            attributes: betaAttrs,
          },
          beta,
        ),
      ),
      { ...WEB, "user_agent.original": UA.firefoxLinux },
    ),
  );

  const gamma = "sess-gamma";
  await sendOtlp(
    service,
    key,
    "logs",
    logsBody(
      "web-frontend",
      [
        sessionLog(
          {
            timeMs: BASE + 4 * HOUR,
            severityNumber: 9,
            body: "assistant opened",
            attributes: {
              "user.id": "u1",
              "page.path": "/assistant",
              [COUNTRY]: "FR",
              [REFERER]: "https://t.co/abc",
            },
          },
          gamma,
        ),
        sessionLog(
          {
            timeMs: BASE + 4 * HOUR + 10 * MIN,
            severityNumber: 21,
            body: "app crashed",
            attributes: { "page.path": "/orders" },
          },
          gamma,
        ),
      ],
      { ...WEB, "user_agent.original": UA.safariIphone },
    ),
  );
  await sendOtlp(
    service,
    key,
    "traces",
    tracesBody("api-gateway", [
      sessionSpan(
        {
          traceId: hexId(0x30, 32),
          spanId: hexId(0x31, 16),
          name: "GET /api/answer",
          startMs: BASE + 4 * HOUR + MIN,
          durationMs: 30,
          kind: 2,
        },
        gamma,
      ),
    ]),
  );

  await sendOtlp(
    service,
    key,
    "traces",
    tracesBody("orders-service", [
      sessionSpan(
        {
          traceId: hexId(0x40, 32),
          spanId: hexId(0x41, 16),
          name: "process job",
          startMs: BASE + HOUR,
          durationMs: 7,
        },
        "sess-delta",
      ),
    ]),
  );

  await sendOtlp(
    service,
    key,
    "traces",
    tracesBody(
      "web-frontend",
      [
        sessionSpan(
          {
            traceId: hexId(0x50, 32),
            spanId: hexId(0x51, 16),
            name: "GET /",
            startMs: BASE + 5 * HOUR,
            durationMs: 40,
            attributes: {
              "user.id": "u3",
              "page.path": "/",
              [COUNTRY]: "US",
              [REFERER]: "https://www.google.com/",
            },
          },
          "sess-epsilon",
        ),
      ],
      { ...WEB, "user_agent.original": UA.chromeAndroid },
    ),
  );
}

/** Project B: a session with the same id as one of A's, and one of its own. */
export async function sendProjectB(service: TestService, key: string): Promise<void> {
  await sendOtlp(
    service,
    key,
    "traces",
    tracesBody(
      "intruder-web",
      [
        sessionSpan(
          {
            traceId: hexId(0xb0, 32),
            spanId: hexId(0xb1, 16),
            name: "GET /secret",
            startMs: BASE + 10 * MIN,
            durationMs: 1,
            error: true,
            attributes: { "user.id": "intruder", "page.path": "/secret", [COUNTRY]: "JP" },
          },
          "sess-alpha",
        ),
      ],
      { ...WEB, "user_agent.original": UA.firefoxLinux },
    ),
  );
  await sendOtlp(
    service,
    key,
    "logs",
    logsBody("intruder-api", [
      sessionLog({ timeMs: BASE + 3 * HOUR, severityNumber: 9, body: "omega" }, "sess-omega"),
    ]),
  );
}

/** A service with projects A and B ingested (C exists, empty), and a way to mint keys. */
export async function startSessionsService(dataDir: string) {
  const service = await startTestService(dataDir);
  const setup = await initialize({
    ctx: systemCtx(service.deps.domain),
    input: {
      email: "sessions@example.com",
      password: "correct horse battery",
    },
  });
  const system = { deps: service.deps.domain, actor: { kind: "system" as const } };
  const project = (id: string) =>
    service.deps.domain.meta.repos.projects.insert({
      id,
      orgId: setup.orgId,
      name: id,
      createdAt: new Date().toISOString(),
    });
  const newKey = async (
    projectId: string,
    input: CreateApiKeyInput = { name: "k", role: "read_only" },
  ) => {
    const created = await createApiKey({ ctx: system, projectId, input });
    return { id: created.id, key: created.key };
  };
  const projectB = (await project("prj_sessions_b")).id;
  const projectC = (await project("prj_sessions_c")).id;
  await sendProjectA(service, setup.apiKey ?? "");
  await sendProjectB(service, (await newKey(projectB, { name: "b", role: "ingest" })).key);
  const revoke = (keyId: string, projectId: string) =>
    revokeApiKey({ ctx: system, keyId, projectId });
  return { service, projectA: setup.projectId, projectB, projectC, newKey, revoke };
}

/** GETs a path with a key; the body parsed as JSON. */
export async function getJson<T = Record<string, unknown>>(
  service: TestService,
  path: string,
  key: string | undefined,
): Promise<{ status: number; body: T }> {
  const response = await service.fetch(
    path,
    key === undefined ? {} : { headers: { "x-api-key": key } },
  );
  return { status: response.status, body: (await response.json()) as T };
}
