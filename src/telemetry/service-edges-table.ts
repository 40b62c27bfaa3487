import { c, HTTP_DURATION_BOUNDS_MS, LC, project, type TableDef } from "./tables.js";

/**
 * Calls between services, and into databases, external hosts and message systems, found at
 * ingest by pairing a client span with the server span it caused (src/ingest/derive/
 * service-edges.ts; docs/services.md), summed per minute. Rows whose `source_service` is ''
 * are a service's own entry spans (every request it served, whoever called), so the service
 * map needs no scan of `traces`. Several rows may share a key (one per write): sum them.
 */
export const SERVICE_EDGES: TableDef = {
  name: "service_edges",
  description:
    "Per-minute calls from a service to another service, a database, an external host or a message system, and each service's entry spans (source_service ''). Several rows may share a key: aggregate with sum/min/max.",
  columns: [
    project,
    c("timestamp", "DateTime('UTC')", "Start of the minute (the calling span's start)"),
    c("source_service", LC, "Calling service; '' for a row of the target's own entry spans"),
    c("target", LC, "Called service, database (`system/name`), external host or message system"),
    c("target_kind", LC, "`service`, `database`, `external` or `messaging`"),
    c("calls", "UInt64", "Calls in the minute"),
    c("errors", "UInt64", "Calls that failed (error status or a 5xx on either side)"),
    c("duration_sum_ms", "Float64", "Sum of call durations in ms (the caller's span when known)"),
    c("duration_min_ms", "Float64", "Shortest call in ms"),
    c("duration_max_ms", "Float64", "Longest call in ms"),
    c(
      "duration_buckets",
      "Array(UInt64)",
      `Calls per duration bucket with upper bounds ${HTTP_DURATION_BOUNDS_MS.join(", ")} ms and a last bucket above; merge with sumForEach`,
    ),
  ],
  engine: "MergeTree",
  partitionBy: "toDate(timestamp)",
  orderBy: "(project_id, timestamp, source_service, target, target_kind)",
  ttlExpression: "timestamp",
  indexes: [],
  // One edge's per-minute partial rows on one shard; edges spread over the shards.
  shardingKey: "cityHash64(project_id, source_service, target)",
};
