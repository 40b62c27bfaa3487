import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

describe("operability endpoints", () => {
  const dir = makeTempDir();
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(dir.path);
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("answers liveness and readiness", async () => {
    expect(await (await service.fetch("/healthz")).json()).toEqual({ status: "ok" });
    const ready = await service.fetch("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: "ready",
      checks: {
        meta: { ok: true },
        telemetry: {
          ok: true,
          degraded: false,
          writeWaitMs: expect.any(Number),
          ingestWaitMs: expect.any(Number),
          ingestQueuedRows: 0,
        },
      },
    });
  });

  it("puts an X-Request-Id on every response, keeping a well-formed incoming one", async () => {
    const generated = await service.fetch("/healthz");
    expect(generated.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
    const echoed = await service.fetch("/healthz", {
      headers: { "x-request-id": "trace-abc.123" },
    });
    expect(echoed.headers.get("x-request-id")).toBe("trace-abc.123");
    const replaced = await service.fetch("/healthz", {
      headers: { "x-request-id": "bad id<script>" },
    });
    expect(replaced.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("answers unknown routes with a problem+json 404", async () => {
    const response = await service.fetch("/nope?secret=1");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      type: "urn:vigil:problem:not_found",
      title: "Not Found",
      status: 404,
      detail: "No route for GET /nope",
      code: "not_found",
      requestId: response.headers.get("x-request-id"),
    });
  });

  it("answers a malformed JSON body with a problem+json 400 and an oversized one with 413", async () => {
    const malformed = await service.fetch("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get("content-type")).toContain("application/problem+json");
    const huge = await service.fetch("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "a@b.co", password: "x".repeat(2 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { code: string }).code).toBe("payload_too_large");
  });

  it("exports Prometheus metrics for requests and store queries", async () => {
    await service.fetch("/readyz");
    const text = await (await service.fetch("/metrics")).text();
    expect(text).toMatch(
      /vigil_http_requests_total\{method="GET",route="\/readyz",status="200"\} \d+/,
    );
    expect(text).toContain("vigil_http_request_duration_seconds_bucket");
    expect(text).toMatch(
      /vigil_store_query_duration_seconds_count\{store="meta",operation="query",outcome="ok"\} \d+/,
    );
    expect(text).toMatch(
      /vigil_store_query_duration_seconds_count\{store="telemetry",operation="ping",outcome="ok"\} \d+/,
    );
  });

  it("serves the OpenAPI 3.1 document generated from the schemas, and the docs page", async () => {
    const doc = (await (await service.fetch("/openapi.json")).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/auth/login",
        "/api/auth/me",
        "/api/projects",
        "/api/projects/{projectId}/api-keys",
        "/api/projects/{projectId}/api-keys/{keyId}",
        "/v1/whoami",
        "/healthz",
        "/readyz",
      ]),
    );
    expect(doc.paths["/api/auth/login"]?.post?.requestBody).toBeDefined();
    expect(Object.keys(doc.components.securitySchemes)).toEqual(["apiKey", "session"]);
    const page = await service.fetch("/docs/");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("swagger");
  });
});
