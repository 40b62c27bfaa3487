import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough, Readable } from "node:stream";
import { brotliCompressSync, brotliDecompressSync } from "node:zlib";
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCompressible, MIN_COMPRESS_BYTES, useCompression } from "./compression.js";

const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item ${i}` })) };

describe("isCompressible", () => {
  it.each([
    ["text/html; charset=utf-8", true],
    ["application/json; charset=utf-8", true],
    ["application/problem+json", true],
    ["application/atom+xml; charset=utf-8", true],
    ["image/svg+xml", true],
    ["text/plain; version=0.0.4", true],
    ["text/event-stream", false],
    ["application/x-protobuf", false],
    ["image/png", false],
  ])("%s: %s", (type, expected) => {
    expect(isCompressible(type)).toBe(expected);
  });
});

/** The plugin on a bare app: an event stream goes through untouched, event by event. */
describe("useCompression", () => {
  let app: FastifyInstance;
  let base: string;
  let events: PassThrough | undefined;

  beforeAll(async () => {
    app = Fastify();
    await useCompression(app);
    app.get("/big", async () => big);
    app.get("/kept", async (_request, reply) =>
      reply
        .type("application/json")
        .header("content-encoding", "br")
        .send(brotliCompressSync(Buffer.from(JSON.stringify(big)))),
    );
    // A file as @fastify/static sends one: a stream with its length declared.
    const file = (bytes: number) => async (_request: unknown, reply: FastifyReply) =>
      reply
        .type("application/javascript")
        .header("content-length", bytes)
        .send(Readable.from([Buffer.alloc(bytes, "a")]));
    app.get("/small-file", file(700));
    app.get("/big-file", file(5000));
    app.get("/events", async (_request, reply) => {
      events = new PassThrough();
      reply.type("text/event-stream").header("cache-control", "no-cache");
      return reply.send(events);
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app.close();
  });

  const get = (path: string) =>
    new Promise<{ headers: Record<string, unknown>; wire: Buffer }>((resolve, reject) => {
      httpRequest(`${base}${path}`, { headers: { "accept-encoding": "br, gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ headers: res.headers, wire: Buffer.concat(chunks) }));
      })
        .on("error", reject)
        .end();
    });

  it("compresses a JSON answer from the threshold up, with Vary", async () => {
    const answer = await get("/big");
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers.vary).toBe("accept-encoding");
    expect(JSON.parse(brotliDecompressSync(answer.wire).toString())).toEqual(big);
    expect(JSON.stringify(big).length).toBeGreaterThan(MIN_COMPRESS_BYTES);
  });

  it("leaves a small file stream as it is, and compresses a big one", async () => {
    const small = await get("/small-file");
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.wire.length).toBe(700);
    const big = await get("/big-file");
    expect(big.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(big.wire).length).toBe(5000);
  });

  it("leaves an answer already compressed by its route as it is", async () => {
    const answer = await get("/kept");
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(answer.wire).toString())).toEqual(big);
  });

  it("sends text/event-stream uncompressed, each event as it is written", async () => {
    const first = await new Promise<{ headers: Record<string, unknown>; text: string }>(
      (resolve, reject) => {
        const request = httpRequest(
          `${base}/events`,
          { headers: { "accept-encoding": "br, gzip" } },
          (res) => {
            res.once("data", (chunk: Buffer) => {
              resolve({ headers: res.headers, text: chunk.toString() });
              events?.end();
              res.resume();
            });
          },
        );
        request.on("error", reject).end();
        // The stream stays open: the event must arrive before any end.
        const write = () =>
          events ? events.write(`data: ${"x".repeat(2000)}\n\n`) : setTimeout(write, 5);
        setTimeout(write, 5);
      },
    );
    expect(first.headers["content-encoding"]).toBeUndefined();
    expect(first.text.startsWith("data: xxx")).toBe(true);
  });
});
