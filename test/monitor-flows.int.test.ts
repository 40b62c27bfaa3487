import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import type { Agent } from "undici";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CreateMonitorInput } from "../src/contracts/monitors.js";
import { createOutboundAgent } from "../src/lib/http/outbound-agent.js";
import type { CheckResult } from "../src/monitors/check-result.js";
import { type HttpDefinition, toDefinition } from "../src/monitors/definition.js";
import { type RunnerDeps, runCheck, substituteVariables } from "../src/monitors/runner.js";

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Every request the server got, in order (reset before each test). */
let received: Received[] = [];
let server: Server;
let base: string;
let agent: Agent;

const FAILURE_BODY = "é".repeat(300); // 600 bytes of UTF-8

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const request = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      received.push(request);
      const path = new URL(request.url, "http://localhost").pathname;
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
      if (path === "/login") json(200, { token: "tok-123", user: { id: 7, roles: ["admin"] } });
      else if (path.startsWith("/echo")) json(200, request);
      else if (path === "/items/7") json(200, { id: 7, name: "seven" });
      else if (path === "/redirect") res.writeHead(302, { location: "/echo/redirected" }).end();
      else if (path === "/big") res.end(`${"x".repeat(10_000)}END`);
      else if (path === "/gzip")
        res
          .writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" })
          .end(gzipSync(JSON.stringify({ compressed: "yes" })));
      else if (path === "/fail") res.writeHead(500).end(FAILURE_BODY);
      else json(404, { error: "not found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agent = createOutboundAgent({ allowPrivateNetworks: true });
});

beforeEach(() => {
  received = [];
});

afterAll(async () => {
  await agent.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

type StepInput = Record<string, unknown> & { url: string };

function flow(steps: StepInput[]): HttpDefinition {
  return toDefinition(
    CreateMonitorInput.parse({
      name: "flow",
      type: "flow",
      steps: steps.map((step) => ({ ...step, url: base + step.url })),
    }),
  ) as HttpDefinition;
}

function run(definition: HttpDefinition, deps: Partial<RunnerDeps> = {}): Promise<CheckResult> {
  return runCheck(definition, {
    dispatcher: agent,
    clock: { now: () => new Date("2025-01-02T03:04:05.678Z") },
    maxResponseBytes: 1 << 20,
    storedBodyBytes: 10_240,
    ...deps,
  });
}

const status200 = { type: "status_code", operator: "equals", value: "200" } as const;

describe("variables", () => {
  it("values extracted by a step reach a later step's URL, headers and body", async () => {
    const result = await run(
      flow([
        {
          name: "login",
          method: "POST",
          url: "/login",
          body: "{}",
          assertions: [status200],
          extract: [
            { name: "token", path: "$.token" },
            { name: "user.id", path: "$.user.id" },
            { name: "roles", path: "$.user.roles" },
          ],
        },
        {
          name: "use",
          method: "POST",
          url: "/echo/{{user.id}}?t={{token}}",
          headers: [
            { name: "authorization", value: "Bearer {{ token }}" },
            { name: "content-type", value: "application/json" },
          ],
          body: '{"token":"{{token}}","roles":{{roles}}}',
          assertions: [
            status200,
            { type: "json_path", path: "$.url", operator: "equals", value: "/echo/7?t=tok-123" },
            {
              type: "json_path",
              path: "$.headers.authorization",
              operator: "equals",
              value: "Bearer tok-123",
            },
            {
              type: "json_path",
              path: "$.body",
              operator: "equals",
              value: '{"token":"tok-123","roles":["admin"]}',
            },
          ],
        },
      ]),
    );
    expect(result.steps.map((s) => s.status)).toEqual(["passed", "passed"]);
    expect(result.passed).toBe(true);
    expect(result.steps[0]?.extracted).toEqual({
      token: "tok-123",
      "user.id": "7",
      roles: '["admin"]',
    });
    expect(result.steps[1]?.url).toBe(`${base}/echo/7?t=tok-123`);
    expect(received[1]).toMatchObject({
      method: "POST",
      url: "/echo/7?t=tok-123",
      body: '{"token":"tok-123","roles":["admin"]}',
    });
    expect(received[1]?.headers.authorization).toBe("Bearer tok-123");
  });

  it("an unresolved extraction leaves {{name}} literal and the dependent step fails on its own assertions", async () => {
    const result = await run(
      flow([
        { url: "/login", assertions: [status200], extract: [{ name: "id", path: "$.user.nope" }] },
        { url: "/items/{{id}}", assertions: [status200] },
        { url: "/echo/after", assertions: [status200] },
      ]),
    );
    const [first, second, third] = result.steps;
    expect(first?.status).toBe("passed");
    expect(first?.extracted).toEqual({});
    expect(second?.url).toBe(`${base}/items/{{id}}`);
    expect(second?.status).toBe("failed");
    expect(second?.transportError).toBeNull();
    expect(second?.statusCode).toBe(404);
    expect(second?.assertions[0]).toMatchObject({ passed: false, actual: "404" });
    expect(third?.status).toBe("skipped");
    expect(received.map((r) => r.url)).toEqual(["/login", "/items/%7B%7Bid%7D%7D"]);
  });

  it("substitutes only names that are set, with or without spaces in the braces", () => {
    const variables = new Map([
      ["a", "1"],
      ["b.c", "2"],
    ]);
    expect(substituteVariables("{{a}}/{{ b.c }}/{{missing}}/{{ a}}/{a}", variables)).toBe(
      "1/2/{{missing}}/1/{a}",
    );
  });
});

describe("a failed step", () => {
  it("skips every remaining step, which keep their URL as defined", async () => {
    const result = await run(
      flow([
        { url: "/login", assertions: [status200], extract: [{ name: "token", path: "$.token" }] },
        { url: "/fail", assertions: [status200] },
        { method: "POST", url: "/echo/{{token}}", body: "x", assertions: [status200] },
        { url: "/echo/last", assertions: [status200] },
      ]),
    );
    expect(result.passed).toBe(false);
    expect(result.steps.map((s) => s.status)).toEqual(["passed", "failed", "skipped", "skipped"]);
    expect(result.steps[2]).toEqual({
      name: "Step 3",
      status: "skipped",
      method: "POST",
      url: `${base}/echo/{{token}}`,
      statusCode: null,
      durationMs: null,
      transportError: null,
      assertions: [],
      extracted: {},
      responseBody: null,
      responseBodyTruncated: false,
    });
    expect(received).toHaveLength(2);
  });

  it("does not extract anything", async () => {
    const result = await run(
      flow([
        {
          url: "/login",
          assertions: [{ type: "status_code", operator: "equals", value: "201" }],
          extract: [{ name: "token", path: "$.token" }],
        },
        { url: "/echo/{{token}}", assertions: [status200] },
      ]),
    );
    expect(result.steps[0]?.status).toBe("failed");
    expect(result.steps[0]?.extracted).toEqual({});
    expect(result.steps[1]?.status).toBe("skipped");
  });

  it("keeps its response body, cut to storedBodyBytes without splitting a character", async () => {
    const result = await run(
      flow([
        { url: "/echo/ok", assertions: [status200] },
        { url: "/fail", assertions: [status200] },
      ]),
      { storedBodyBytes: 101 },
    );
    const [passed, failed] = result.steps;
    expect(passed?.responseBody).toBeNull();
    expect(passed?.responseBodyTruncated).toBe(false);
    expect(failed?.responseBody).toBe("é".repeat(50));
    expect(failed?.responseBodyTruncated).toBe(true);
  });

  it("keeps a short body whole", async () => {
    const result = await run(flow([{ url: "/fail", assertions: [status200] }]));
    expect(result.steps[0]?.responseBody).toBe(FAILURE_BODY);
    expect(result.steps[0]?.responseBodyTruncated).toBe(false);
  });
});

describe("tracing", () => {
  it("sends one trace id per check and a new span id per request", async () => {
    const result = await run(
      flow([
        { url: "/echo/1", assertions: [status200] },
        { url: "/echo/2", assertions: [status200] },
      ]),
    );
    expect(result.traceId).toMatch(/^[0-9a-f]{32}$/);
    const parents = received.map((r) => String(r.headers.traceparent));
    expect(parents).toHaveLength(2);
    const parsed = parents.map((p) => /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(p));
    expect(parsed[0]?.[1]).toBe(result.traceId);
    expect(parsed[1]?.[1]).toBe(result.traceId);
    expect(parsed[0]?.[2]).not.toBe(parsed[1]?.[2]);
    expect(received[0]?.headers["user-agent"]).toBe("Vigil-Monitor/1.0");
  });

  it("never sends an all-zero id, and takes a new trace id per check", async () => {
    const zeros = await run(flow([{ url: "/echo", assertions: [status200] }]), {
      randomBytes: (n) => Buffer.alloc(n),
    });
    expect(zeros.traceId).not.toMatch(/^0+$/);
    expect(received[0]?.headers.traceparent).toMatch(/^00-0{31}1-0{15}1-01$/);
    const again = await run(flow([{ url: "/echo", assertions: [status200] }]));
    const another = await run(flow([{ url: "/echo", assertions: [status200] }]));
    expect(again.traceId).not.toBe(another.traceId);
  });
});

describe("responses", () => {
  it("follows redirects by default", async () => {
    const result = await run(
      flow([
        {
          url: "/redirect",
          assertions: [
            status200,
            { type: "json_path", path: "$.url", operator: "equals", value: "/echo/redirected" },
          ],
        },
      ]),
    );
    expect(result.passed).toBe(true);
  });

  it("returns the redirect itself when followRedirects is false", async () => {
    const result = await run(
      flow([
        {
          url: "/redirect",
          followRedirects: false,
          assertions: [
            { type: "status_code", operator: "equals", value: "302" },
            { type: "header", name: "Location", operator: "equals", value: "/echo/redirected" },
          ],
        },
      ]),
    );
    expect(result.passed).toBe(true);
    expect(received).toHaveLength(1);
  });

  it("reads at most maxResponseBytes of a body", async () => {
    const result = await run(
      flow([
        {
          url: "/big",
          assertions: [status200, { type: "body_contains", operator: "contains", value: "END" }],
        },
      ]),
      { maxResponseBytes: 1024 },
    );
    const step = result.steps[0];
    expect(step?.status).toBe("failed");
    expect(step?.assertions.map((a) => a.passed)).toEqual([true, false]);
    expect(step?.responseBody).toBe("x".repeat(1024));
    expect(step?.responseBodyTruncated).toBe(true);
  });

  it("decompresses a gzip response", async () => {
    const result = await run(
      flow([
        {
          url: "/gzip",
          assertions: [
            { type: "json_path", path: "$.compressed", operator: "equals", value: "yes" },
            { type: "header", name: "content-encoding", operator: "equals", value: "gzip" },
          ],
        },
      ]),
    );
    expect(result.passed).toBe(true);
    expect(received[0]?.headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  it("totals the check's duration over its steps and records when it started", async () => {
    const result = await run(
      flow([
        { url: "/echo/1", assertions: [status200] },
        { url: "/echo/2", assertions: [status200] },
        { url: "/fail", assertions: [status200] },
        { url: "/echo/3", assertions: [status200] },
      ]),
    );
    const durations = result.steps.map((s) => s.durationMs);
    expect(durations[3]).toBeNull();
    expect(result.durationMs).toBe(durations.reduce<number>((sum, d) => sum + (d ?? 0), 0));
    for (const d of durations.slice(0, 3)) expect(Number.isInteger(d)).toBe(true);
    expect(result.startedAt).toBe("2025-01-02T03:04:05.678Z");
  });

  it("a transport error in a flow fails the step without assertions and skips the rest", async () => {
    const result = await run(
      toDefinition(
        CreateMonitorInput.parse({
          name: "flow",
          type: "flow",
          steps: [
            { url: "http://nonexistent.invalid/", assertions: [status200] },
            { url: `${base}/echo`, assertions: [status200] },
          ],
        }),
      ) as HttpDefinition,
    );
    expect(result.steps[0]).toMatchObject({
      status: "failed",
      statusCode: null,
      assertions: [],
      responseBody: null,
      transportError: { code: "dns" },
    });
    expect(result.steps[1]?.status).toBe("skipped");
  });

  it("a cancelled check fails the running step with code aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runCheck(
      flow([{ url: "/echo", assertions: [status200] }]),
      {
        dispatcher: agent,
        clock: { now: () => new Date() },
        maxResponseBytes: 1024,
        storedBodyBytes: 1024,
      },
      { signal: controller.signal },
    );
    expect(result.steps[0]?.transportError?.code).toBe("aborted");
    expect(result.passed).toBe(false);
  });
});
