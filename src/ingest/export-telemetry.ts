import type { ApiKeyActor, Ctx, DomainDeps } from "../context.js";
import type { ExportResult, IngestService } from "./ingest.js";
import type { Signal, SignalRequest } from "./otlp/otlp-messages.js";

/** What an OTLP export needs: ingestion (mapping, derived rows, the batch writer), for a key. */
export type IngestCtx = Ctx<DomainDeps & { ingest: IngestService }> & { actor: ApiKeyActor };

/**
 * Accepts one decoded OTLP export for the calling key's project (docs/ingestion.md): answers
 * once its rows are written, with the items refused and why. OTLP/HTTP and OTLP/gRPC both call it.
 */
export function exportTelemetry<S extends Signal>({
  ctx,
  signal,
  request,
}: {
  ctx: IngestCtx;
  signal: S;
  request: SignalRequest[S];
}): Promise<ExportResult> {
  return ctx.deps.ingest.export(ctx.actor, signal, request);
}
