import { createServer } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Socket } from "node:net";
import type { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postWebhook } from "../src/webhooks/transport.js";
import {
  answered,
  type FakeResolver,
  fakeResolver,
  NAMES,
  ping,
  webhookAgent,
} from "./helpers/webhook-agent.js";
import { startWebhookReceiver, type WebhookReceiver } from "./helpers/webhook-receiver.js";

describe("webhook transport against a local receiver", () => {
  let receiver: WebhookReceiver;
  let open: Agent;
  let resolver: FakeResolver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    resolver = fakeResolver();
    open = webhookAgent(true, resolver);
  });
  afterAll(async () => {
    await open?.close();
    await receiver?.close();
  });

  it("reaches the receiver by name and by address when private networks are allowed", async () => {
    receiver.respond(() => ({ status: 200, body: "ok" }));
    const first = receiver.requests.length;
    for (const url of [
      `https://localhost:${receiver.port}/hook`,
      `https://127.0.0.1:${receiver.port}/hook`,
    ]) {
      const answer = answered(await postWebhook(open, ping(url)));
      expect(answer, `${url}: ${JSON.stringify(answer)}`).toMatchObject({
        statusCode: 200,
        body: "ok",
      });
      expect(answer.error).toBeUndefined();
    }
    const got = receiver.requests.slice(first);
    expect(got).toHaveLength(2);
    for (const request of got) {
      expect(request).toMatchObject({ method: "POST", path: "/hook", body: "{}" });
      expect(request.headers).toMatchObject({
        "content-type": "application/json",
        "x-service-event": "test.ping",
        "user-agent": "Vigil-Webhooks/1.0",
      });
    }
  });

  it("sends plain http:// only to loopback addresses, even with private networks allowed", async () => {
    const hits: string[] = [];
    const plain = createServer((req, res) => {
      hits.push(req.url ?? "");
      req.resume();
      res.end("ok");
    });
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    const { port } = plain.address() as AddressInfo;
    // *.localhost goes through the system's resolver like any name: a DNS answer may be public.
    const agent = webhookAgent(true, fakeResolver({ ...NAMES, "x.localhost": ["93.184.216.34"] }));
    try {
      for (const host of [
        "x.localhost",
        "internal.example.test",
        "mixed.example.test",
        "10.0.0.7",
      ]) {
        const answer = answered(await postWebhook(agent, ping(`http://${host}:${port}/hook`)));
        expect(answer, host).toMatchObject({ statusCode: 0, error: { code: "blocked_address" } });
        expect(answer.body).toMatch(/plain http:\/\/ may only reach this machine.*https:\/\//);
        expect(answer.body).not.toMatch(/93\.184|10\.0\.0/);
      }
      expect(hits).toEqual([]);
      for (const host of ["127.0.0.1", "127.0.0.1.nip.io"]) {
        const answer = answered(await postWebhook(agent, ping(`http://${host}:${port}/hook`)));
        expect(answer, host).toMatchObject({ statusCode: 200, body: "ok" });
      }
      expect(hits).toEqual(["/hook", "/hook"]);
    } finally {
      await agent.close();
      await new Promise((resolve) => plain.close(resolve));
    }
  });

  it("fails with a TLS error when the test CA is not trusted", async () => {
    const untrusting = webhookAgent(true, fakeResolver(), { trustTestCa: false });
    const before = receiver.requests.length;
    try {
      const answer = answered(
        await postWebhook(untrusting, ping(`https://localhost:${receiver.port}/hook`)),
      );
      expect(answer, JSON.stringify(answer)).toMatchObject({
        statusCode: 0,
        error: { code: "tls" },
      });
      expect(receiver.requests.length).toBe(before);
    } finally {
      await untrusting.close();
    }
  });

  it("never follows a redirect: a 302 is the answer and its target receives nothing", async () => {
    const target = await startWebhookReceiver();
    const redirecting = await startWebhookReceiver(() => ({
      status: 302,
      body: "moved",
      headers: { location: `${target.url}/landed` },
    }));
    try {
      const answer = answered(
        await postWebhook(open, ping(`https://localhost:${redirecting.port}/hook`)),
      );
      expect(answer).toMatchObject({ statusCode: 302, body: "moved" });
      expect(answer.error).toBeUndefined();
      expect(redirecting.requests).toHaveLength(1);
      // Give a (wrongly) followed redirect time to arrive.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(target.requests).toHaveLength(0);
    } finally {
      await redirecting.close();
      await target.close();
    }
  });

  it("reads a 100 KB answer bounded and keeps exactly its first 500 characters", async () => {
    const big = "a".repeat(100 * 1024);
    receiver.respond(() => ({ status: 200, body: big }));
    const answer = answered(
      await postWebhook(open, ping(`https://localhost:${receiver.port}/hook`)),
    );
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toHaveLength(500);
    expect(answer.body).toBe(big.slice(0, 500));
  });

  it("does not split a surrogate pair at the 500-character cut", async () => {
    const body = `a${"😀".repeat(50_000)}`;
    receiver.respond(() => ({ status: 500, body }));
    const answer = answered(
      await postWebhook(open, ping(`https://localhost:${receiver.port}/hook`)),
    );
    expect(answer.statusCode).toBe(500);
    expect(answer.body).toBe(body.slice(0, 499));
    // No lone surrogate: the text survives a round trip through UTF-8 unchanged.
    expect(Buffer.from(answer.body, "utf8").toString("utf8")).toBe(answer.body);
  });

  it("sends the envelope's headers and asks for an answer it need not decode", async () => {
    receiver.respond(() => ({
      status: 200,
      body: "\u001f\u008b not text",
      headers: { "content-encoding": "gzip" },
    }));
    const before = receiver.requests.length;
    const answer = answered(
      await postWebhook(open, ping(`https://localhost:${receiver.port}/hook`)),
    );
    // A receiver that encodes anyway is described, not logged as bytes.
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toMatch(/^\(a gzip-encoded answer of \d+ bytes, not decoded\)$/);
    expect(receiver.requests[before]?.headers).toMatchObject({
      "accept-encoding": "identity",
      "content-type": "application/json",
      "user-agent": "Vigil-Webhooks/1.0",
      "x-service-event": "test.ping",
    });
  });

  it("times out on a receiver that never answers", async () => {
    receiver.respond(() => ({ status: 200, delayMs: 10_000 }));
    const started = Date.now();
    const answer = answered(
      await postWebhook(open, ping(`https://localhost:${receiver.port}/hook`, { timeoutMs: 1000 })),
    );
    expect(answer).toMatchObject({
      statusCode: 0,
      body: "timed out after 1s",
      error: { code: "timeout" },
    });
    expect(answer.durationMs).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it("times out while the TLS handshake never completes (the limit covers connecting)", async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const started = Date.now();
      const answer = answered(
        await postWebhook(open, ping(`https://localhost:${port}/hook`, { timeoutMs: 500 })),
      );
      expect(answer).toMatchObject({
        statusCode: 0,
        body: "timed out after 0.5s",
        error: { code: "timeout" },
      });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("answers a URL it cannot parse as an invalid request instead of throwing", async () => {
    const answer = answered(await postWebhook(open, ping("not a url")));
    expect(answer).toMatchObject({ statusCode: 0, error: { code: "invalid_request" } });
  });

  it("reports an aborted signal as aborted, before and during the request", async () => {
    receiver.respond(() => ({ status: 200, delayMs: 10_000 }));
    const url = `https://localhost:${receiver.port}/hook`;
    const already = new AbortController();
    already.abort();
    expect(await postWebhook(open, ping(url, { signal: already.signal }))).toEqual({
      aborted: true,
    });
    const during = new AbortController();
    const started = Date.now();
    setTimeout(() => during.abort(), 200);
    expect(await postWebhook(open, ping(url, { signal: during.signal }))).toEqual({
      aborted: true,
    });
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
