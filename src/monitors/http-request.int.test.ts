import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import type { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboundAgent } from "../lib/http/outbound-agent.js";
import {
  describeTransportError,
  type ExecuteOptions,
  executeRequest,
  type HttpRequestSpec,
} from "./http-request.js";

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

const received: Received[] = [];
let server: Server;
let other: Server;
let base: string;
let otherBase: string;
let agent: Agent;

const JSON_BODY = JSON.stringify({ compressed: "yes", text: "ünïcødé" });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function route(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
  const url = new URL(req.url ?? "/", base);
  const path = url.pathname;
  if (path === "/echo") {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
  } else if (path === "/headers") {
    res.setHeader("X-Multi", ["a", "b"]);
    res.setHeader("Set-Cookie", ["one=1; Path=/", "two=2; Path=/"]);
    res.setHeader("X-Mixed-Case", "Value");
    res.end("ok");
  } else if (path === "/gzip") {
    res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync(JSON_BODY));
  } else if (path === "/deflate") {
    res.writeHead(200, { "content-encoding": "deflate" }).end(deflateSync(JSON_BODY));
  } else if (path === "/deflate-raw") {
    res.writeHead(200, { "content-encoding": "deflate" }).end(deflateRawSync(JSON_BODY));
  } else if (path === "/br") {
    res.writeHead(200, { "content-encoding": "br" }).end(brotliCompressSync(JSON_BODY));
  } else if (path === "/unknown-encoding") {
    res.writeHead(200, { "content-encoding": "zstd" }).end("raw bytes");
  } else if (path === "/corrupt-gzip") {
    res.writeHead(200, { "content-encoding": "gzip" }).end("this is not gzip");
  } else if (path === "/bomb") {
    // 16 MB of zeros compress to ~16 KB: the reader must stop at the limit.
    res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync(Buffer.alloc(16 << 20)));
  } else if (path === "/big") {
    res.end("é".repeat(100_000));
  } else if (path === "/redirect") {
    const to = url.searchParams.get("to") ?? "/echo";
    const status = Number(url.searchParams.get("status") ?? 302);
    res.writeHead(status, { location: to }).end("moved");
  } else if (path === "/chain") {
    const n = Number(url.searchParams.get("n"));
    res.writeHead(302, { location: n > 1 ? `/chain?n=${n - 1}` : "/echo" }).end();
  } else if (path === "/loop") {
    res.writeHead(302, { location: "/loop" }).end();
  } else if (path === "/slow") {
    await sleep(Number(url.searchParams.get("ms")));
    if (url.searchParams.has("then")) res.writeHead(302, { location: "/slow?ms=200" }).end();
    else res.end("slow");
  } else if (path === "/stall-body") {
    res.writeHead(200, { "content-length": "100" });
    res.write("partial");
  } else if (path === "/reset") {
    req.socket.destroy();
  } else {
    res.writeHead(404).end("not found");
  }
}

function startServer(): Promise<Server> {
  const s = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      void route(req, res, body);
    });
  });
  return new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve(s)));
}

beforeAll(async () => {
  server = await startServer();
  other = await startServer();
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  agent = createOutboundAgent({ allowPrivateNetworks: true });
});

afterAll(async () => {
  await agent.close();
  server.closeAllConnections();
  other.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => other.close(resolve));
});

const TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

function run(
  spec: Partial<HttpRequestSpec> & { url: string },
  options: Partial<ExecuteOptions> = {},
) {
  return executeRequest(
    { method: "GET", headers: [], followRedirects: true, ...spec },
    {
      dispatcher: agent,
      timeoutMs: 5000,
      maxResponseBytes: 1 << 20,
      traceparent: TRACEPARENT,
      ...options,
    },
  );
}

async function ok(spec: Parameters<typeof run>[0], options: Partial<ExecuteOptions> = {}) {
  const result = await run(spec, options);
  if (!result.ok) throw new Error(`expected a response, got ${JSON.stringify(result.error)}`);
  return result.response;
}

async function failure(spec: Parameters<typeof run>[0], options: Partial<ExecuteOptions> = {}) {
  const result = await run(spec, options);
  if (result.ok)
    throw new Error(`expected a transport error, got status ${result.response.status}`);
  return result;
}

const echoed = (body: string) => JSON.parse(body) as Received;

describe("executeRequest: headers", () => {
  it("sends traceparent, user-agent and accept-encoding by default", async () => {
    const { headers } = echoed((await ok({ url: `${base}/echo` })).body);
    expect(headers.traceparent).toBe(TRACEPARENT);
    expect(headers["user-agent"]).toBe("Vigil-Monitor/1.0");
    expect(headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  it("keeps the request's own traceparent, user-agent and accept-encoding", async () => {
    const response = await ok({
      url: `${base}/echo`,
      headers: [
        { name: "TraceParent", value: "00-11111111111111111111111111111111-2222222222222222-00" },
        { name: "User-Agent", value: "custom/2" },
        { name: "Accept-Encoding", value: "identity" },
        { name: "x-twice", value: "1" },
        { name: "x-twice", value: "2" },
      ],
    });
    const { headers } = echoed(response.body);
    expect(headers.traceparent).toBe("00-11111111111111111111111111111111-2222222222222222-00");
    expect(headers["user-agent"]).toBe("custom/2");
    expect(headers["accept-encoding"]).toBe("identity");
    expect(headers["x-twice"]).toBe("1, 2");
  });

  it("lower-cases response header names and joins repeated ones", async () => {
    const response = await ok({ url: `${base}/headers` });
    expect(response.headers["x-multi"]).toBe("a, b");
    expect(response.headers["set-cookie"]).toBe("one=1; Path=/\ntwo=2; Path=/");
    expect(response.headers["x-mixed-case"]).toBe("Value");
    expect(response.headers.constructor).toBeUndefined();
  });

  it("turns user:password@ in the URL into Basic authorization", async () => {
    const url = `${base.replace("http://", "http://me:s%3Acret@")}/echo`;
    const { headers } = echoed((await ok({ url })).body);
    expect(headers.authorization).toBe(`Basic ${Buffer.from("me:s:cret").toString("base64")}`);
  });
});

describe("executeRequest: bodies", () => {
  it.each(["/gzip", "/deflate", "/deflate-raw", "/br"])("decompresses %s", async (path) => {
    const response = await ok({ url: `${base}${path}` });
    expect(response.body).toBe(JSON_BODY);
    expect(response.bodyTruncated).toBe(false);
  });

  it("keeps a body with an encoding it cannot decode as it came", async () => {
    expect((await ok({ url: `${base}/unknown-encoding` })).body).toBe("raw bytes");
  });

  it("reports a corrupt compressed body as a network error", async () => {
    const { error } = await failure({ url: `${base}/corrupt-gzip` });
    expect(error.code).toBe("network");
    expect(error.message).toContain("could not be decoded");
  });

  it("stops decompressing at maxResponseBytes", async () => {
    const response = await ok({ url: `${base}/bomb` }, { maxResponseBytes: 4096 });
    expect(response.body).toBe("\0".repeat(4096));
    expect(response.bodyTruncated).toBe(true);
  });

  it("stops reading at maxResponseBytes without cutting a character in half", async () => {
    const response = await ok({ url: `${base}/big` }, { maxResponseBytes: 1001 });
    expect(response.body).toBe("é".repeat(500));
    expect(response.bodyTruncated).toBe(true);
  });

  it("sends the body and reads the whole response under the limit", async () => {
    const response = await ok({ url: `${base}/echo`, method: "POST", body: "payload" });
    expect(echoed(response.body).body).toBe("payload");
    expect(response.bodyTruncated).toBe(false);
    expect(response.status).toBe(200);
    expect(Number.isInteger(response.durationMs)).toBe(true);
  });
});

describe("executeRequest: redirects", () => {
  it("follows up to 5 redirects", async () => {
    const response = await ok({ url: `${base}/chain?n=5` });
    expect(response.status).toBe(200);
    expect(echoed(response.body).url).toBe("/echo");
  });

  it("fails with too_many_redirects after 5", async () => {
    const { error } = await failure({ url: `${base}/chain?n=6` });
    expect(error.code).toBe("too_many_redirects");
    expect((await failure({ url: `${base}/loop` })).error.code).toBe("too_many_redirects");
  });

  it("returns the 3xx itself when not following", async () => {
    const response = await ok({ url: `${base}/redirect?to=/echo`, followRedirects: false });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe("/echo");
    expect(response.body).toBe("moved");
  });

  it.each([
    [301, "GET", ""],
    [302, "GET", ""],
    [303, "GET", ""],
    [307, "POST", "data"],
    [308, "POST", "data"],
  ])("after a %i a POST becomes %s", async (status, method, body) => {
    const response = await ok({
      url: `${base}/redirect?status=${status}&to=echo`,
      method: "POST",
      headers: [{ name: "content-type", value: "text/plain" }],
      body: "data",
    });
    const echo = echoed(response.body);
    expect(echo).toMatchObject({ method, url: "/echo", body });
    expect(echo.headers["content-type"]).toBe(method === "GET" ? undefined : "text/plain");
  });

  it("drops credentials when a redirect leaves the origin", async () => {
    const headers = [
      { name: "authorization", value: "Bearer secret" },
      { name: "x-kept", value: "yes" },
    ];
    const same = echoed((await ok({ url: `${base}/redirect?to=/echo`, headers })).body);
    expect(same.headers.authorization).toBe("Bearer secret");
    const cross = await ok({ url: `${base}/redirect?to=${otherBase}/echo`, headers });
    expect(echoed(cross.body).headers.authorization).toBeUndefined();
    expect(echoed(cross.body).headers["x-kept"]).toBe("yes");
  });
});

describe("executeRequest: transport errors", () => {
  it("refused", async () => {
    const closed = await startServer();
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await failure({ url: `http://127.0.0.1:${port}/` });
    expect(result.error.code).toBe("refused");
    expect(result.error.message).toContain("ECONNREFUSED");
    expect(result.error.message).not.toContain("    at ");
  });

  it("dns", async () => {
    const { error } = await failure({ url: "http://nonexistent.invalid/" });
    expect(error.code).toBe("dns");
    expect(error.message).toContain("nonexistent.invalid");
  });

  it("reset", async () => {
    expect((await failure({ url: `${base}/reset` })).error.code).toBe("reset");
  });

  it("tls (https to a plain HTTP server)", async () => {
    const { error } = await failure({ url: `${base.replace("http:", "https:")}/` });
    expect(error.code).toBe("tls");
    expect(error.message).toMatch(/^TLS error: /);
  });

  it("timeout waiting for headers, with the whole time in the message", async () => {
    const result = await failure({ url: `${base}/slow?ms=1500` }, { timeoutMs: 1000 });
    expect(result.error).toEqual({ code: "timeout", message: "timed out after 1 s" });
    expect(result.durationMs).toBeGreaterThanOrEqual(990);
    expect(result.durationMs).toBeLessThan(1500);
  });

  it("timeout covers the body", async () => {
    const { error } = await failure({ url: `${base}/stall-body` }, { timeoutMs: 300 });
    expect(error).toEqual({ code: "timeout", message: "timed out after 300 ms" });
  });

  it("timeout covers all redirect hops together", async () => {
    const { error } = await failure({ url: `${base}/slow?ms=200&then` }, { timeoutMs: 300 });
    expect(error.code).toBe("timeout");
  });

  it("blocked_address when private networks are not allowed", async () => {
    const guarded = createOutboundAgent({ allowPrivateNetworks: false });
    try {
      const { error } = await failure({ url: `${base}/echo` }, { dispatcher: guarded });
      expect(error.code).toBe("blocked_address");
      expect(error.message).toContain("VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS=true");
    } finally {
      await guarded.close();
    }
  });

  it.each([
    ["an invalid URL", { url: "http://exa mple.com/" }],
    ["a non-HTTP URL", { url: "ftp://example.com/" }],
    [
      "a header value with a line break",
      { url: `${base}/echo`, headers: [{ name: "x", value: "a\nb" }] },
    ],
  ])("invalid_request for %s", async (_, spec) => {
    expect((await failure(spec)).error.code).toBe("invalid_request");
  });

  it("aborted when the caller cancels", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { error } = await failure({ url: `${base}/slow?ms=1000` }, { signal: controller.signal });
    expect(error.code).toBe("aborted");
  });
});

describe("describeTransportError", () => {
  const coded = (code: string, message = `${code} happened`) =>
    Object.assign(new Error(message), { code });

  it.each([
    ["ENOTFOUND", "dns"],
    ["EAI_AGAIN", "dns"],
    ["ECONNREFUSED", "refused"],
    ["ECONNRESET", "reset"],
    ["UND_ERR_SOCKET", "reset"],
    ["EPIPE", "reset"],
    ["UND_ERR_CONNECT_TIMEOUT", "timeout"],
    ["UND_ERR_HEADERS_TIMEOUT", "timeout"],
    ["DEPTH_ZERO_SELF_SIGNED_CERT", "tls"],
    ["CERT_HAS_EXPIRED", "tls"],
    ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", "tls"],
    ["ERR_TLS_CERT_ALTNAME_INVALID", "tls"],
    ["ERR_SSL_WRONG_VERSION_NUMBER", "tls"],
    ["UND_ERR_INVALID_ARG", "invalid_request"],
    ["blocked_address", "blocked_address"],
    ["EHOSTUNREACH", "network"],
    ["ESOMETHINGELSE", "network"],
  ])("%s → %s", (code, expected) => {
    expect(describeTransportError(coded(code)).code).toBe(expected);
  });

  it("looks through causes and aggregate errors", () => {
    const wrapped = new Error("fetch failed", { cause: coded("ECONNREFUSED") });
    expect(describeTransportError(wrapped).code).toBe("refused");
    const aggregate = new AggregateError(
      [coded("ECONNREFUSED"), coded("ECONNREFUSED")],
      "all failed",
    );
    expect(describeTransportError(aggregate).code).toBe("refused");
    expect(describeTransportError("weird").code).toBe("network");
  });
});
