import type { RunningService } from "../../src/cli/serve.js";
import { systemCtx } from "../../src/context.js";
import { initialize } from "../../src/setup/initialize.js";
import { ATTRIBUTE_VALUES } from "../../src/telemetry/attribute-catalog-tables.js";
import { derivedSelect } from "../../src/telemetry/derived-view.js";
import type { TelemetryExecutor } from "../../src/telemetry/executor.js";
import { load, settle } from "../api/data.js";
import { log } from "../harness/run.js";
import { fmt } from "../harness/stats.js";

const HOUR = 3_600_000;

/**
 * Tops the project's logs up to `rows` over the last hour in the engine itself (INSERT … SELECT),
 * then counts them into the attribute catalog with the catalog's own SQL (ingestion counts what
 * comes through OTLP; these rows did not): eight services on two
 * instances each, the five levels, messages from a dozen patterns with numbers in them, and
 * attributes of a handful of keys, one of them high-cardinality (`request.id`).
 */
async function insertSyntheticLogs(executor: TelemetryExecutor, project: string, rows: number) {
  if (rows <= 0) return;
  await executor.command(
    `INSERT INTO ${executor.database}.logs (project_id, id, timestamp, observed_timestamp, trace_id,
       span_id, severity_number, severity_text, level, service_name, message, source,
       resource_attributes, attributes)
     SELECT
       {project:String},
       'log_' || lower(leftPad(hex(toUnixTimestamp64Milli(ts)), 12, '0')) || lower(hex(cityHash64(n, 11))),
       ts, ts, '', '',
       [5, 9, 9, 9, 13, 17][n % 6 + 1],
       ['DEBUG', 'INFO', 'INFO', 'INFO', 'WARN', 'ERROR'][n % 6 + 1],
       ['debug', 'info', 'info', 'info', 'warn', 'error'][n % 6 + 1],
       ['gateway', 'orders', 'users', 'payments', 'assistant', 'web', 'inventory', 'search'][n % 8 + 1],
       [
         'request completed in ' || toString(n % 900) || ' ms',
         'cache miss for key user:' || toString(n % 5000),
         'payment declined: card expired (order ' || toString(n % 7000) || ')',
         'upstream timeout after 30000 ms calling inventory',
         'connection reset by peer while reading response',
         'retrying request attempt ' || toString(n % 5),
         'slow query took ' || toString(n % 3000) || ' ms: SELECT * FROM orders',
         'user ' || toString(n % 20000) || ' signed in',
         'queue depth ' || toString(n % 400),
         'validation failed: email is required',
         'feature flag checkout_v2 evaluated to true',
         'shutting down worker ' || toString(n % 16)
       ][n % 12 + 1],
       'backend',
       map('host.name', 'host-' || toString(n % 16), 'deployment.environment', ['production', 'staging'][n % 2 + 1]),
       map('http.route', ['/api/orders', '/api/checkout', '/api/users/{id}', '/health'][n % 4 + 1],
           'customer.tier', ['free', 'pro', 'enterprise'][n % 3 + 1],
           'request.id', lower(hex(cityHash64(n, 3))))
     FROM (SELECT number AS n,
                  now64(9) - toIntervalMillisecond(rand(1) % ${HOUR}) AS ts
           FROM numbers({rows:UInt64}))`,
    { params: { project, rows } },
  );
  const fill = ATTRIBUTE_VALUES.fills?.find((f) => f.source === "logs");
  if (!fill) throw new Error("the catalog has no SQL for logs");
  const columns = ATTRIBUTE_VALUES.columns.map((c) => c.name).join(", ");
  // The synthetic logs are the project's only ones with `customer.tier`.
  const synthetic = "project_id = {project:String} AND mapContains(attributes, 'customer.tier')";
  await executor.command(
    `INSERT INTO ${executor.database}.attribute_values (${columns})
     ${derivedSelect(fill, `${executor.database}.logs`, synthetic)}`,
    { params: { project } },
  );
}

/**
 * One project with `spans` demo spans over the last hour through the real OTLP endpoint (so the
 * service map's pairing and the catalog see them as they see any export), its logs topped up to
 * `logs` records, and the engine's merges settled.
 */
export async function loadExploreDataset(service: RunningService, spans: number, logs: number) {
  const { deps } = service;
  const setup = await initialize({
    ctx: systemCtx(deps.domain),
    input: { email: "bench@example.com", password: "bench password 1" },
  });
  const apiKey = setup.apiKey ?? "";
  log(`Loading ${fmt(spans)} demo spans over the last hour through OTLP`);
  const started = performance.now();
  const loaded = await load(service.url, apiKey, spans, 42, "project", HOUR);
  const count = async (table: string) =>
    Number(
      (
        await deps.telemetry.query<{ n: string }>(
          `SELECT count() AS n FROM ${deps.telemetry.database}.${table} WHERE project_id = {p:String}`,
          { params: { p: setup.projectId } },
        )
      )[0]?.n ?? 0,
    );
  const demoLogs = await count("logs");
  log(`Adding ${fmt(logs - demoLogs)} synthetic logs to the demo's ${fmt(demoLogs)}`);
  await insertSyntheticLogs(deps.telemetry, setup.projectId, logs - demoLogs);
  const loadSeconds = (performance.now() - started) / 1000;
  const parts = await settle(deps.telemetry);
  return {
    apiKey,
    orgId: setup.orgId,
    projectId: setup.projectId,
    loadSeconds,
    spans: await count("traces"),
    logs: await count("logs"),
    edgeRows: await count("service_edges"),
    acknowledged: loaded.items,
    parts,
  };
}
export type ExploreDataset = Awaited<ReturnType<typeof loadExploreDataset>>;
