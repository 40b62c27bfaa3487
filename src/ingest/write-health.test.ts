import { describe, expect, it } from "vitest";
import { assessWriteHealth } from "./write-health.js";

const engine = (writeWaitMs: number) => ({ sessions: 4, busySessions: 1, writeWaitMs });

describe("assessWriteHealth", () => {
  it("is healthy while writes and ingest requests wait within the bound", () => {
    expect(
      assessWriteHealth({
        engine: engine(120),
        ingest: { pendingRows: 500, oldestWaitMs: 80 },
        maxWriteWaitMs: 5000,
      }),
    ).toEqual({
      ok: true,
      degraded: false,
      writeWaitMs: 120,
      ingestWaitMs: 80,
      ingestQueuedRows: 500,
    });
  });

  it("is degraded, saying which wait, when either passes the bound", () => {
    const engineSlow = assessWriteHealth({
      engine: engine(6000),
      ingest: { pendingRows: 10, oldestWaitMs: 10 },
      maxWriteWaitMs: 5000,
    });
    expect(engineSlow).toMatchObject({ ok: false, degraded: true, writeWaitMs: 6000 });
    expect(engineSlow.reason).toBe("an engine write has waited 6000 ms (bound 5000 ms)");
    const queueSlow = assessWriteHealth({
      engine: undefined,
      ingest: { pendingRows: 10, oldestWaitMs: 7000 },
      maxWriteWaitMs: 5000,
    });
    expect(queueSlow).toMatchObject({ ok: false, degraded: true, writeWaitMs: 0 });
    expect(queueSlow.reason).toMatch(/an ingest request has waited 7000 ms/);
  });
});
