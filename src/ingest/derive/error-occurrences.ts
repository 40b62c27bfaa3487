import type { ErrorSeverity } from "../../contracts/error-groups.js";
import type { ErrorOccurrence, Row, Source } from "../ingest-batch.js";
import { millisToDateTime } from "../otlp/values.js";
import { fingerprintError } from "./fingerprint.js";
import { typeFromStack } from "./stack-frames.js";

export interface ExceptionInput {
  projectId: string;
  /** exception.type, exception.message, exception.stacktrace, exception.escaped (as text). */
  attributes: Record<string, string>;
  /** Used when the attributes name no type (e.g. the level of an error log). */
  fallbackType: string;
  /** Used when the attributes carry no message (e.g. a log body). */
  fallbackMessage: string;
  timestampMs: number;
  service: string;
  traceId: string;
  spanId: string;
  source: Source;
  /** The log record's id when an error log is the source; '' for a span's exception event. */
  logId?: string;
  /** A fatal log: the default severity is critical. */
  fatal: boolean;
  /** The resource's `telemetry.sdk.language`: reads a stack trace whose shape is ambiguous. */
  sdkLanguage?: string;
}

/**
 * The documented default severity of a new group: critical for fatal logs, high for exceptions
 * that escaped their span (`exception.escaped=true`), medium otherwise. Users change it later.
 */
export function defaultSeverity(fatal: boolean, escaped: boolean): ErrorSeverity {
  if (fatal) return "critical";
  return escaped ? "high" : "medium";
}

/**
 * `exception.escaped` as SDKs send it: a boolean (text "true" here) or Python's str(True), "True".
 */
export const isEscaped = (value: string | undefined): boolean =>
  value?.trim().toLowerCase() === "true";

const MAX_MESSAGE = 2000;
const MAX_STACK = 16_000;

/** One occurrence, fingerprinted, from an exception event or an error log. */
export function errorOccurrence(input: ExceptionInput): ErrorOccurrence {
  const a = input.attributes;
  const stacktrace = (a["exception.stacktrace"] ?? "").slice(0, MAX_STACK);
  const message = (a["exception.message"] || input.fallbackMessage).slice(0, MAX_MESSAGE);
  const language = input.sdkLanguage ?? "";
  const type = a["exception.type"] || typeFromStack(stacktrace, language) || input.fallbackType;
  const { fingerprint, culprit } = fingerprintError(type, message, stacktrace, language);
  return {
    projectId: input.projectId,
    fingerprint,
    type,
    message,
    stacktrace,
    culprit,
    timestampMs: input.timestampMs,
    service: input.service,
    traceId: input.traceId,
    spanId: input.spanId,
    source: input.source,
    logId: input.logId ?? "",
    severity: defaultSeverity(input.fatal, isEscaped(a["exception.escaped"])),
  };
}

/** An occurrence as its error_occurrences row: the per-event history behind a group. */
export function occurrenceRow(o: ErrorOccurrence): Row {
  return {
    project_id: o.projectId,
    fingerprint: o.fingerprint,
    timestamp: millisToDateTime(o.timestampMs),
    service_name: o.service,
    trace_id: o.traceId,
    span_id: o.spanId,
    source: o.source,
    message: o.message,
    log_id: o.logId,
  };
}
