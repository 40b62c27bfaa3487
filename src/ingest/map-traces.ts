import type { UnixTime } from "../telemetry/unix-time.js";
import type { PriceTable } from "./derive/ai-prices.js";
import { errorOccurrence } from "./derive/error-occurrences.js";
import { normalizeRoute } from "./derive/http.js";
import { failedSpanKey, sessionErrorKey } from "./derive/occurrence-key.js";
import { sessionTouch } from "./derive/sessions.js";
import type { ErrorOccurrence, MappedRequest, MappingOptions, Row } from "./ingest-batch.js";
import type { Span, TracesRequest } from "./otlp/otlp-messages.js";
import { attributeMap, cleanText, enumNumber, idHex, shaped, timeOf } from "./otlp/values.js";
import {
  firstOf,
  type ItemContext,
  itemSource,
  mapEachItem,
  pathOf,
  storableOccurrence,
  text,
} from "./resource.js";

const SPAN_KINDS = ["unspecified", "internal", "server", "client", "producer", "consumer"] as const;
const SPAN_KIND_NAMES = SPAN_KINDS.map((k) => `SPAN_KIND_${k.toUpperCase()}`);
const STATUS_CODES = ["unset", "ok", "error"] as const;
const STATUS_CODE_NAMES = STATUS_CODES.map((s) => `STATUS_CODE_${s.toUpperCase()}`);

const SERVER_KIND = 2;

const NONE: never[] = Object.freeze([]) as never[];

/** HTTP attributes under the stable semantic-convention names, then the older ones. */
function httpColumns(a: Record<string, string>) {
  const url = firstOf(a, "url.full", "http.url");
  return {
    http_method: firstOf(a, "http.request.method", "http.method"),
    http_route: a["http.route"] ?? "",
    http_target: pathOf(firstOf(a, "url.path", "http.target")) || pathOf(url),
    http_status_code: statusCodeOf(firstOf(a, "http.response.status_code", "http.status_code")),
  };
}

/** An HTTP status for the UInt16 column: 0 unless a plausible code (a negative one fails the insert). */
function statusCodeOf(value: string): number {
  const code = Number.parseInt(value, 10);
  return code >= 100 && code <= 999 ? code : 0;
}

/** A token count for a UInt64 column: 0 unless a non-negative safe integer. */
function tokenCount(value: string): number {
  const n = Number.parseInt(value, 10);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

function aiSpanRow(row: Row, a: Record<string, string>, prices: PriceTable): Row {
  const tokens = (first: string, second: string, third?: string) =>
    tokenCount(firstOf(a, first, second, third));
  const usage = {
    input: tokens("gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"),
    output: tokens("gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens"),
    cacheRead: tokens(
      "gen_ai.usage.cache_read.input_tokens",
      "gen_ai.usage.cache_read_input_tokens",
      "gen_ai.usage.cached_tokens",
    ),
    cacheCreation: tokens(
      "gen_ai.usage.cache_creation.input_tokens",
      "gen_ai.usage.cache_creation_input_tokens",
    ),
  };
  const requestModel = a["gen_ai.request.model"] ?? "";
  const responseModel = a["gen_ai.response.model"] ?? "";
  let finishReasons: string[] = [];
  const reasons = a["gen_ai.response.finish_reasons"];
  if (reasons) {
    try {
      const parsed: unknown = JSON.parse(reasons);
      // JSON escapes can spell lone surrogates again.
      finishReasons = Array.isArray(parsed)
        ? parsed.map((r) => cleanText(String(r), reasons.length))
        : [reasons];
    } catch {
      finishReasons = [reasons];
    }
  }
  return {
    project_id: row.project_id,
    timestamp: row.timestamp,
    trace_id: row.trace_id,
    span_id: row.span_id,
    parent_span_id: row.parent_span_id,
    service_name: row.service_name,
    operation_name: row.operation_name,
    ai_operation: a["gen_ai.operation.name"] ?? "",
    provider: firstOf(a, "gen_ai.provider.name", "gen_ai.system"),
    request_model: requestModel,
    response_model: responseModel,
    input_tokens: usage.input,
    output_tokens: usage.output,
    cache_read_tokens: usage.cacheRead,
    cache_creation_tokens: usage.cacheCreation,
    total_tokens: usage.input + usage.output,
    cost_usd: prices.cost(responseModel || requestModel, usage),
    duration_ms: row.duration_ms,
    status: row.status,
    status_message: row.status_message,
    finish_reasons: finishReasons,
    session_id: row.session_id,
    user_id: row.user_id,
    resource_attributes: row.resource_attributes,
    attributes: row.attributes,
  };
}

const isAiSpan = (a: Record<string, string>): boolean => {
  for (const key in a) if (key.startsWith("gen_ai.")) return true;
  return false;
};

/** OTLP spans → traces rows, plus AI spans, HTTP observations, error occurrences, session touches. */
export function mapTraces(
  request: TracesRequest,
  options: MappingOptions,
  prices: PriceTable,
): MappedRequest {
  return mapEachItem(
    request.resourceSpans,
    (r) => r.scopeSpans,
    (s) => s.spans,
    { resources: "resourceSpans", scopes: "scopeSpans", items: "spans" },
    options,
    "span is malformed",
    (span, context) => mapSpan(span, context, prices),
  );
}

function mapSpan(
  span: Span,
  { resource, scope, options, batch }: ItemContext,
  prices: PriceTable,
): string | undefined {
  const traceId = idHex(span.traceId, 16);
  const spanId = idHex(span.spanId, 8);
  const parentSpanId = idHex(span.parentSpanId, 8);
  if (!traceId) return "trace_id must be 16 bytes and not all zero";
  if (!spanId) return "span_id must be 8 bytes and not all zero";
  if (parentSpanId === undefined) return "parent_span_id must be 8 bytes";
  const start = timeOf(span.startTimeUnixNano, "start_time_unix_nano");
  if (!start) return "start_time_unix_nano is required";
  let end = timeOf(span.endTimeUnixNano, "end_time_unix_nano");
  if (!end || end.isBefore(start)) end = start;
  const durationNs = end.nanosSince(start);
  const a = attributeMap(span.attributes, options.limits);
  const kind = enumNumber(span.kind, SPAN_KIND_NAMES);
  const statusCode = enumNumber(span.status?.code, STATUS_CODE_NAMES);
  const status = STATUS_CODES[statusCode] ?? "unset";
  const http = httpColumns(a);
  const source = itemSource(a, resource);
  const sessionId = a["session.id"] || resource.sessionId;
  const userId = a["user.id"] || a["enduser.id"] || resource.userId;
  const startMs = start.millis;
  const durationMs = durationNs / 1e6;

  const name = text(span.name, options.limits);
  const statusMessage = text(span.status?.message, options.limits);
  const events = shaped(span.events, "events");
  // Most spans have no events or links: they share one empty (frozen) array per column.
  const eventTimes: UnixTime[] = events.length ? [] : NONE;
  const eventNames: string[] = events.length ? [] : NONE;
  const eventAttributes: Record<string, string>[] = events.length ? [] : NONE;
  // Pushed to the batch only once the whole span has mapped: a later rejection leaves no trace.
  let errors: ErrorOccurrence[] | undefined;
  for (const event of events) {
    const time = timeOf(event?.timeUnixNano, "event time_unix_nano") ?? start;
    const eventName = text(event?.name, options.limits);
    const attributes = attributeMap(event?.attributes, options.limits);
    eventTimes.push(time);
    eventNames.push(eventName);
    eventAttributes.push(attributes);
    if (eventName === "exception") {
      errors ??= [];
      errors.push(
        storableOccurrence(
          errorOccurrence({
            projectId: options.projectId,
            attributes,
            fallbackType: "Error",
            fallbackMessage: statusMessage || name,
            timestampMs: time.millis,
            service: resource.serviceName,
            traceId,
            spanId,
            source,
            sdkLanguage: resource.attributes["telemetry.sdk.language"] ?? "",
            fatal: false,
          }),
        ),
      );
    }
  }
  const links = shaped(span.links, "links");
  const row: Row = {
    project_id: options.projectId,
    timestamp: start,
    end_timestamp: end,
    trace_id: traceId,
    span_id: spanId,
    parent_span_id: parentSpanId,
    trace_state: text(span.traceState, options.limits),
    operation_name: name,
    span_kind: SPAN_KINDS[kind] ?? "unspecified",
    service_name: resource.serviceName,
    service_version: resource.serviceVersion,
    duration_ns: durationNs,
    duration_ms: durationMs,
    status,
    status_message: statusMessage,
    http_method: http.http_method,
    http_route: http.http_route,
    http_target: http.http_target,
    http_status_code: http.http_status_code,
    source,
    session_id: sessionId,
    user_id: userId,
    scope_name: scope.scope_name,
    scope_version: scope.scope_version,
    resource_attributes: resource.attributes,
    attributes: a,
    events_timestamp: eventTimes,
    events_name: eventNames,
    events_attributes: eventAttributes,
    links_trace_id: links.length ? links.map((l) => idHex(l?.traceId, 16) ?? "") : NONE,
    links_span_id: links.length ? links.map((l) => idHex(l?.spanId, 8) ?? "") : NONE,
    links_attributes: links.length
      ? links.map((l) => attributeMap(l?.attributes, options.limits))
      : NONE,
  };
  batch.traces.push(row);
  if (errors) batch.errors.push(...errors);

  const ai = isAiSpan(a);
  if (ai) batch.aiSpans.push(aiSpanRow(row, a, prices));
  if (kind === SERVER_KIND && (http.http_method || http.http_status_code)) {
    batch.http.push({
      projectId: options.projectId,
      minute: Math.floor(startMs / 60_000) * 60,
      service: resource.serviceName,
      method: http.http_method || "_OTHER",
      route: http.http_route || normalizeRoute(http.http_target) || name,
      statusCode: http.http_status_code,
      durationMs,
      failed: http.http_status_code >= 500 || status === "error",
    });
  }
  if (sessionId) {
    batch.sessions.push(
      sessionTouch({
        projectId: options.projectId,
        sessionId,
        timestampMs: startMs,
        kind: "span",
        errorKeys: errors
          ? [...new Set(errors.map(sessionErrorKey))]
          : status === "error"
            ? [failedSpanKey(traceId, spanId)]
            : [],
        isAi: ai,
        userId,
        service: resource.serviceName,
        attributes: a,
        resource,
        source,
        spanName: name,
      }),
    );
  }
  return undefined;
}
