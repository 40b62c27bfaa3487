import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { connect as connectHttp2 } from "node:http2";
import { connect, type Socket } from "node:net";
import { createGzip } from "node:zlib";
import { Client, credentials, Metadata, status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { runCli, type ServeProcess, startServeProcess } from "./helpers/run-cli.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const MiB = 1024 * 1024;
const BOMBS = 100;
// Defaults: 32 MiB body limit, 256 MiB in-flight budget. Unbounded, 100 bombs hold ~3.2 GiB.
const MAX_BODY = 32 * MiB;
// Growth allowed over the warmed-up service: the budget, plus the copies and decoded objects
// it does not count. The old code grows by several GiB here.
const ALLOWED_GROWTH = 768 * MiB;

/** Gzip of `bytes` zero bytes, compressed in 1 MiB steps so the test never holds the whole. */
async function gzipOfZeros(bytes: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on("data", (chunk: Buffer) => chunks.push(chunk));
  const zeros = Buffer.alloc(MiB);
  for (let left = bytes; left > 0; left -= MiB) gzip.write(zeros.subarray(0, Math.min(MiB, left)));
  gzip.end();
  await once(gzip, "end");
  return Buffer.concat(chunks);
}

/** Resident and peak resident memory of a process, in bytes (Linux /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]) * 1024;
  return { rss: kib("VmRSS"), peak: kib("VmHWM") };
}

const span = {
  resourceSpans: [
    {
      resource: { attributes: [{ key: "service.name", value: { stringValue: "bomb-test" } }] },
      scopeSpans: [
        {
          spans: [
            {
              traceId: "ab".repeat(16),
              spanId: "cd".repeat(8),
              name: "GET /after-the-storm",
              kind: 2,
              startTimeUnixNano: `${BigInt(Date.now() - 60_000) * 1_000_000n}`,
              endTimeUnixNano: `${BigInt(Date.now() - 59_000) * 1_000_000n}`,
            },
          ],
        },
      ],
    },
  ],
};

describe.skipIf(process.platform !== "linux")("gzip bombs against a real service process", () => {
  const dir = makeTempDir();
  let service: ServeProcess | undefined;
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("stays within its memory budget, sheds bombs with 503/413 and keeps serving", async () => {
    const init = await runCli([
      "init",
      "--data-dir",
      dir.path,
      "--email",
      "bombs@example.com",
      "--password",
      "correct horse battery",
      "--json",
    ]);
    expect(init.code).toBe(0);
    const key = (JSON.parse(init.stdout) as { apiKey: string }).apiKey;
    service = await startServeProcess(["--data-dir", dir.path], {
      VIGIL_LOG_LEVEL: "warn",
      // A hundred senders, all on loopback: the per-address cap would take them for one client.
      VIGIL_HTTP_MAX_CONNECTIONS_PER_ADDRESS: "0",
    });
    const { url, pid } = service;
    const send = (body: Buffer | string, headers: Record<string, string>) =>
      fetch(`${url}/v1/traces`, {
        method: "POST",
        headers: { "x-api-key": key, ...headers },
        body,
      });
    const normal = () => send(JSON.stringify(span), { "content-type": "application/json" });

    // Warm up the ingest path once so the baseline includes what any first request loads.
    expect((await normal()).status).toBe(200);
    const baseline = memoryOf(pid).rss;
    // Resets the peak (VmHWM) to the current size, so start-up peaks do not count.
    writeFileSync(`/proc/${pid}/clear_refs`, "5");

    // Most inflate far past the body limit (413); some to just under it (then not protobuf).
    const over = await gzipOfZeros(256 * MiB);
    const under = await gzipOfZeros(MAX_BODY - MiB);
    expect(over.length).toBeGreaterThan(200 * 1024);
    let peakSeen = baseline;
    const sampler = setInterval(() => {
      peakSeen = Math.max(peakSeen, memoryOf(pid).rss);
    }, 10);
    const responses = await Promise.all(
      Array.from({ length: BOMBS }, async (_, i) => {
        const response = await send(i % 5 === 0 ? under : over, {
          "content-type": "application/x-protobuf",
          "content-encoding": "gzip",
        });
        await response.arrayBuffer();
        return { status: response.status, retryAfter: response.headers.get("retry-after") };
      }),
    );
    clearInterval(sampler);
    const peak = Math.max(peakSeen, memoryOf(pid).peak);

    const statuses = responses.map((r) => r.status);
    const count = (status: number) => statuses.filter((s) => s === status).length;
    console.log(
      `gzip bombs: baseline ${Math.round(baseline / MiB)} MiB, peak ${Math.round(peak / MiB)} MiB; ` +
        `413×${count(413)} 503×${count(503)} 400×${count(400)}`,
    );
    expect(peak - baseline).toBeLessThan(ALLOWED_GROWTH);
    expect(statuses.every((s) => s === 413 || s === 503 || s === 400)).toBe(true);
    expect(count(413) + count(503)).toBeGreaterThan(0);
    for (const r of responses.filter((r) => r.status === 503)) expect(r.retryAfter).toBe("1");

    // Still up, and a normal export is accepted.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await normal()).status).toBe(200);
  }, 120_000);
});

describe("the in-flight body budget counts bodies as they arrive", () => {
  const BODY = 512 * 1024;
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let grpc: Client | undefined;
  const sockets: Socket[] = [];
  const grpcAddress = () => (service.grpcUrl ?? "").replace(/^http:\/\//, "");
  const TRACE_EXPORT = "/opentelemetry.proto.collector.trace.v1.TraceService/Export";

  /** An empty ExportTraceServiceRequest over OTLP/gRPC: the status code it gets. */
  const grpcExport = () => {
    grpc ??= new Client(grpcAddress(), credentials.createInsecure());
    const metadata = new Metadata();
    metadata.set("x-api-key", key);
    return new Promise<{ code: number; retryInfo: boolean }>((resolve) => {
      grpc?.makeUnaryRequest(
        TRACE_EXPORT,
        (bytes: Buffer) => bytes,
        (bytes: Buffer) => bytes,
        Buffer.alloc(0),
        metadata,
        { deadline: Date.now() + 10_000 },
        (error) =>
          resolve({
            code: error?.code ?? status.OK,
            retryInfo: (error?.metadata.get("grpc-status-details-bin").length ?? 0) > 0,
          }),
      );
    });
  };

  beforeAll(async () => {
    service = await startTestService(dir.path, {
      VIGIL_INGEST_MAX_BODY_BYTES: String(BODY),
      VIGIL_INGEST_MAX_INFLIGHT_BYTES: String(2 * BODY),
      VIGIL_HTTP_REQUEST_TIMEOUT_SECONDS: "2",
      VIGIL_HTTP_HEADERS_TIMEOUT_SECONDS: "1",
    });
    key =
      (
        await initialize({
          ctx: systemCtx(service.deps.domain),
          input: {
            email: "held@example.com",
            password: "hunter2hunter2",
          },
        })
      ).apiKey ?? "";
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    grpc?.close();
    await service?.stop();
    dir.remove();
  });

  /** Starts an upload of `length` bytes and sends only `sent` of them, holding the rest back. */
  const partialUpload = (length: number, sent: number) =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect({ host: "127.0.0.1", port: Number(new URL(service.url).port) });
      sockets.push(socket);
      socket.once("error", reject);
      socket.once("connect", () => {
        socket.write(
          `POST /v1/traces HTTP/1.1\r\nHost: vigil.test\r\nX-Api-Key: ${key}\r\n` +
            `Content-Type: application/x-protobuf\r\nContent-Length: ${length}\r\n\r\n`,
        );
        socket.write(Buffer.alloc(sent), () => resolve(socket));
      });
    });
  const inflight = async () => {
    const text = await (await service.fetch("/metrics")).text();
    return Number(/^vigil_ingest_inflight_body_bytes (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
  };
  const HELD = Math.floor(BODY * 0.9);
  const upload = () =>
    service.fetch("/v1/traces", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/x-protobuf" },
      body: Buffer.alloc(Math.floor(BODY * 0.8)),
    });
  /** Sends uploads until one answers other than `skip` (a release is seen a moment later). */
  const firstNot = async (skip: number) => {
    let response = await upload();
    for (let i = 0; i < 60 && response.status === skip; i++) {
      await new Promise((r) => setTimeout(r, 50));
      response = await upload();
    }
    return response;
  };

  it("answers 503 + Retry-After while slow uploads hold the budget, and frees it when they end", async () => {
    // Two uploads hold 0.9 × BODY each, so a third body of 0.8 × BODY does not fit.
    const finishing = await partialUpload(BODY, HELD);
    const abandoned = await partialUpload(BODY, HELD);
    for (let i = 0; i < 100 && (await inflight()) < 2 * HELD; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await inflight()).toBe(2 * HELD);
    const busy = await upload();
    expect(busy.status).toBe(503);
    expect(busy.headers.get("retry-after")).toBe("1");
    expect(((await busy.json()) as { code: string }).code).toBe("unavailable");
    // OTLP/gRPC shares the budget: a call reserves its largest message before it is read.
    expect(await grpcExport()).toEqual({ code: status.UNAVAILABLE, retryInfo: true });

    // One upload completes (zero bytes are not protobuf: 400), the other is abandoned.
    let answer = "";
    finishing.on("data", (chunk: Buffer) => {
      answer += chunk.toString();
    });
    finishing.write(Buffer.alloc(BODY - HELD));
    abandoned.destroy();
    const fits = await firstNot(503);
    expect(fits.status).toBe(400);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    finishing.destroy();
    for (let i = 0; i < 100 && (await inflight()) > 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await inflight()).toBe(0);
    expect(await grpcExport()).toEqual({ code: status.OK, retryInfo: false });
    expect(await inflight()).toBe(0);
  }, 30_000);

  it("ends an OTLP/gRPC call whose message does not arrive in time, and gives its budget back", async () => {
    const session = connectHttp2(service.grpcUrl ?? "");
    session.on("error", () => {});
    try {
      const stream = session.request({
        ":method": "POST",
        ":path": TRACE_EXPORT,
        "content-type": "application/grpc",
        te: "trailers",
        "x-api-key": key,
      });
      // The status comes in trailers, or in the only headers of a trailers-only answer.
      const trailers = new Promise<Record<string, unknown>>((resolve) => {
        stream.once("trailers", (headers) => resolve(headers));
        stream.once("response", (headers) => {
          if (headers["grpc-status"] !== undefined) resolve(headers);
        });
      });
      stream.on("error", () => {});
      stream.resume();
      // Headers only: the message never comes, yet the worst case is held meanwhile.
      for (let i = 0; i < 50 && (await inflight()) < BODY; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(await inflight()).toBe(BODY);
      const started = performance.now();
      expect((await trailers)["grpc-status"]).toBe(String(status.DEADLINE_EXCEEDED));
      expect(performance.now() - started).toBeLessThan(2_500);
      expect(await inflight()).toBe(0);
    } finally {
      session.destroy();
    }
  }, 20_000);
});
