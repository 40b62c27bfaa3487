import type { UnixTime } from "../telemetry/unix-time.js";
import { errorOccurrence } from "./derive/error-occurrences.js";
import { sessionErrorKey } from "./derive/occurrence-key.js";
import { sessionTouch } from "./derive/sessions.js";
import type { MappedRequest, MappingOptions } from "./ingest-batch.js";
import type { LogRecord, LogsRequest } from "./otlp/otlp-messages.js";
import {
  acceptedTime,
  anyValueText,
  attributeMap,
  enumNumber,
  idHex,
  timeOf,
  unixTime,
} from "./otlp/values.js";
import { type ItemContext, itemSource, mapEachItem, storableOccurrence, text } from "./resource.js";

export const LOG_LEVELS = ["debug", "info", "warn", "error", "fatal"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const SEVERITY_NAMES = [
  "SEVERITY_NUMBER_UNSPECIFIED",
  ...["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"].flatMap((name) =>
    ["", "2", "3", "4"].map((n) => `SEVERITY_NUMBER_${name}${n}`),
  ),
];

const TEXT_LEVELS: Record<string, LogLevel> = {
  trace: "debug",
  debug: "debug",
  info: "info",
  information: "info",
  notice: "info",
  warn: "warn",
  warning: "warn",
  error: "error",
  err: "error",
  critical: "fatal",
  crit: "fatal",
  alert: "fatal",
  emergency: "fatal",
  emerg: "fatal",
  fatal: "fatal",
  panic: "fatal",
};

/**
 * The level of a record: from the severity number (TRACE and DEBUG → debug, INFO → info, WARN →
 * warn, ERROR → error, FATAL → fatal), else from the severity text, else info.
 */
export function levelOf(severityNumber: number, severityText: string): LogLevel {
  if (severityNumber >= 1 && severityNumber <= 24) {
    return (["debug", "debug", "info", "warn", "error", "fatal"] as const)[
      Math.floor((severityNumber - 1) / 4)
    ] as LogLevel;
  }
  return TEXT_LEVELS[severityText.trim().toLowerCase()] ?? "info";
}

/** A fast, time-sortable log id: `log_` + 12 hex chars of milliseconds + 16 of a counter. */
// The 64-bit counter as two 32-bit words, starting at a random 48-bit number << 16.
let counterHigh = Math.floor(Math.random() * 2 ** 32);
let counterLow = (Math.floor(Math.random() * 2 ** 16) * 2 ** 16) >>> 0;
function logId(ms: number): string {
  counterLow = (counterLow + 1) >>> 0;
  if (counterLow === 0) counterHigh = (counterHigh + 1) >>> 0;
  return `log_${ms.toString(16).padStart(12, "0")}${counterHigh.toString(16).padStart(8, "0")}${counterLow.toString(16).padStart(8, "0")}`;
}

/**
 * The observed time is the collector's, secondary to the record's own: absent or out of range,
 * the receive time stands in rather than rejecting the record.
 */
function observedTime(value: LogRecord["observedTimeUnixNano"], received: UnixTime): UnixTime {
  const time = unixTime(value);
  return time && acceptedTime(time) ? time : received;
}

/** A severity number outside 0–24 (the UInt8 column refuses negatives) counts as unspecified. */
const severityOf = (n: number): number => (Number.isInteger(n) && n >= 0 && n <= 24 ? n : 0);

/** OTLP log records → logs rows, plus error occurrences for error and fatal records. */
export function mapLogs(request: LogsRequest, options: MappingOptions): MappedRequest {
  return mapEachItem(
    request.resourceLogs,
    (r) => r.scopeLogs,
    (s) => s.logRecords,
    { resources: "resourceLogs", scopes: "scopeLogs", items: "logRecords" },
    options,
    "log record is malformed",
    mapRecord,
  );
}

function mapRecord(
  record: LogRecord,
  { resource, scope, options, batch }: ItemContext,
): string | undefined {
  const traceId = idHex(record.traceId, 16);
  const spanId = idHex(record.spanId, 8);
  if (traceId === undefined) return "trace_id must be 16 bytes";
  if (spanId === undefined) return "span_id must be 8 bytes";
  const own = timeOf(record.timeUnixNano, "time_unix_nano");
  const observed = observedTime(record.observedTimeUnixNano, options.received);
  const time = own ?? observed;
  const severityNumber = severityOf(enumNumber(record.severityNumber, SEVERITY_NAMES));
  const severityText = text(record.severityText, options.limits);
  const level = levelOf(severityNumber, severityText);
  const a = attributeMap(record.attributes, options.limits);
  const message =
    anyValueText(record.body, options.limits.maxValueLength) ||
    text(record.eventName, options.limits);
  const source = itemSource(a, resource);
  const sessionId = a["session.id"] || resource.sessionId;
  const userId = a["user.id"] || a["enduser.id"] || resource.userId;
  const ms = time.millis;
  const id = logId(ms);
  batch.logs.push({
    project_id: options.projectId,
    id,
    timestamp: time,
    observed_timestamp: observed,
    trace_id: traceId,
    span_id: spanId,
    trace_flags: (record.flags ?? 0) & 0xff,
    severity_number: severityNumber,
    severity_text: severityText,
    level,
    service_name: resource.serviceName,
    message,
    source,
    session_id: sessionId,
    user_id: userId,
    ...scope,
    resource_attributes: resource.attributes,
    attributes: a,
  });
  const isError = level === "error" || level === "fatal";
  const occurrence = isError
    ? storableOccurrence(
        errorOccurrence({
          projectId: options.projectId,
          attributes: a,
          fallbackType: level,
          fallbackMessage: message,
          timestampMs: ms,
          service: resource.serviceName,
          traceId,
          spanId,
          source,
          logId: id,
          sdkLanguage: resource.attributes["telemetry.sdk.language"] ?? "",
          fatal: level === "fatal",
        }),
      )
    : undefined;
  if (occurrence) batch.errors.push(occurrence);
  if (sessionId) {
    batch.sessions.push(
      sessionTouch({
        projectId: options.projectId,
        sessionId,
        timestampMs: ms,
        kind: "log",
        errorKeys: occurrence ? [sessionErrorKey(occurrence)] : [],
        isAi: false,
        userId,
        service: resource.serviceName,
        attributes: a,
        resource,
        source,
      }),
    );
  }
  return undefined;
}
