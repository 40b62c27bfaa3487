import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { hexId, logsBody, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService } from "./helpers/test-service.js";

const NOW = Date.now();

/** A service with these settings, 50 log records and 20 one-span traces; its API key. */
async function seededService(path: string, env: Record<string, string>) {
  const service = await startTestService(path, env);
  const setup = await initialize({
    ctx: systemCtx(service.deps.domain),
    input: {
      email: "admission@example.com",
      password: "correct horse battery",
    },
  });
  const key = setup.apiKey ?? "";
  const { orgId } = setup;
  await sendOtlp(
    service,
    key,
    "logs",
    logsBody(
      "api",
      Array.from({ length: 50 }, (_, i) => ({
        timeMs: NOW - 60_000 + i,
        severityNumber: 9,
        body: `request id${i}z served`,
      })),
    ),
  );
  await sendOtlp(
    service,
    key,
    "traces",
    tracesBody(
      "api",
      Array.from({ length: 20 }, (_, i) => ({
        traceId: hexId(i + 1, 32),
        spanId: hexId(i + 1, 16),
        name: "GET /",
        startMs: NOW - 60_000 + i,
        durationMs: 5,
      })),
    ),
  );
  return { service, key, orgId };
}

/**
 * A seeded service for the describe block it is called in: started before its tests, stopped
 * after them. Its fields are set once the block's tests run.
 */
function seededSuite(env: Record<string, string>) {
  const dir = makeTempDir();
  const suite = {} as Awaited<ReturnType<typeof seededService>>;
  beforeAll(async () => {
    Object.assign(suite, await seededService(dir.path, env));
  });
  afterAll(async () => {
    await suite.service?.stop();
    dir.remove();
  });
  return suite;
}

/** A problem+json 503 telling the reader to retry in a second. */
async function expectBusy(answer: Response, detail: RegExp) {
  expect(answer.headers.get("retry-after")).toBe("1");
  expect(answer.headers.get("content-type")).toMatch(/application\/problem\+json/);
  expect(await answer.json()).toMatchObject({ status: 503, detail: expect.stringMatching(detail) });
}

/**
 * More read API requests at once than `telemetry.maxPendingReads`: the excess is refused at once
 * with 503 + Retry-After instead of queueing, the rest are answered, ingestion is not held, and
 * once the flood is over reads are answered again.
 */
describe("read admission over HTTP", () => {
  const suite = seededSuite({ VIGIL_TELEMETRY_MAX_PENDING_READS: "2" });
  const read = (path: string) => suite.service.fetch(path, { headers: { "x-api-key": suite.key } });

  it("runs as many reads at once as the engine has read sessions", () => {
    const { service } = suite;
    // Through every wrapper the composition root puts around the engine.
    const { readSlots } = service.deps.telemetry;
    expect(readSlots).toBeGreaterThanOrEqual(1);
    expect(service.deps.read.telemetry.readSlots).toBe(readSlots);
  });

  it("refuses reads beyond the bound with 503 + Retry-After and still takes writes", async () => {
    const { service, key } = suite;
    // Each a different statement, so none shares another's run in the engine; trace lookups
    // wait for their batch holding a place too.
    const flood = Array.from({ length: 40 }, (_, i) =>
      read(i % 2 === 0 ? `/v1/logs?search=id${i}z` : `/v1/traces/${hexId((i % 20) + 1, 32)}`),
    );
    const write = sendOtlp(
      service,
      key,
      "logs",
      logsBody("api", [{ timeMs: NOW, severityNumber: 17, body: "written during the flood" }]),
    );
    const answers = await Promise.all(flood);
    await write;
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused)
      await expectBusy(
        answer,
        /telemetry store is busy: (\d+ reads are|1 read is|1 read of this project is) waiting.*retry in 1 s/,
      );
    expect(answers.filter((a, i) => i % 2 === 1 && a.status === 503).length).toBeGreaterThan(0);
    for (const [i, answer] of answers.entries()) {
      if (answer.status !== 200) continue;
      const body = (await answer.json()) as { data?: unknown[]; spanCount?: number };
      if (i % 2 === 0) expect(body.data).toHaveLength(1);
      else expect(body.spanCount).toBe(1);
    }

    const metrics = await (await service.fetch("/metrics")).text();
    expect(metrics).toContain(
      `vigil_telemetry_reads_refused_total{reason="pending"} ${refused.length}`,
    );
    // The other reason's series is there from the start, at 0.
    expect(metrics).toContain('vigil_telemetry_reads_refused_total{reason="wait"} 0');

    // The flood is over: reads are answered again, and the write made during it is there.
    expect((await read(`/v1/traces/${hexId(20, 32)}`)).status).toBe(200);
    const after = await read("/v1/logs?search=flood");
    expect(after.status).toBe(200);
    expect(((await after.json()) as { data: { message: string }[] }).data).toEqual([
      expect.objectContaining({ message: "written during the flood" }),
    ]);
  });
});

/**
 * Read API statements that wait, or would wait, longer than `telemetry.maxReadWaitMs` for the
 * engine are refused (503 + Retry-After) instead of answered late; the others are answered.
 */
describe("read admission over HTTP: the wait bound", () => {
  const suite = seededSuite({ VIGIL_TELEMETRY_MAX_READ_WAIT_MS: "1" });

  it("refuses the reads that waited or would wait too long and answers the rest", async () => {
    const { service, key } = suite;
    const slots = service.deps.telemetry.readSlots ?? 1;
    // Far more different log reads than the engine runs at once (most wait, each over 1 ms),
    // and fewer than the project's half of the bound (64), so none is refused for their number.
    const answers = await Promise.all(
      Array.from({ length: Math.min(slots * 10, 60) }, (_, i) =>
        service.fetch(`/v1/logs?search=id${i % 50}z`, { headers: { "x-api-key": key } }),
      ),
    );
    const refused = answers.filter((a) => a.status === 503);
    const answered = answers.filter((a) => a.status === 200);
    expect(refused.length + answered.length).toBe(answers.length);
    expect(refused.length).toBeGreaterThan(0);
    expect(answered.length).toBeGreaterThanOrEqual(slots);
    for (const answer of refused)
      await expectBusy(
        answer,
        /telemetry store is busy: (this read waited 1 ms for it|the reads before this one take about \d+ ms, over 1 ms)/,
      );
    for (const answer of answered)
      expect(((await answer.json()) as { data: unknown[] }).data).toHaveLength(1);

    const metrics = await (await service.fetch("/metrics")).text();
    expect(metrics).toContain(
      `vigil_telemetry_reads_refused_total{reason="wait"} ${refused.length}`,
    );
    // Nothing is left waiting: a read now is answered.
    const after = await service.fetch("/v1/logs?search=id7z", { headers: { "x-api-key": key } });
    expect(after.status).toBe(200);
  });
});

/**
 * Two projects on one server: one floods it with reads, the other's read is still answered. A
 * project may hold half of `telemetry.maxPendingReads` at most, and a freed slot goes to the
 * project with the fewest reads running.
 */
describe("read admission over HTTP: projects share it", () => {
  const suite = seededSuite({ VIGIL_TELEMETRY_MAX_PENDING_READS: "8" });
  let otherKey: string;

  beforeAll(async () => {
    otherKey = (await addProjectWithKey(suite.service, suite.orgId, "prj_quiet")).key;
    await sendOtlp(
      suite.service,
      otherKey,
      "logs",
      logsBody("quiet", [{ timeMs: NOW - 1000, severityNumber: 9, body: "the quiet project" }]),
    );
  });

  it("answers a quiet project's read while another floods the engine", async () => {
    const { service, key: floodKey } = suite;
    const flood = Array.from({ length: 40 }, (_, i) =>
      service.fetch(`/v1/logs?search=id${i}z`, { headers: { "x-api-key": floodKey } }),
    );
    const quiet = service.fetch("/v1/logs?search=quiet", { headers: { "x-api-key": otherKey } });
    const [answers, answer] = await Promise.all([Promise.all(flood), quiet]);

    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { data: { message: string }[] }).data).toEqual([
      expect.objectContaining({ message: "the quiet project" }),
    ]);
    // The flooding project got no more than its half of the bound at a time.
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const refusal of refused)
      await expectBusy(refusal, /busy: 4 reads of this project are waiting for it/);
    expect(answers.filter((a) => a.status === 200).length).toBe(40 - refused.length);
  });
});
