import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exchange } from "./http-exchange.js";

let server: Server;
let base: string;
const agent = new Agent({ keepAliveTimeout: 1000 });
/** Requests the server received, and whether each one's response was closed before its end. */
const seen: { path: string; cutOff: boolean }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const entry = { path: req.url ?? "", cutOff: false };
    seen.push(entry);
    res.on("close", () => {
      entry.cutOff = !res.writableFinished;
    });
    if (req.url === "/hints") {
      res.writeEarlyHints({ link: "</style.css>; rel=preload; as=style" });
      res.end("after the hints");
    } else if (req.url === "/endless") {
      res.writeHead(200, { "content-encoding": "gzip" });
      const chunk = gzipSync(Buffer.alloc(64 * 1024, 7));
      const pump = () => {
        while (res.write(chunk));
      };
      res.on("drain", pump);
      pump();
    } else res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await agent.close();
});

const hop = (path: string) => ({ url: new URL(path, base), method: "GET", headers: [] });
const signal = () => new AbortController().signal;

describe("exchange", () => {
  it("skips an informational 1xx answer and reads the final one", async () => {
    const answer = await exchange(agent, hop("/hints"), signal(), () => ({
      read: "bytes",
      maxBytes: 1024,
    }));
    expect(answer.statusCode).toBe(200);
    expect(answer.bytes.toString()).toBe("after the hints");
  });

  it("hands over a stream whose early destroy stops the download", async () => {
    const answer = await exchange(agent, hop("/endless"), signal(), () => ({ read: "stream" }));
    const stream = answer.stream;
    expect(stream).toBeDefined();
    for await (const chunk of stream ?? []) {
      expect(chunk.length).toBeGreaterThan(0);
      break;
    }
    await expect.poll(() => seen.find((s) => s.path === "/endless")?.cutOff).toBe(true);
  });

  it("rejects with the signal's reason, sending nothing when it fired before", async () => {
    const controller = new AbortController();
    const reason = new Error("cancelled before");
    controller.abort(reason);
    const before = seen.length;
    await expect(
      exchange(agent, hop("/never"), controller.signal, () => ({ read: "bytes", maxBytes: 1 })),
    ).rejects.toBe(reason);
    expect(seen.length).toBe(before);
  });
});
