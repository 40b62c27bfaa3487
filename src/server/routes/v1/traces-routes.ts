import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import { listOf } from "../../../contracts/pagination.js";
import {
  SpanBaselines,
  SpanDetail,
  TraceDetail,
  TraceGroupBy,
  TraceSpans,
  TraceStats,
  TraceSummary,
} from "../../../contracts/traces.js";
import { spanBaselines } from "../../../read/span-baselines.js";
import { TraceGroupByQuery, traceGroupBy } from "../../../read/trace-group-by.js";
import { traceDetailJson } from "../../../read/trace-json.js";
import { getSpan, getTraceSpans, SpanIdParam } from "../../../read/trace-spans.js";
import { TraceStatsQuery, traceStats } from "../../../read/trace-stats.js";
import { getTrace, ListTracesQuery, listTraces, TraceIdParam } from "../../../read/traces.js";
import { keyReader, readRoute } from "./read-route.js";

/** GET /v1/traces, its stats and groups, and /v1/traces/:traceId with its spans and baselines. */
export const tracesRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const reader = (request: FastifyRequest) => keyReader(deps.domain, request);
    app.get(
      "/traces",
      readRoute({
        permission: "traces:read",
        summary: "Traces, newest first by start time",
        description:
          "One summary per trace: root service and operation, start, duration, span and error counts, services. " +
          "Span filters select the traces containing such a span: `span_id`, `parent_span_id`, " +
          "`service`, and one span meeting `span_kind` and every filter of `filters` together. " +
          "`status`, `min_duration` and `max_duration` are the whole trace's.",
        querystring: ListTracesQuery,
        response: listOf(TraceSummary),
      }),
      async (request) => listTraces({ ...reader(request), ...request.query }),
    );
    app.get(
      "/traces/stats",
      readRoute({
        permission: "traces:read",
        summary: "Span rate, errors and duration percentiles per bucket, following the filters",
        description:
          "Spans matching `service`, `span_kind`, `status`, `min_duration`/`max_duration` (the span's " +
          "own) and every filter, per bucket of the window (at most 120, empty ones too) and over it: " +
          "count, rate per second, errors, p50/p95/p99 duration. Window default: the last 24 h.",
        querystring: TraceStatsQuery,
        response: TraceStats,
      }),
      async (request) => traceStats({ ...reader(request), ...request.query }),
    );
    app.get(
      "/traces/group-by",
      readRoute({
        permission: "traces:read",
        summary: "Span figures per value of one field (e.g. p95 by http_route)",
        description:
          "The spans the stats would cover, grouped by `by` (a column, `attributes.<key>` or " +
          "`resource.<key>`): count, rate, errors, error rate and p50/p95/p99 per group, sorted by " +
          "`sort_by`, the first `limit` groups, with the number of groups and spans in all.",
        querystring: TraceGroupByQuery,
        response: TraceGroupBy,
      }),
      async (request) => traceGroupBy({ ...reader(request), ...request.query }),
    );
    app.get(
      "/traces/:traceId",
      readRoute({
        permission: "traces:read",
        summary: "One trace with its whole span tree",
        description:
          "Children are nested in start order; each span has its depth and self time. Spans whose " +
          "parent is not in the trace hang under the root with `orphan: true`.",
        params: z.object({ traceId: TraceIdParam }),
        response: TraceDetail,
      }),
      async (request, reply) => {
        const detail = await getTrace({ ...reader(request), traceId: request.params.traceId });
        // Written by hand: a deep tree overflows JSON.stringify's (and zod's) recursion.
        // The type provider expects the schema's object; the text is that object, serialized.
        return reply
          .type("application/json; charset=utf-8")
          .send(traceDetailJson(detail) as unknown as z.infer<typeof TraceDetail>);
      },
    );
    app.get(
      "/traces/:traceId/spans",
      readRoute({
        permission: "traces:read",
        summary: "One trace's spans in columns, for large waterfalls",
        description:
          "The whole tree in depth-first order (children by start), one array per field, names, " +
          "kinds and statuses as indexes into small tables: about 50 bytes a span, so a " +
          "50,000-span trace stays a few megabytes. Each span's attributes, events and links " +
          "come from `/v1/traces/{traceId}/spans/{spanId}`.",
        params: z.object({ traceId: TraceIdParam }),
        response: TraceSpans,
      }),
      async (request, reply) => {
        const spans = await getTraceSpans({ ...reader(request), traceId: request.params.traceId });
        // Built to the schema by the verb: checking 450,000 array items again on the way out
        // would cost more than serializing them.
        return reply
          .type("application/json; charset=utf-8")
          .send(JSON.stringify(spans) as unknown as TraceSpans);
      },
    );
    app.get(
      "/traces/:traceId/baselines",
      readRoute({
        permission: "traces:read",
        summary: "The usual duration of each of a trace's operations, over the 24 h before it",
        description:
          "For each (service, span name) of the trace: how many such spans ran in the 24 hours " +
          "before the trace started, and their p50 and p95 duration, to compare the trace's spans with.",
        params: z.object({ traceId: TraceIdParam }),
        response: SpanBaselines,
      }),
      async (request) => spanBaselines({ ...reader(request), traceId: request.params.traceId }),
    );
    app.get(
      "/traces/:traceId/spans/:spanId",
      readRoute({
        permission: "traces:read",
        summary: "One span with its attributes, resource, events, links and error groups",
        params: z.object({ traceId: TraceIdParam, spanId: SpanIdParam }),
        response: SpanDetail,
      }),
      async (request) => getSpan({ ...reader(request), ...request.params }),
    );
  };
