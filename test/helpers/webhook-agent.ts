import type { LookupAddress } from "node:dns";
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import type { Agent } from "undici";
import { createOutboundAgent, type ResolveAll } from "../../src/lib/http/outbound-agent.js";
import type { WebhookAnswer } from "../../src/webhooks/transport.js";
import { TEST_CA_FILE } from "./webhook-receiver.js";

// The webhook transport's agent with a fake resolver: the fixture of webhooks-ssrf.int.test.ts
// and webhooks-transport.int.test.ts.

export const ALLOW_SETTING = "VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS";
export const CA = readFileSync(TEST_CA_FILE, "utf8");

/** Test names and what they resolve to; anything else fails with ENOTFOUND, like dns.lookup. */
export const NAMES: Record<string, string[]> = {
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

export interface FakeResolver {
  resolve: ResolveAll;
  /** Every host name asked for, in order. */
  calls: string[];
}

/** A dns.lookup-style resolver over a fixed table; answers asynchronously, as the real one does. */
export function fakeResolver(table: Record<string, string[]> = NAMES): FakeResolver {
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

/** The webhook agent exactly as src/webhooks/webhook-service.ts builds it, with a resolver of our choice. */
export function webhookAgent(
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

export const ping = (url: string, extra: { timeoutMs?: number; signal?: AbortSignal } = {}) => ({
  url,
  event: "test.ping",
  body: "{}",
  timeoutMs: extra.timeoutMs ?? 5000,
  ...(extra.signal ? { signal: extra.signal } : {}),
});

export function answered(answer: WebhookAnswer) {
  if (answer.aborted) throw new Error("the request was aborted");
  return answer;
}
