/**
 * npm run bench:explore — what the explorers cost the person clicking through them.
 *
 * One project holds 1M demo spans over the last hour, sent through the real OTLP endpoint (so
 * the service map's pairing and the attribute catalog see them as they see any export), and 1M
 * logs (the demo's, topped up in the engine). Then, over HTTP with the project's API key, one
 * request at a time, in rounds that take each endpoint once in a shuffled order:
 *
 * - the services list and the service map over the last hour (target: map < 1 s),
 * - log facets and the log volume histogram with a search (targets < 300 ms),
 * - attribute key and value suggestions as typed, one prefix per round (target < 50 ms),
 * - and `SELECT 1` through /v1/tql: the floor of an authenticated read on this machine.
 *
 * The tenant next door: another project with 100,000 spans of its own asks a TQL query every
 * 0.7 s, alone for 20 s (the control), during the rounds above, and while four people explore at
 * once (each the rounds' explorer requests back to back, 20 s); its p50/p99.
 *
 * BENCH_EXPLORE_SPANS, BENCH_EXPLORE_LOGS and BENCH_EXPLORE_ROUNDS change the sizes. The last
 * line is one JSON object.
 */
import { request } from "undici";
import { loadExploreDataset } from "./explore/data.js";
import { neighbour } from "./explore/neighbour.js";
import { startInProcessService } from "./harness/in-process-service.js";
import { machine } from "./harness/process-figures.js";
import { envNumber, log, printResult, sleep, withTempDir } from "./harness/run.js";
import { fmt, spread } from "./harness/stats.js";
import { printTable } from "./harness/table.js";

const SPANS = envNumber("BENCH_EXPLORE_SPANS", 1_000_000);
const LOGS = envNumber("BENCH_EXPLORE_LOGS", 1_000_000);
const ROUNDS = envNumber("BENCH_EXPLORE_ROUNDS", 40);

/** What a person types into a search box or a suggestion field, one per round. */
const SEARCHES = ["timeout", "declined", "cache miss", "slow query", "reset by peer"];
const KEY_PREFIXES = ["h", "ht", "htt", "http", "http.r", "c", "cu", "de", "us", "re"];
const VALUE_PREFIXES = ["/", "/a", "/ap", "/api", "/api/o", "/api/c", "/api/u", "/h"];

interface Endpoint {
  name: string;
  targetMs: number | null;
  /** The request of round `i`. */
  request(i: number): { method: "GET" | "POST"; path: string; body?: string };
}

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;

const ENDPOINTS: Endpoint[] = [
  {
    name: "SELECT 1 (/v1/tql)",
    targetMs: null,
    request: () => ({
      method: "POST",
      path: "/v1/tql",
      body: JSON.stringify({ query: "SELECT 1" }),
    }),
  },
  {
    name: "services list (1 h)",
    targetMs: null,
    request: () => ({ method: "GET", path: `/v1/services?${q({ time_range: "1h" })}` }),
  },
  {
    name: "service map (1 h)",
    targetMs: 1000,
    request: () => ({ method: "GET", path: `/v1/service-map?${q({ time_range: "1h" })}` }),
  },
  {
    name: "log facets + search (1 h)",
    targetMs: 300,
    request: (i) => ({
      method: "GET",
      path: `/v1/logs/facets?${q({ time_range: "1h", search: pick(SEARCHES, i) })}`,
    }),
  },
  {
    name: "log volume + search (1 h)",
    targetMs: 300,
    request: (i) => ({
      method: "GET",
      path: `/v1/logs/volume?${q({ time_range: "1h", search: pick(SEARCHES, i) })}`,
    }),
  },
  {
    name: "attribute keys as typed",
    targetMs: 50,
    request: (i) => ({
      method: "GET",
      path: `/v1/attributes?${q({ source: i % 2 ? "logs" : "traces", q: pick(KEY_PREFIXES, i) })}`,
    }),
  },
  {
    name: "attribute values as typed",
    targetMs: 50,
    request: (i) => ({
      method: "GET",
      path: `/v1/attributes/values?${q({ source: "traces", field: "attributes.http.route", q: pick(VALUE_PREFIXES, i) })}`,
    }),
  },
];

function shuffled<T>(list: readonly T[], seed: number): T[] {
  const out = [...list];
  let state = seed + 1;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

async function timed(base: string, apiKey: string, endpoint: Endpoint, i: number) {
  const { method, path, body } = endpoint.request(i);
  const started = performance.now();
  const response = await request(new URL(path, base), {
    method,
    headers: { "x-api-key": apiKey, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body } : {}),
  });
  const text = await response.body.text();
  const ms = performance.now() - started;
  if (response.statusCode !== 200)
    throw new Error(
      `${endpoint.name}: ${method} ${path} → ${response.statusCode} ${text.slice(0, 300)}`,
    );
  return { ms, bytes: text.length };
}

async function main() {
  await withTempDir("explore", async (dataDir, cleanups) => {
    const service = await startInProcessService(
      dataDir,
      {
        VIGIL_HOST: "127.0.0.1",
        VIGIL_PORT: "0",
        VIGIL_GRPC_ENABLED: "false",
        VIGIL_LOG_LEVEL: "warn",
        VIGIL_RATE_LIMIT_PER_MINUTE: "1000000",
        VIGIL_INGEST_RATE_LIMIT_PER_MINUTE: "10000000",
      },
      cleanups,
    );
    const dataset = await loadExploreDataset(service, SPANS, LOGS);
    log(
      `Dataset: ${fmt(dataset.spans)} spans, ${fmt(dataset.logs)} logs, ` +
        `${fmt(dataset.edgeRows)} service-map rows, loaded in ${dataset.loadSeconds.toFixed(1)} s`,
    );
    const nextDoor = await neighbour(service, dataset.orgId, 100_000);
    // Warm-up: one request each (first-use compiles, page cache).
    for (const endpoint of ENDPOINTS) await timed(service.url, dataset.apiKey, endpoint, 0);
    log("The tenant next door alone for 20 s");
    const alone = await nextDoor.during(sleep(20_000));
    const timings = new Map(ENDPOINTS.map((e) => [e.name, [] as number[]]));
    const bytes = new Map<string, number>();
    const rounds = async () => {
      for (let round = 0; round < ROUNDS; round++) {
        for (const endpoint of shuffled(ENDPOINTS, round)) {
          const result = await timed(service.url, dataset.apiKey, endpoint, round + 1);
          timings.get(endpoint.name)?.push(result.ms);
          bytes.set(endpoint.name, result.bytes);
        }
        if ((round + 1) % 10 === 0) log(`  round ${round + 1} / ${ROUNDS}`);
      }
    };
    const besideOne = await nextDoor.during(rounds());
    log("Four people exploring at once for 20 s, beside the tenant next door");
    const until = performance.now() + 20_000;
    const explorer = async (seed: number) => {
      for (let i = 0; performance.now() < until; i++)
        // Not the SELECT 1 baseline: a project runs at most two TQL queries at once (429 beyond).
        for (const endpoint of shuffled(ENDPOINTS.slice(1), seed * 1000 + i))
          await timed(service.url, dataset.apiKey, endpoint, seed + i);
    };
    const besideFour = await nextDoor.during(Promise.all([1, 2, 3, 4].map(explorer)));
    const figures = ENDPOINTS.map((endpoint) => {
      const s = spread(timings.get(endpoint.name) ?? [], 1);
      return {
        endpoint: endpoint.name,
        p50Ms: s.p50,
        p99Ms: s.p99,
        maxMs: s.max,
        targetMs: endpoint.targetMs,
        met: endpoint.targetMs === null ? null : s.p50 < endpoint.targetMs,
        responseBytes: bytes.get(endpoint.name) ?? 0,
      };
    });
    printTable(
      ["endpoint", "p50 ms", "p99 ms", "max ms", "target", "bytes"],
      figures.map((f) => [
        f.endpoint,
        String(f.p50Ms),
        String(f.p99Ms),
        String(f.maxMs),
        f.targetMs === null ? "baseline" : `< ${f.targetMs} ms ${f.met ? "met" : "MISSED"}`,
        fmt(f.responseBytes),
      ]),
    );
    printTable(
      ["tenant next door (TQL every 0.7 s)", "queries", "failed", "p50 ms", "p99 ms"],
      [
        ["alone (control)", alone],
        ["beside one person exploring", besideOne],
        ["beside four people exploring", besideFour],
      ].map(([name, f]) => {
        const n = f as typeof alone;
        return [
          name as string,
          String(n.queries),
          String(n.failed),
          String(n.p50Ms),
          String(n.p99Ms),
        ];
      }),
    );
    printResult({
      bench: "explore",
      machine: machine(),
      rounds: ROUNDS,
      dataset: { ...dataset, apiKey: undefined },
      figures,
      neighbour: { alone, besideOneExplorer: besideOne, besideFourExplorers: besideFour },
    });
  });
}

await main();
