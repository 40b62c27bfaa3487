import type { TelemetryExecutor } from "../../src/telemetry/executor.js";

/**
 * Fills the traces table in the engine itself (INSERT … SELECT, no OTLP): `rows` spans of eight
 * services over the last 24 hours, one in eight a server span with an HTTP route, 2 % errors,
 * durations of 1–400 ms with a 1 % tail up to 5 s. Fast enough to lay down millions of rows for a
 * read benchmark; what ingestion costs is bench:ingest's question, not this one's.
 */
export async function insertSyntheticSpans(
  executor: TelemetryExecutor,
  project: string,
  rows: number,
) {
  const database = executor.database;
  const chunk = 2_000_000;
  for (let offset = 0; offset < rows; offset += chunk) {
    const count = Math.min(chunk, rows - offset);
    await executor.command(
      `INSERT INTO ${database}.traces (project_id, timestamp, end_timestamp, trace_id, span_id, parent_span_id,
        operation_name, span_kind, service_name, duration_ns, duration_ms, status, http_method, http_route,
        http_status_code, source, attributes)
      SELECT
        {project:String},
        now64(9) - toIntervalMillisecond(intDiv(rand(1) % 86400000, 1)) AS ts,
        ts + toIntervalMillisecond(d),
        lower(hex(cityHash64(intDiv(n, 8)))) || lower(hex(cityHash64(intDiv(n, 8) + 1))),
        lower(hex(cityHash64(n, 7))),
        if(n % 8 = 0, '', lower(hex(cityHash64(n - 1, 7)))),
        ['GET /api/orders', 'POST /api/checkout', 'SELECT orders', 'GET /api/users/{id}', 'chat gpt-4o', 'GET /health'][n % 6 + 1],
        if(n % 8 = 0, 'server', 'internal'),
        ['gateway', 'orders', 'users', 'payments', 'assistant', 'web', 'inventory', 'search'][n % 8 + 1],
        toUInt64(d * 1000000),
        toFloat64(d),
        if(rand(2) % 50 = 0, 'error', 'ok'),
        if(n % 8 = 0, ['GET', 'POST', 'PUT'][n % 3 + 1], ''),
        if(n % 8 = 0, ['/api/orders', '/api/checkout', '/api/users/{id}'][n % 3 + 1], ''),
        if(n % 8 = 0, [200, 200, 200, 201, 404, 500][rand(3) % 6 + 1], 0),
        if(n % 16 = 0, 'frontend', 'backend'),
        map('http.method', ['GET', 'POST', 'PUT'][n % 3 + 1], 'region', ['eu', 'us', 'ap'][n % 3 + 1])
      FROM (SELECT number + {offset:UInt64} AS n, 1 + (rand(4) % 400) + if(rand(5) % 100 = 0, rand(6) % 5000, 0) AS d
            FROM numbers({count:UInt64}))`,
      { params: { project, offset, count } },
    );
  }
}
