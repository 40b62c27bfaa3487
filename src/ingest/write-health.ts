import type { TelemetryLoad } from "../telemetry/executor.js";

/** Whether ingestion is being acknowledged in time, as /readyz reports it. */
export interface WriteHealth {
  /** False when writes wait longer than the bound. */
  ok: boolean;
  degraded: boolean;
  /** How long the engine's oldest unfinished write has waited (0 for an engine without queues). */
  writeWaitMs: number;
  /** How long the oldest OTLP request accepted but not yet acknowledged has waited. */
  ingestWaitMs: number;
  ingestQueuedRows: number;
  /** Why it is degraded, for the operator reading the probe. */
  reason?: string;
}

/**
 * Judges the write path by its wait, not its queue length: a long queue that moves is fine, a
 * request waiting longer than `maxWriteWaitMs` is what an exporter's timeout sees.
 */
export function assessWriteHealth(input: {
  engine: TelemetryLoad | undefined;
  ingest: { pendingRows: number; oldestWaitMs: number };
  maxWriteWaitMs: number;
}): WriteHealth {
  const writeWaitMs = input.engine?.writeWaitMs ?? 0;
  const ingestWaitMs = input.ingest.oldestWaitMs;
  const reasons: string[] = [];
  if (writeWaitMs > input.maxWriteWaitMs)
    reasons.push(`an engine write has waited ${writeWaitMs} ms (bound ${input.maxWriteWaitMs} ms)`);
  if (ingestWaitMs > input.maxWriteWaitMs)
    reasons.push(
      `an ingest request has waited ${ingestWaitMs} ms to be acknowledged (bound ${input.maxWriteWaitMs} ms)`,
    );
  const degraded = reasons.length > 0;
  return {
    ok: !degraded,
    degraded,
    writeWaitMs,
    ingestWaitMs,
    ingestQueuedRows: input.ingest.pendingRows,
    ...(degraded ? { reason: reasons.join("; ") } : {}),
  };
}
