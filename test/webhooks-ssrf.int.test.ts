import type { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postWebhook } from "../src/webhooks/transport.js";
import {
  ALLOW_SETTING,
  answered,
  type FakeResolver,
  fakeResolver,
  NAMES,
  ping,
  webhookAgent,
} from "./helpers/webhook-agent.js";
import { startWebhookReceiver, type WebhookReceiver } from "./helpers/webhook-receiver.js";

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
