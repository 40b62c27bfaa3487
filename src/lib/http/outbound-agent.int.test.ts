import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlockedAddressError, PlainHttpNotLoopbackError } from "./address-policy.js";
import { createOutboundAgent, type ResolveAll } from "./outbound-agent.js";

let server: Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    res.end("hello");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function attempt(allowPrivateNetworks: boolean, url: string): Promise<unknown> {
  const agent = createOutboundAgent({ allowPrivateNetworks });
  try {
    const response = await request(url, { dispatcher: agent });
    return { status: response.statusCode, body: await response.body.text() };
  } catch (error) {
    return error;
  } finally {
    await agent.close();
  }
}

describe("createOutboundAgent", () => {
  it.each(["127.0.0.1", "localhost"])(
    "refuses http://%s:port when private networks are not allowed",
    async (host) => {
      const before = hits;
      const error = await attempt(false, `http://${host}:${port}/`);
      expect(error).toBeInstanceOf(BlockedAddressError);
      expect((error as BlockedAddressError).code).toBe("blocked_address");
      expect((error as Error).message).toContain(host);
      expect((error as Error).message).toContain("VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS=true");
      expect(hits).toBe(before);
    },
  );

  it("refuses an IPv6 loopback literal", async () => {
    expect(await attempt(false, `http://[::1]:${port}/`)).toBeInstanceOf(BlockedAddressError);
  });

  it.each(["127.0.0.1", "localhost"])(
    "connects to http://%s:port when private networks are allowed",
    async (host) => {
      expect(await attempt(true, `http://${host}:${port}/`)).toEqual({
        status: 200,
        body: "hello",
      });
    },
  );

  it("keeps connections alive across requests", async () => {
    const agent = createOutboundAgent({ allowPrivateNetworks: true, connections: 1 });
    const sockets = new Set<unknown>();
    const onConnection = (socket: unknown) => sockets.add(socket);
    server.on("connection", onConnection);
    try {
      for (let i = 0; i < 3; i++) {
        const response = await request(`http://127.0.0.1:${port}/`, { dispatcher: agent });
        await response.body.text();
      }
      expect(sockets.size).toBe(1);
    } finally {
      server.off("connection", onConnection);
      await agent.close();
    }
  });
});

describe("createOutboundAgent with plainHttpLoopbackOnly (webhooks)", () => {
  /** Names that resolve to chosen addresses, as a DNS answer could. */
  const names: Record<string, string> = {
    "x.localhost": "93.184.215.14",
    "hooks.test": "127.0.0.1",
    "split.test": "127.0.0.1,93.184.215.14",
    localhost: "127.0.0.1",
  };
  const resolve: ResolveAll = (hostname, _options, callback) => {
    const answer = names[hostname];
    if (answer === undefined) {
      const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      error.code = "ENOTFOUND";
      callback(error, []);
      return;
    }
    callback(
      null,
      answer.split(",").map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
    );
  };

  async function post(url: string, allowPrivateNetworks = true): Promise<unknown> {
    const agent = createOutboundAgent({
      allowPrivateNetworks,
      plainHttpLoopbackOnly: true,
      resolve,
    });
    try {
      const response = await request(url, { method: "POST", body: "{}", dispatcher: agent });
      return { status: response.statusCode, body: await response.body.text() };
    } catch (error) {
      return error;
    } finally {
      await agent.close();
    }
  }

  it.each(["x.localhost", "split.test", "10.0.0.7", "93.184.215.14"])(
    "refuses plain http to %s, which is not (only) loopback, before connecting",
    async (host) => {
      const before = hits;
      const error = await post(`http://${host}:${port}/hooks`);
      expect(error).toBeInstanceOf(PlainHttpNotLoopbackError);
      expect((error as PlainHttpNotLoopbackError).code).toBe("blocked_address");
      expect((error as Error).message).toMatch(/https:\/\//);
      expect((error as Error).message).not.toContain("93.184");
      expect(hits).toBe(before);
    },
  );

  it.each(["hooks.test", "localhost", "127.0.0.1"])(
    "delivers plain http to %s, which is loopback",
    async (host) => {
      expect(await post(`http://${host}:${port}/hooks`)).toEqual({ status: 200, body: "hello" });
    },
  );

  it("keeps the SSRF guard on top: loopback over http is still refused while it is on", async () => {
    expect(await post(`http://127.0.0.1:${port}/hooks`, false)).toBeInstanceOf(BlockedAddressError);
  });
});
