import type { LookupAddress } from "node:dns";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { type AddressInfo, isIP } from "node:net";
import type { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboundAgent, type ResolveAll } from "../src/lib/http/outbound-agent.js";
import { postWebhook, type WebhookAnswer } from "../src/webhooks/transport.js";
import {
  startWebhookReceiver,
  TEST_CA_FILE,
  type WebhookReceiver,
} from "./helpers/webhook-receiver.js";

const ALLOW_SETTING = "VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS";
const CA = readFileSync(TEST_CA_FILE, "utf8");

/** Test names and what they resolve to; anything else fails with ENOTFOUND, like dns.lookup. */
const NAMES: Record<string, string[]> = {
  localhost: ["127.0.0.1", "::1"],
  "localhost.": ["127.0.0.1", "::1"],
  "internal.example.test": ["10.0.0.7"],
  "metadata.example.test": ["169.254.169.254"],
  "metadata.google.internal": ["169.254.169.254"],
  // Any private answer refuses the name, wherever it sits in the list.
  "mixed.example.test": ["93.184.216.34", "10.0.0.1"],
  "mixed-first.example.test": ["10.0.0.1", "93.184.216.34"],
  "mixed-v6.example.test": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "::1"],
  "v6private.example.test": ["fd00::1"],
  "mapped.example.test": ["::ffff:127.0.0.1"],
  "nat64.example.test": ["64:ff9b::7f00:1"],
  "sixtofour.example.test": ["2002:7f00:1::1"],
  "linklocal6.example.test": ["fe80::1"],
  "zoned.example.test": ["fe80::1%eth0"],
  "teredo.example.test": ["2001:0:4136:e378:8000:63bf:3fff:fdd2"],
  "cgnat.example.test": ["100.64.1.1"],
  "multicast.example.test": ["224.0.0.1"],
  "broadcast.example.test": ["255.255.255.255"],
  "zero.example.test": ["0.0.0.0"],
  "unspecified6.example.test": ["::"],
  "private172.example.test": ["172.20.0.5"],
  "home.example.test": ["192.168.0.1"],
  "benchmark.example.test": ["198.18.0.1"],
  "127.0.0.1.nip.io": ["127.0.0.1"],
};

interface FakeResolver {
  resolve: ResolveAll;
  /** Every host name asked for, in order. */
  calls: string[];
}

/** A dns.lookup-style resolver over a fixed table; answers asynchronously, as the real one does. */
function fakeResolver(table: Record<string, string[]> = NAMES): FakeResolver {
  const calls: string[] = [];
  const resolve: ResolveAll = (hostname, _options, callback) => {
    calls.push(hostname);
    const known = Object.hasOwn(table, hostname) ? table[hostname] : undefined;
    setImmediate(() => {
      if (known === undefined) {
        const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        error.code = "ENOTFOUND";
        error.syscall = "getaddrinfo";
        callback(error, []);
        return;
      }
      const addresses: LookupAddress[] = known.map((address) => ({
        address,
        family: isIP(address.split("%")[0] ?? "") === 6 ? 6 : 4,
      }));
      callback(null, addresses);
    });
  };
  return { resolve, calls };
}

/** The webhook agent exactly as src/webhooks/service.ts builds it, with a resolver of our choice. */
function webhookAgent(
  allowPrivateNetworks: boolean,
  resolver: FakeResolver,
  options: { trustTestCa: boolean } = { trustTestCa: true },
): Agent {
  return createOutboundAgent({
    allowPrivateNetworks,
    allowSetting: ALLOW_SETTING,
    plainHttpLoopbackOnly: true,
    ca: options.trustTestCa ? CA : undefined,
    resolve: resolver.resolve,
  });
}

const ping = (url: string, extra: { timeoutMs?: number; signal?: AbortSignal } = {}) => ({
  url,
  event: "test.ping",
  body: "{}",
  timeoutMs: extra.timeoutMs ?? 5000,
  ...(extra.signal ? { signal: extra.signal } : {}),
});

function answered(answer: WebhookAnswer) {
  if (answer.aborted) throw new Error("the request was aborted");
  return answer;
}

/** Hosts written as IP literals in the URL (in every spelling the URL parser accepts). */
const LITERAL_HOSTS: string[] = [
  "127.0.0.1",
  "127.1",
  "0x7f000001",
  "2130706433",
  "0177.0.0.1",
  "017700000001",
  "127.000.000.001",
  "127.255.255.254",
  "[::1]",
  "[0:0:0:0:0:0:0:1]",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[::ffff:169.254.169.254]",
  "[::ffff:10.0.0.1]",
  "[::127.0.0.1]",
  "[::ffff:0:127.0.0.1]",
  "169.254.169.254",
  "0xa9fea9fe",
  "10.0.0.1",
  "10.255.255.255",
  "172.16.0.1",
  "172.31.255.255",
  "192.168.1.1",
  "100.64.0.1",
  "100.127.255.254",
  "0.0.0.0",
  "0",
  "[::]",
  "[fd00::1]",
  "[fc00::1]",
  "[fe80::1]",
  "[ff02::1]",
  "224.0.0.1",
  "239.255.255.250",
  "255.255.255.255",
  "240.0.0.1",
  "198.18.0.1",
  "192.0.0.1",
  "192.0.2.1",
  "198.51.100.1",
  "203.0.113.1",
  "192.88.99.1",
  "[64:ff9b::7f00:1]",
  "[64:ff9b::169.254.169.254]",
  "[64:ff9b:1::1]",
  "[2002:7f00:1::1]",
  "[2002:a9fe:a9fe::1]",
  "[2001::1]",
  "[2001:db8::1]",
];

/** Names the fake resolver maps to non-public addresses. */
const NAME_HOSTS = Object.keys(NAMES);

describe("webhook SSRF guard", () => {
  let sink: WebhookReceiver;
  let resolver: FakeResolver;
  let guarded: Agent;

  beforeAll(async () => {
    sink = await startWebhookReceiver();
    resolver = fakeResolver();
    guarded = webhookAgent(false, resolver);
  });
  afterAll(async () => {
    await guarded?.close();
    await sink?.close();
  });

  it("has a table of at least 35 hostile targets", () => {
    expect(LITERAL_HOSTS.length + NAME_HOSTS.length).toBeGreaterThanOrEqual(35);
  });

  it.each(LITERAL_HOSTS)("refuses the IP literal %s", async (host) => {
    const answer = answered(await postWebhook(guarded, ping(`https://${host}:${sink.port}/hook`)));
    expect(answer, JSON.stringify(answer)).toMatchObject({
      statusCode: 0,
      error: { code: "blocked_address" },
    });
    // Users see a generic text naming the setting that allows it, never the address itself.
    expect(answer.error?.message).toContain(ALLOW_SETTING);
    expect(answer.body).toMatch(/private, loopback or reserved address/);
    expect(answer.body).toContain(ALLOW_SETTING);
    expect(sink.requests).toHaveLength(0);
  });

  it.each(NAME_HOSTS)("refuses the name %s (resolves to a non-public address)", async (host) => {
    const before = resolver.calls.length;
    const answer = answered(await postWebhook(guarded, ping(`https://${host}:${sink.port}/hook`)));
    expect(answer, JSON.stringify(answer)).toMatchObject({
      statusCode: 0,
      error: { code: "blocked_address" },
    });
    expect(answer.error?.message).toContain(ALLOW_SETTING);
    expect(answer.error?.message).toContain(host);
    // The name was looked up (not refused by its spelling).
    expect(resolver.calls.slice(before)).toContain(host);
    expect(sink.requests).toHaveLength(0);
  });

  it("does not refuse everything: an unknown name is a DNS failure, not a blocked address", async () => {
    const answer = answered(
      await postWebhook(guarded, ping(`https://unknown.example.test:${sink.port}/hook`)),
    );
    expect(answer).toMatchObject({ statusCode: 0, error: { code: "dns" } });
    expect(sink.requests).toHaveLength(0);
  });

  it("checks the address it connects to: a public-looking name rebound to 127.0.0.1 is refused", async () => {
    const rebinding = fakeResolver({ "api.example.com": ["127.0.0.1"] });
    const agent = webhookAgent(false, rebinding);
    try {
      for (let i = 0; i < 3; i++) {
        const answer = answered(
          await postWebhook(agent, ping(`https://api.example.com:${sink.port}/hook`)),
        );
        expect(answer).toMatchObject({ statusCode: 0, error: { code: "blocked_address" } });
        expect(answer.error?.message).toContain("api.example.com (127.0.0.1)");
      }
      // One lookup per connection attempt: the checked answer is the one connected to, with no
      // second lookup that a rebinding DNS server could answer differently.
      expect(rebinding.calls).toEqual(["api.example.com", "api.example.com", "api.example.com"]);
      expect(sink.requests).toHaveLength(0);
    } finally {
      await agent.close();
    }
  });

  it("let no request through to the local receiver", () => {
    expect(sink.requests).toHaveLength(0);
  });
});

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
