import type { AppDeps } from "../../src/composition/app-deps.js";
import { newAlertRuleRecord } from "../../src/meta/repositories/alert-rules.js";
import { log } from "../harness/run.js";
import { RULES, ruleQuery, SPANS } from "./settings.js";

/** SPANS spans of the project generated in the engine over the last hour (as bench:tql does). */
export async function generateSpans(deps: AppDeps, projectId: string) {
  const telemetry = deps.telemetry;
  const started = performance.now();
  for (let offset = 0; offset < SPANS; offset += 500_000) {
    const count = Math.min(500_000, SPANS - offset);
    await telemetry.command(
      `INSERT INTO ${telemetry.database}.traces (project_id, timestamp, end_timestamp, trace_id, span_id, parent_span_id,
        operation_name, span_kind, service_name, duration_ns, duration_ms, status, http_method, http_route,
        http_status_code, source)
      SELECT {project:String}, now64(9) - toIntervalMillisecond(rand(1) % 3600000) AS ts, ts + toIntervalMillisecond(d),
        lower(hex(cityHash64(intDiv(n, 8)))) || lower(hex(cityHash64(intDiv(n, 8) + 1))), lower(hex(cityHash64(n, 7))),
        if(n % 8 = 0, '', lower(hex(cityHash64(n - 1, 7)))),
        ['GET /api/orders', 'POST /api/checkout', 'SELECT orders', 'GET /api/users/{id}'][n % 4 + 1],
        if(n % 8 = 0, 'server', 'internal'),
        ['gateway', 'orders', 'users', 'payments', 'assistant', 'web', 'inventory', 'search'][n % 8 + 1],
        toUInt64(d * 1000000), toFloat64(d), if(rand(2) % 50 = 0, 'error', 'ok'),
        if(n % 8 = 0, 'GET', ''), if(n % 8 = 0, ['/api/orders', '/api/checkout', '/api/users/{id}'][n % 3 + 1], ''),
        if(n % 8 = 0, [200, 200, 200, 201, 404, 500][rand(3) % 6 + 1], 0), 'backend'
      FROM (SELECT number + {offset:UInt64} AS n, 1 + (rand(4) % 400) + if(rand(5) % 100 = 0, rand(6) % 5000, 0) AS d
            FROM numbers({count:UInt64}))`,
      { params: { project: projectId, offset, count } },
    );
  }
  log(
    `dataset: ${SPANS.toLocaleString("en")} spans in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** RULES rules at a 1 min interval, written through the repository; their ids. */
export async function insertRules(deps: AppDeps, projectId: string): Promise<string[]> {
  const at = new Date().toISOString();
  const ruleIds: string[] = [];
  for (let i = 0; i < RULES; i++) {
    const { query, threshold } = ruleQuery(i);
    const id = `alr_bench${String(i).padStart(5, "0")}`;
    ruleIds.push(id);
    await deps.meta.repos.alertRules.insert(
      newAlertRuleRecord({
        id,
        projectId,
        name: `bench rule ${i}`,
        description: "",
        severity: "medium",
        definition: {
          preset: null,
          condition: { op: ">", threshold },
          interval: "1m",
          forSeconds: 60,
          noData: "ok",
          renotifyMinutes: 0,
          openIncident: false,
          messageTemplate: "{{value}} > {{threshold}}",
          escalationPolicyId: null,
        },
        query,
        channelIds: [],
        at,
      }),
    );
  }

  return ruleIds;
}
