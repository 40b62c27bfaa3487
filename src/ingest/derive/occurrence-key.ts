import { createHash } from "node:crypto";

/**
 * What makes an occurrence one (docs/ingestion.md, "One occurrence"): within its group (the
 * fingerprint fixes the type), the trace, span and message. A span's exception event and a log
 * record of the same span with the same type and message are two sources of one occurrence,
 * whichever arrives first. Undefined without a span: such an occurrence is always its own.
 */
export function occurrenceKey(o: {
  fingerprint: string;
  traceId: string;
  spanId: string;
  message: string;
}): string | undefined {
  if (o.traceId === "" || o.spanId === "") return undefined;
  return `${o.fingerprint}\u0000${o.traceId}\u0000${o.spanId}\u0000${o.message}`;
}

/**
 * A session's key of one error (sessions.error_keys): `<trace><span>:<digest>` for an occurrence
 * in a span, so two sources of it are one; `<trace><span>:` for a failed span that recorded no
 * exception (counted only when nothing else in the span is an error); `log:<id>` for an error
 * log without a span.
 */
export function sessionErrorKey(o: {
  fingerprint: string;
  traceId: string;
  spanId: string;
  message: string;
  logId: string;
}): string {
  if (o.traceId === "" || o.spanId === "") return `log:${o.logId}`;
  const digest = createHash("sha256")
    .update(`${o.fingerprint}\u0000${o.message}`)
    .digest("hex")
    .slice(0, 16);
  return `${o.traceId}${o.spanId}:${digest}`;
}

/** sessions.error_keys of a failed span that recorded no exception event. */
export const failedSpanKey = (traceId: string, spanId: string): string => `${traceId}${spanId}:`;
