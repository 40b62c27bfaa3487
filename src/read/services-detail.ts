import type {
  ServiceDetail,
  ServiceErrorGroup,
  ServiceInstance,
  ServiceOperation,
  ServiceSummary,
} from "../contracts/services.js";
import { DomainError } from "../lib/domain-errors.js";
import { bucketStarts, isoMs, type TimeWindow } from "../lib/list-params.js";
import { occurrencesOf } from "./occurrences.js";
import type { ReadCtx } from "./read-deps.js";
import { edgeSeconds, edgeView, readEdges } from "./service-map-edges.js";
import {
  ENTRY_SPAN,
  type FigureRow,
  figuresOf,
  type ServicesQuery,
  SPAN_FIGURES,
  serviceSummaries,
  servicesWindow,
} from "./services.js";
import { FAILED_SPAN } from "./span-figures.js";
import { num, Sql, textOrNull, whereClause } from "./sql.js";

export { ServicesQuery as ServiceDetailQuery } from "./services.js";

const MAX_OPERATIONS = 200;
const MAX_INSTANCES = 100;
const MAX_ERROR_GROUPS = 50;

const resource = (key: string) => `resource_attributes['${key}']`;
/** `service.instance.id`, else `host.name`, else `k8s.pod.name`, else ''. */
const INSTANCE = `multiIf(${resource("service.instance.id")} != '', ${resource("service.instance.id")},
  ${resource("host.name")} != '', ${resource("host.name")}, ${resource("k8s.pod.name")})`;

function operations(sql: Sql, where: string, seconds: number): Promise<ServiceOperation[]> {
  return sql
    .query<
      FigureRow & Record<"operation_name" | "span_kind" | "http_method" | "http_route", string>
    >(
      `SELECT operation_name, span_kind, http_method, http_route, ${SPAN_FIGURES}
       FROM ${sql.table("traces")} ${where} AND ${ENTRY_SPAN}
       GROUP BY operation_name, span_kind, http_method, http_route
       ORDER BY requests DESC, operation_name, http_route LIMIT ${MAX_OPERATIONS}`,
    )
    .then((rows) =>
      rows.map((row) => ({
        operation: row.operation_name,
        spanKind: row.span_kind,
        httpMethod: textOrNull(row.http_method),
        httpRoute: textOrNull(row.http_route),
        ...figuresOf(row, seconds),
      })),
    );
}

/** Its instances over every span of the service (workers have few entry spans), busiest first. */
function instances(sql: Sql, where: string): Promise<ServiceInstance[]> {
  return sql
    .query<{
      instance: string;
      requests: string;
      errors: string;
      last_ms: string;
      version: string;
      resource: Record<string, string>;
    }>(
      `SELECT ${INSTANCE} AS instance, countIf(${ENTRY_SPAN}) AS requests,
         countIf(${ENTRY_SPAN} AND ${FAILED_SPAN}) AS errors,
         toUnixTimestamp64Milli(max(timestamp)) AS last_ms,
         argMax(service_version, timestamp) AS version,
         argMax(resource_attributes, timestamp) AS resource
       FROM ${sql.table("traces")} ${where}
       GROUP BY instance ORDER BY requests DESC, last_ms DESC, instance LIMIT ${MAX_INSTANCES}`,
    )
    .then((rows) =>
      rows.map((row) => ({
        instance: row.instance,
        host: textOrNull(row.resource["host.name"]),
        version: textOrNull(row.version),
        requests: num(row.requests),
        errors: num(row.errors),
        lastSeen: isoMs(num(row.last_ms)),
        resource: row.resource,
      })),
    );
}

/**
 * Its error groups by occurrences in the window (an occurrence counted once, not per source),
 * then their types: two statements, as a join of two Distributed tables would need GLOBAL.
 */
async function errorGroups(
  sql: Sql,
  window: TimeWindow,
  service: string,
): Promise<ServiceErrorGroup[]> {
  const where = whereClause(sql, [
    ...sql.within("timestamp", window),
    `service_name = ${sql.bind(service)}`,
  ]);
  const rows = await sql.query<{ fingerprint: string; n: string; last_ms: string; latest: string }>(
    `SELECT fingerprint, count() AS n, toUnixTimestamp64Milli(max(at)) AS last_ms,
       argMax(message, at) AS latest
     FROM ${occurrencesOf(sql.table("error_occurrences"), where)}
     GROUP BY fingerprint ORDER BY n DESC, fingerprint LIMIT ${MAX_ERROR_GROUPS}`,
  );
  if (rows.length === 0) return [];
  const types = new Map(
    (
      await sql.query<{ fingerprint: string; exception_type: string }>(
        `SELECT fingerprint, exception_type FROM ${sql.table("error_groups")} FINAL
         ${whereClause(sql, [`fingerprint IN ${sql.bind(rows.map((r) => r.fingerprint))}`])}`,
      )
    ).map((r) => [r.fingerprint, r.exception_type]),
  );
  return rows.map((row) => ({
    errorId: row.fingerprint,
    type: types.get(row.fingerprint) ?? "",
    message: row.latest,
    occurrences: num(row.n),
    lastSeen: isoMs(num(row.last_ms)),
  }));
}

/** Whether the project has any span of the service, at any time (a skip index lookup). */
async function exists(sql: Sql, service: string): Promise<boolean> {
  const rows = await sql.query(
    `SELECT 1 FROM ${sql.table("traces")} ${whereClause(sql, [`service_name = ${sql.bind(service)}`])} LIMIT 1`,
  );
  return rows.length > 0;
}

/**
 * GET /v1/services/:service: its figures and series, operations, instances, callers and
 * callees, and error groups over the window; 404 when the project has never seen it.
 */
export async function serviceDetail({
  ctx,
  projectId,
  service,
  ...query
}: { ctx: ReadCtx; projectId: string; service: string } & ServicesQuery): Promise<ServiceDetail> {
  const deps = ctx.deps.read;
  const { window, step, seconds } = servicesWindow(query, deps.clock.now().getTime());
  const sql = new Sql(deps.telemetry, projectId);
  const where = whereClause(sql, [
    ...sql.within("timestamp", window),
    `service_name = ${sql.bind(service)}`,
  ]);
  const [summaries, ops, nodes, edges, errors] = await Promise.all([
    serviceSummaries(sql, window, step, service),
    operations(sql, where, seconds),
    instances(sql, where),
    readEdges(sql, window, service),
    errorGroups(sql, window, service),
  ]);
  const edgesOut = edges.filter((e) => e.source !== "");
  if (summaries.length === 0 && nodes.length === 0 && edgesOut.length === 0) {
    // The name is the caller's own text: the answer does not repeat it.
    if (!(await exists(sql, service)))
      throw new DomainError("not_found", "No span of this service is stored in this project");
  }
  const summary: ServiceSummary = summaries[0] ?? {
    service,
    ...figuresOf(undefined, seconds),
    series: bucketStarts(window, step).map((time) => ({
      time: isoMs(time),
      requests: 0,
      errors: 0,
      p95Ms: null,
    })),
  };
  return {
    from: isoMs(window.fromMs),
    to: isoMs(window.toMs),
    bucketSeconds: step / 1000,
    summary,
    operations: ops,
    instances: nodes,
    upstream: edgesOut
      .filter((e) => e.target === service && e.targetKind === "service")
      .map((e) => edgeView(e, edgeSeconds(window))),
    downstream: edgesOut
      .filter((e) => e.source === service)
      .map((e) => edgeView(e, edgeSeconds(window))),
    errors,
  };
}
