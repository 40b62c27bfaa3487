/**
 * npm run docs:examples — writes src/server/openapi-examples.json: for every GET /v1 route of
 * the OpenAPI document, a 200 body taken from the real service over a small `vigil demo`
 * dataset, trimmed to stay readable. src/server/plugins/openapi.ts attaches them to the
 * document; test/openapi-examples.int.test.ts checks each still parses with its route's schema.
 *
 * The dataset is deterministic (fixed seed); ids assigned by the service and times are not,
 * so a rerun changes those values but not the shapes.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRule } from "../src/alerts/alert-rules.js";
import { startService } from "../src/cli/serve.js";
import { loadConfig } from "../src/config/load-config.js";
import { systemCtx } from "../src/context.js";
import { demoRequests } from "../src/demo/generator.js";
import { sendAll } from "../src/demo/sender.js";
import {
  commentOnIncident,
  createIncident,
  postIncidentUpdate,
} from "../src/incidents/incidents.js";
import { createLogger } from "../src/lib/logger.js";
import { createMonitor } from "../src/monitors/monitors.js";
import { initialize } from "../src/setup/initialize.js";
import { createComponent } from "../src/status-pages/components.js";
import { createGroup } from "../src/status-pages/groups.js";
import { createPage } from "../src/status-pages/status-pages.js";

const OUTPUT = new URL("../src/server/openapi-examples.json", import.meta.url);
const SEED = 42;
const SPANS = 3000;
const WINDOW_MS = 3_600_000;
/** Longer arrays are cut to this many items. */
const MAX_ITEMS = 3;
/** Longer strings are cut to this many characters (the last one an ellipsis). */
const MAX_CHARS = 300;

/** Values for required query parameters; a new required one fails the script until added here. */
const REQUIRED_QUERY: Record<string, string> = { time_range: "24h" };

/**
 * Where a path parameter's value comes from: the first item of a list route, and its field; or,
 * for a `list` naming earlier parameters (`{traceId}`) or a dotted `field`, that route's body
 * and the dotted path.
 */
const PATH_PARAMS: Record<string, { list: string; field: string }> = {
  logId: { list: "/v1/logs", field: "id" },
  traceId: { list: "/v1/traces", field: "traceId" },
  errorId: { list: "/v1/errors", field: "id" },
  sessionId: { list: "/v1/sessions", field: "id" },
  incidentId: { list: "/v1/incidents", field: "id" },
  alertId: { list: "/v1/alerts", field: "id" },
  slug: { list: "/v1/status-pages", field: "slug" },
  spanId: { list: "/v1/traces/{traceId}/spans", field: "spans.spanId.0" },
  service: { list: "/v1/services", field: "services.0.service" },
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}
interface OpenApi {
  paths: Record<string, { get?: { parameters?: Parameter[] } }>;
}

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Time series (and the error trends' buckets and counts) keep their last buckets: the demo data
 * is recent, so the first buckets of a 24h window are empty.
 */
const SERIES = new Set(["series", "occurrencesOverTime", "buckets", "counts"]);
/**
 * Never cut: spans refer to a trace's resources (and, in columns, to its names, kinds and
 * statuses) by index, and the AI dashboard's `contexts` says which areas ran (all four by
 * default), which a shorter list would misstate.
 */
const UNCUT = new Set(["resources", "contexts", "names", "kinds", "statuses"]);

/** Cuts long arrays and strings everywhere; a cut list page gets pagination that matches it. */
function trim(value: Json, key = ""): Json {
  if (typeof value === "string")
    return value.length > MAX_CHARS ? `${value.slice(0, MAX_CHARS - 1)}…` : value;
  if (Array.isArray(value)) {
    const kept = UNCUT.has(key)
      ? value
      : SERIES.has(key)
        ? value.slice(-MAX_ITEMS)
        : value.slice(0, MAX_ITEMS);
    return kept.map((item) => trim(item));
  }
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [name, item] of Object.entries(value)) out[name] = trim(item, name);
  const { data, pagination } = value;
  if (Array.isArray(data) && data.length > MAX_ITEMS && isObject(pagination)) {
    const total = Number(pagination.total);
    const page = Number(pagination.page);
    out.pagination = {
      ...pagination,
      limit: MAX_ITEMS,
      totalPages: Math.max(1, Math.ceil(total / MAX_ITEMS)),
      hasMore: page * MAX_ITEMS < total,
    };
  }
  return out;
}

/** Incidents live in the metadata store, not in the demo telemetry: two opened by hand. */
async function seedIncidents(
  deps: Awaited<ReturnType<typeof startService>>["deps"],
  projectId: string,
): Promise<void> {
  const ctx = { deps: deps.domain, actor: { kind: "system" as const } };
  await createIncident({
    ctx,
    projectId,
    input: { title: "Card payments failing", severity: "critical" },
  });
  // The newest, so the detail example (the first of the list) shows a timeline.
  const resolved = await createIncident({
    ctx,
    projectId,
    input: { title: "Checkout latency", severity: "high", message: "p95 doubled; investigating" },
  });
  const ref = { ctx, projectId, incidentId: resolved.id };
  await commentOnIncident({ ...ref, input: { message: "Rolled back 2026.11.3" } });
  await postIncidentUpdate({
    ...ref,
    input: { message: "Latency is back to normal", phase: "resolved" },
  });
}

/** A status page of the organization: one group, two components bound to a monitor. */
async function seedStatusPage(
  deps: Awaited<ReturnType<typeof startService>>["deps"],
  setup: { orgId: string; projectId: string },
): Promise<void> {
  const ctx = { deps: deps.domain, actor: { kind: "system" as const } };
  const monitor = await createMonitor({
    ctx,
    projectId: setup.projectId,
    input: { name: "Checkout API", type: "api", steps: [{ url: "https://shop.example/health" }] },
  });
  const { page } = await createPage({
    ctx,
    orgId: setup.orgId,
    input: { slug: "acme", title: "Acme status", description: "Live status of Acme's services" },
  });
  const ref = { ctx, orgId: setup.orgId, pageId: page.id };
  const group = await createGroup({ ...ref, input: { name: "Shop" } });
  for (const name of ["Checkout", "Storefront"])
    await createComponent({
      ...ref,
      input: { name, groupId: group.id, monitorIds: [monitor.id] },
    });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "vigil-examples-"));
  const config = loadConfig({
    env: {
      VIGIL_DATA_DIR: dir,
      VIGIL_PORT: "0",
      VIGIL_GRPC_ENABLED: "false",
      VIGIL_HOST: "127.0.0.1",
      VIGIL_LOG_LEVEL: "error",
      VIGIL_RATE_LIMIT_PER_MINUTE: "10000",
      // The status page's monitor is never checked: nothing leaves the machine.
      VIGIL_MONITORS_ENABLED: "false",
    },
  });
  const service = await startService(config, createLogger("error"));
  try {
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "demo@example.com",
        password: "correct horse battery",
      },
    });
    const key = setup.apiKey ?? "";
    const requests = demoRequests({
      spans: SPANS,
      batchSpans: 500,
      windowMs: WINDOW_MS,
      nowMs: Date.now(),
      seed: SEED,
    });
    await sendAll(requests, { url: service.url, key, concurrency: 2 });
    await seedIncidents(service.deps, setup.projectId);
    await seedStatusPage(service.deps, setup);
    // An alert rule, so /v1/alerts has an item (its fires come from evaluation).
    const alertRules = {
      tql: service.deps.tql,
      webhooks: service.deps.webhooks,
      maxRulesPerProject: 500,
    };
    await createRule({
      ctx: { deps: { ...service.deps.domain, alertRules }, actor: { kind: "system" } },
      projectId: setup.projectId,
      input: {
        name: "Checkout error rate",
        severity: "high",
        preset: { kind: "error_rate", params: { groupBy: "service" } },
        condition: { op: ">", threshold: 5 },
        forSeconds: 120,
      },
    });

    const get = async (path: string): Promise<Json> => {
      const response = await fetch(`${service.url}${path}`, { headers: { "x-api-key": key } });
      const body = (await response.json()) as Json;
      if (response.status !== 200)
        throw new Error(`GET ${path}: ${response.status} ${JSON.stringify(body)}`);
      return body;
    };
    const openapi = (await (await fetch(`${service.url}/openapi.json`)).json()) as OpenApi;

    const examples: Record<string, Json> = {};
    for (const [template, methods] of Object.entries(openapi.paths)) {
      const parameters = methods.get?.parameters;
      if (!template.startsWith("/v1/") || !methods.get) continue;
      let path = template;
      const resolved: Record<string, string> = {};
      for (const { name } of (parameters ?? []).filter((p) => p.in === "path")) {
        const source = PATH_PARAMS[name];
        if (!source) throw new Error(`${template}: no source for path parameter ${name}`);
        const nested = source.list.includes("{") || source.field.includes(".");
        const list = nested
          ? await get(source.list.replace(/\{(\w+)\}/g, (_, n: string) => resolved[n] ?? ""))
          : await get(`${source.list}?limit=1`);
        const first = isObject(list) && Array.isArray(list.data) ? list.data[0] : undefined;
        const id = nested
          ? source.field
              .split(".")
              .reduce<Json | undefined>(
                (v, k) => (Array.isArray(v) ? v[Number(k)] : isObject(v) ? v[k] : undefined),
                list,
              )
          : isObject(first)
            ? first[source.field]
            : undefined;
        if (typeof id !== "string") throw new Error(`${source.list} has no ${source.field}`);
        resolved[name] = encodeURIComponent(id);
        path = path.replace(`{${name}}`, encodeURIComponent(id));
      }
      const query = new URLSearchParams();
      for (const p of (parameters ?? []).filter((p) => p.in === "query")) {
        if (p.name === "limit") query.set("limit", "2");
        else if (p.required) {
          const value = REQUIRED_QUERY[p.name];
          if (value === undefined) throw new Error(`${template}: no value for ${p.name}`);
          query.set(p.name, value);
        }
      }
      const search = query.size > 0 ? `?${query}` : "";
      examples[`GET ${template}`] = trim(await get(`${path}${search}`));
      process.stdout.write(`GET ${path}${search}\n`);
    }
    writeFileSync(OUTPUT, `${JSON.stringify(examples, null, 2)}\n`);
    // Biome lays out short arrays on one line; formatting here keeps `biome ci` passing.
    execFileSync("npx", ["biome", "format", "--write", fileURLToPath(OUTPUT)], { stdio: "ignore" });
    process.stdout.write(
      `wrote src/server/openapi-examples.json (${Object.keys(examples).length} routes)\n`,
    );
  } finally {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
