import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlockedAddressError } from "./address-policy.js";
import { createOutboundAgent } from "./outbound-agent.js";

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
