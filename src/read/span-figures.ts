// What every span figure of the read API agrees on: which span failed, and how milliseconds and
// ratios are sent. The services list, a service's page, the map, the traces chart and group-by
// all count through these, so one span is an error (or not) on every screen.

/**
 * A failed span, as http_requests and the service map count them: error status, or a 5xx
 * response whose instrumentation left the status unset.
 */
export const FAILED_SPAN = "(status = 'error' OR http_status_code >= 500)";

/** Milliseconds rounded to the microsecond, so float noise never reaches a response. */
export const roundMs = (value: number | null | undefined): number | null =>
  value === null || value === undefined || !Number.isFinite(value)
    ? null
    : Math.round(value * 1000) / 1000;

export const ratio = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);
