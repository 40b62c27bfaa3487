import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable } from "./helpers/browser.js";
import { tracesBody } from "./helpers/otlp.js";
import { openRaw, trickle, within } from "./helpers/raw-http.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const BODY_TIMEOUT_S = 1;
const REQUEST_TIMEOUT_S = 10;
// Plus the timer's own delay and scheduling on a busy machine.
const SLACK_MS = 1500;
const METRICS_TOKEN = "metrics-token-for-the-test-0123";

describe("small bodies, response headers and the metrics token", () => {
  const dir = makeTempDir();
  let service: TestService;
  let port: number;
  let key: string;

  beforeAll(async () => {
    service = await startTestService(dir.path, {
      VIGIL_HTTP_BODY_TIMEOUT_SECONDS: String(BODY_TIMEOUT_S),
      VIGIL_HTTP_REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_S),
      VIGIL_HTTP_HEADERS_TIMEOUT_SECONDS: "5",
      VIGIL_METRICS_TOKEN: METRICS_TOKEN,
    });
    port = Number(new URL(service.url).port);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "owner@example.com",
        password: "correct horse battery",
      },
    });
    key = setup.apiKey ?? "";
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("answers a small body that trickles in with a 408 problem within the body timeout, and closes", async () => {
    const client = await openRaw(port);
    client.socket.write(
      "POST /api/auth/login HTTP/1.1\r\nHost: vigil.test\r\nContent-Type: application/json\r\n" +
        "Content-Length: 1000\r\n\r\n{",
    );
    trickle(client, () => " ", 200);
    const elapsed = await within(client.closed, BODY_TIMEOUT_S * 1000 + SLACK_MS);
    expect(elapsed).toBeLessThan(BODY_TIMEOUT_S * 1000 + SLACK_MS);
    expect(elapsed).toBeGreaterThanOrEqual(BODY_TIMEOUT_S * 1000 - 50);
    const [head = "", body = ""] = client.received().split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(head).toMatch(/\r\ncontent-type: application\/problem\+json/i);
    expect(head).toMatch(/\r\nconnection: close/i);
    expect(head).toMatch(/\r\nx-content-type-options: nosniff/i);
    expect(JSON.parse(body)).toMatchObject({
      status: 408,
      code: "request_timeout",
      detail: `The request body did not arrive within ${BODY_TIMEOUT_S} s`,
    });
  }, 10_000);

  it("reads a small body that arrives in time as usual", async () => {
    const client = await openRaw(port);
    const body = JSON.stringify({ email: "owner@example.com", password: "wrong password" });
    client.socket.write(
      "POST /api/auth/login HTTP/1.1\r\nHost: vigil.test\r\nContent-Type: application/json\r\n" +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, (BODY_TIMEOUT_S * 1000) / 2));
    client.socket.write(body.slice(10));
    await within(client.closed, 5000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 401 /);
  }, 10_000);

  it("gives OTLP bodies the request timeout, not the body timeout", async () => {
    const body = JSON.stringify(
      tracesBody("slow-link", [
        {
          traceId: "a".repeat(32),
          spanId: "b".repeat(16),
          name: "op",
          startMs: Date.now(),
          durationMs: 5,
        },
      ]),
    );
    const client = await openRaw(port);
    client.socket.write(
      `POST /v1/traces HTTP/1.1\r\nHost: vigil.test\r\nX-API-Key: ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    // Over twice the body timeout, in pieces.
    const pieces = 5;
    const size = Math.ceil(body.length / pieces);
    for (let i = 0; i < pieces; i++) {
      await new Promise((resolve) => setTimeout(resolve, (BODY_TIMEOUT_S * 1000 * 2.5) / pieces));
      client.socket.write(body.slice(i * size, (i + 1) * size));
    }
    await within(client.closed, 5000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
  }, 15_000);

  it("sends nosniff on every kind of response", async () => {
    const longId = "x".repeat(300);
    const responses = {
      json: await service.fetch("/healthz"),
      problem: await service.fetch("/api/nothing-here"),
      unauthorized: await service.fetch("/v1/logs"),
      tooLong: await service.fetch(`/v1/traces/${longId}`, { headers: { "x-api-key": key } }),
      html: await service.fetch("/docs"),
      asset: await service.fetch("/docs/static/swagger-ui.css"),
      openapi: await service.fetch("/openapi.json"),
      metrics: await service.fetch("/metrics"),
    };
    // Read whole: a response left unread holds its connection, and the service's stop waits for it.
    await Promise.all(Object.values(responses).map((r) => r.arrayBuffer()));
    expect(
      Object.fromEntries(
        Object.entries(responses).map(([name, r]) => [
          name,
          `${r.status} ${r.headers.get("x-content-type-options")}`,
        ]),
      ),
    ).toEqual({
      json: "200 nosniff",
      problem: "404 nosniff",
      unauthorized: "401 nosniff",
      tooLong: "414 nosniff",
      html: "200 nosniff",
      asset: "200 nosniff",
      openapi: "200 nosniff",
      metrics: "401 nosniff",
    });
  });

  it("serves /docs and its assets with a CSP that forbids framing", async () => {
    const page = await service.fetch("/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-eval");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(assets).toEqual(
      expect.arrayContaining([expect.stringMatching(/swagger-ui-bundle\.js$/)]),
    );
    for (const asset of [...assets, "/docs/json"]) {
      const response = await service.fetch(new URL(asset, `${service.url}/docs`).pathname);
      expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
      expect(response.headers.get("content-security-policy")).toBe(csp);
      await response.arrayBuffer();
    }
    // The rest of the app is not the docs page: no CSP of its own there.
    const health = await service.fetch("/healthz");
    await health.arrayBuffer();
    expect(health.headers.get("content-security-policy")).toBeNull();
  });

  it("answers /metrics only with the token", async () => {
    const metrics = (authorization?: string) =>
      service.fetch("/metrics", authorization ? { headers: { authorization } } : {});
    const refused = await metrics();
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await refused.text()).not.toContain("vigil_");
    for (const wrong of [
      `Bearer ${METRICS_TOKEN}x`,
      `Bearer ${METRICS_TOKEN.slice(0, -1)}`,
      `Basic ${METRICS_TOKEN}`,
      METRICS_TOKEN,
      `Bearer ${key}`,
    ]) {
      const answer = await metrics(wrong);
      await answer.arrayBuffer();
      expect(answer.status).toBe(401);
    }
    const allowed = await metrics(`Bearer ${METRICS_TOKEN}`);
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toMatch(/^vigil_http_connections_refused_total \d+$/m);
    expect(service.logs.join("")).not.toContain(METRICS_TOKEN);
  });

  it.skipIf(!chromiumAvailable)(
    "renders /docs in Chromium under its CSP, and refuses to be framed",
    async () => {
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      try {
        const page = await browser.newPage();
        const violations: string[] = [];
        page.on("console", (message) => {
          if (message.text().includes("Content Security Policy")) violations.push(message.text());
        });
        page.on("pageerror", (error) => violations.push(error.message));
        await page.goto(`${service.url}/docs`);
        await page.locator(".swagger-ui .info .title").getByText("Vigil API").waitFor();
        expect(await page.locator(".opblock").count()).toBeGreaterThan(10);
        expect(violations).toEqual([]);

        // A page elsewhere that frames the docs gets an empty frame.
        const refused = page.waitForEvent("console", {
          predicate: (message) => message.text().includes("frame-ancestors 'none'"),
          timeout: 10_000,
        });
        await page.setContent(`<iframe src="${service.url}/docs"></iframe>`);
        await refused;
        const frame = page.frames().find((f) => f !== page.mainFrame());
        expect(frame ? await frame.locator(".swagger-ui").count() : 0).toBe(0);
      } finally {
        await browser.close();
      }
    },
    30_000,
  );
});
