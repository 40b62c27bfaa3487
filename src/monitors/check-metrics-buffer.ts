import type { Logger } from "pino";
import type { MetricsRequest } from "../ingest/otlp/otlp-messages.js";
import { checkMetricsRequest } from "./check-metrics.js";
import type { RecordedCheck } from "./check-recording.js";

/** Writes one project's points through ingestion (the composition root hands it in). */
export type CheckMetricsWriter = (projectId: string, request: MetricsRequest) => Promise<void>;

/** Collects the checks' points and writes them a few seconds apart, one request per project. */
export interface CheckMetricsBuffer {
  /** Never throws and never waits: the check is recorded whatever becomes of its points. */
  add(check: RecordedCheck): void;
  /** Writes what is buffered now; failures are logged, not thrown. */
  flush(): Promise<void>;
  /** Writes what is buffered and stops accepting. */
  close(): Promise<void>;
}

export interface CheckMetricsBufferOptions {
  write: CheckMetricsWriter;
  logger: Logger;
  /** How long a check's points wait for others to share a write. */
  flushIntervalMs?: number;
  /** Buffered checks at which a write starts without waiting. */
  maxChecks?: number;
}

/**
 * One engine write per check would be many tiny inserts (a thousand monitors checked every
 * minute make 17 a second); instead the points of every check in a few seconds go in one
 * request per project, and the batch writer joins those requests into one write. A write the
 * ingestion queue refuses (full) is logged and its points are lost; the checks are not.
 */
export function createCheckMetricsBuffer(options: CheckMetricsBufferOptions): CheckMetricsBuffer {
  const { write, logger } = options;
  const flushIntervalMs = options.flushIntervalMs ?? 5000;
  const maxChecks = options.maxChecks ?? 1000;
  let buffered = new Map<string, RecordedCheck[]>();
  let count = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const writing = new Set<Promise<void>>();

  async function writeProject(projectId: string, checks: RecordedCheck[]): Promise<void> {
    try {
      await write(projectId, checkMetricsRequest(checks));
    } catch (error) {
      logger.warn(
        { err: error, projectId, checks: checks.length },
        "monitor check metrics were not written",
      );
    }
  }

  function flushNow(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = buffered;
    buffered = new Map();
    count = 0;
    const done = Promise.all([...batch].map(([id, checks]) => writeProject(id, checks))).then(
      () => undefined,
    );
    writing.add(done);
    void done.finally(() => writing.delete(done));
    return done;
  }

  return {
    add(check) {
      if (closed) return;
      const list = buffered.get(check.monitor.projectId);
      if (list) list.push(check);
      else buffered.set(check.monitor.projectId, [check]);
      count++;
      if (count >= maxChecks) void flushNow();
      else if (!timer) {
        timer = setTimeout(() => void flushNow(), flushIntervalMs);
        timer.unref();
      }
    },
    async flush() {
      await flushNow();
      await Promise.all(writing);
    },
    async close() {
      closed = true;
      await flushNow();
      await Promise.all(writing);
    },
  };
}
