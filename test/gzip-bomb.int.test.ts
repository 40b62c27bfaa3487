import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { createGzip } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, type ServeProcess, startServeProcess } from "./helpers/run-cli.js";
import { makeTempDir } from "./helpers/temp-dir.js";

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
    service = await startServeProcess(["--data-dir", dir.path], { VIGIL_LOG_LEVEL: "warn" });
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
