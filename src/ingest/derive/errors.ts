import { createHash } from "node:crypto";
import type { ErrorOccurrence, ErrorSeverity, Row, Source } from "../model.js";
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
 * occurrenceKey in SQL, over error_occurrences' columns (`prefix`: a table alias and a dot):
 * `has`, the condition of a row having a key (a trace and a span); `columns`, the key's columns
 * to group by. Readers and recounts build keys from these, so they agree with ingestion.
 */
export function occurrenceKeySql(prefix = ""): { has: string; columns: string } {
  return {
    has: `${prefix}trace_id != '' AND ${prefix}span_id != ''`,
    columns: ["fingerprint", "trace_id", "span_id", "message"].map((c) => prefix + c).join(", "),
  };
}

/**
 * sessionErrorKey in SQL, from error_occurrences' columns (`prefix`: a table alias and a dot) of
 * a row with a key (occurrenceKeySql().has): `<trace><span>:<16 hex of the SHA-256 of fingerprint
 * NUL message>`, the key ingestion writes for the same occurrence.
 */
export const sessionErrorKeySql = (prefix = ""): string =>
  `concat(${prefix}trace_id, ${prefix}span_id, ':', lower(hex(substring(SHA256(concat(${prefix}fingerprint, '\\0', ${prefix}message)), 1, 8))))`;

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
