/**
 * npm run bench:status-pages — latency of the public status page and of its /v1 payload.
 *
 * 1. Starts the service in-process on 127.0.0.1:0 (temporary data dir, SQLite meta store,
 *    monitors and alerts not running) and builds, through the domain verbs, one page of 50
 *    components in 5 groups, each fed by its own monitor (every other one also by its group's
 *    monitor: 55 monitors, aimed at https://example.com and never run), 10 maintenance windows
 *    (6 past ones written through the repository since the verb only takes windows that end
 *    ahead, 1 in progress and 3 scheduled through the verb) and 90 days of history: one
 *    status_page_days row per component and day through `statusPageDays.accrue` (~1,440
 *    checks a day, a few failed; down or degraded time and worst state on incident days, a few
 *    degraded blips, maintenance time on the past windows' days) and 30 monitor incidents spread
 *    over the 90 days, opened and resolved with the incident verbs (`at` in the past), with 4
 *    public updates each (the last one, still open, has 2). Checks: /status/<slug>.json has 50
 *    services x 90 measured days and the 30 incidents.
 * 2. Cold cost, which the cache hides: `buildStatusPageData` (the payload, from the meta store)
 *    and `renderStatusPage` (the HTML) called directly, BENCH_STATUS_BUILDS (20) times, on an
 *    idle service; and what GET /v1/status-pages/:slug/data does per request after the cache:
 *    the route's zod response serializer (parse of the payload, then JSON.stringify).
 * 3. Over keep-alive HTTP from a worker thread (bench/harness/http-load.ts), for each of
 *    - `GET /status/<slug>` (HTML; built at most once per data version and 30 s),
 *    - `GET /v1/status-pages/<slug>/data` (x-api-key of a full key; per-key limit raised),
 *    - the baselines, served in the same process by a plain `node:http` server: for every
 *      request it reads a file from disk with `fs.promises.readFile` (the page cache after the
 *      first) and sends it with content-type, content-length and cache-control, nothing else.
 *      "static HTML" holds the exact bytes `/status/<slug>` answered, "static JSON" those of the
 *      /v1 payload;
 *    a warm-up and serial service time (one connection, BENCH_STATUS_WARMUP_SECONDS, 2), an open
 *    loop at BENCH_STATUS_RATE (500) requests/s for BENCH_STATUS_SECONDS (20), latency from each
 *    request's scheduled send time (no coordinated omission; non-200 answers are errors), then
 *    the closed-loop maximum with BENCH_STATUS_CONCURRENCY (4) connections for
 *    BENCH_STATUS_CLOSED_SECONDS (5). Before the 500/s loop, an open loop below saturation at
 *    BENCH_STATUS_LOW_RATE (50, 0 to skip) for BENCH_STATUS_LOW_SECONDS (10). Also: the server
 *    thread's event-loop utilization during each open loop, how many payload builds the cache
 *    did while measuring, and the machine's load average (it counts this benchmark's own
 *    threads: well above 3 on 2 cores means other work competed). An open loop the server cannot
 *    keep up with runs until every request is answered, so it lasts longer than its seconds and
 *    its latencies grow with them. The client sends `Accept-Encoding: br, gzip` as browsers do
 *    (BENCH_STATUS_ENCODING; `identity` for uncompressed bodies), and the baseline then serves
 *    its precompressed twin, as nginx's brotli_static / gzip_static would.
 *
 * 2b. Bytes (bench/status-pages/wire.ts): each answer as br, gzip and identity, and the CPU
 *    compressing it costs (once per build: each is kept compressed in the cache).
 *
 * Target (issue): p99 < 20 ms at 500 requests/s for both routes, reported beside the static
 * file baseline (ratios of p99); (issue 37) the page and its /v1 payload ≤ 300 KB before
 * compression, beside what they weighed before (1.5 MB and 751 KB). The last line is one JSON object with every figure.
 * The parts: bench/status-pages/ (settings, seeding, checks, cold cost, load, report).
 */
import { loadavg } from "node:os";
import { startClient } from "./harness/http-load.js";
import { startInProcessService } from "./harness/in-process-service.js";
import { withTempDir } from "./harness/run.js";
import { coldCost } from "./status-pages/cold-cost.js";
import { measureTargets } from "./status-pages/load.js";
import { checkServedPage, countPayloadBuilds } from "./status-pages/page-checks.js";
import { report } from "./status-pages/report.js";
import { seedHistory } from "./status-pages/seed-history.js";
import { seedIncidents } from "./status-pages/seed-incidents.js";
import { seedPage } from "./status-pages/seed-page.js";
import { ENCODING } from "./status-pages/settings.js";
import { serveStaticCopies } from "./status-pages/static-server.js";
import { wireFigures } from "./status-pages/wire.js";

async function main() {
  await withTempDir("status", async (dataDir, cleanups) => {
    const service = await startInProcessService(
      dataDir,
      {
        VIGIL_HOST: "127.0.0.1",
        VIGIL_PORT: "0",
        VIGIL_GRPC_ENABLED: "false",
        VIGIL_LOG_LEVEL: "warn",
        VIGIL_MONITORS_ENABLED: "false",
        VIGIL_ALERTS_ENABLED: "false",
        VIGIL_WEBHOOKS_ENABLED: "false",
        // The per-key limit (100/min by default) would answer 429 to the /v1 runs.
        VIGIL_RATE_LIMIT_PER_MINUTE: "1000000",
        // One client address opens every connection: no per-address cap.
        VIGIL_HTTP_MAX_CONNECTIONS_PER_ADDRESS: "0",
      },
      cleanups,
    );
    const seeded = await seedPage(service);
    const incidents = await seedIncidents(seeded);
    const history = await seedHistory(seeded, incidents);
    const counter = countPayloadBuilds(seeded);
    const served = await checkServedPage(service, seeded, incidents, history);
    const costs = await coldCost(seeded.meta, served, counter);
    const wire = await wireFigures(service, served);

    // The baselines: the same bytes as files, and the HTTP client.
    const staticServer = await serveStaticCopies(dataDir, served.html, served.v1Json);
    cleanups.push(() => staticServer.stop());
    const { hostname, port } = new URL(service.url);
    // What a browser sends, unless BENCH_STATUS_ENCODING=identity asks for raw bodies.
    const clientHeaders =
      ENCODING === "identity" ? served.headers : { ...served.headers, "accept-encoding": ENCODING };
    const client = startClient({ host: hostname, port: Number(port), headers: clientHeaders });
    cleanups.push(() => client.stop());
    const loadBefore = loadavg()[0] ?? 0;
    const figures = await measureTargets(
      client,
      {
        staticHtml: {
          label: "static HTML (node:http + readFile)",
          path: "/status.html",
          port: staticServer.port,
        },
        html: { label: `GET /status/:slug (HTML)`, path: served.pagePath, port: undefined },
        v1: { label: "GET /v1/status-pages/:slug/data", path: served.dataPath, port: undefined },
        staticJson: {
          label: "static JSON (node:http + readFile)",
          path: "/data.json",
          port: staticServer.port,
        },
      },
      counter,
    );
    report({
      served,
      costs,
      wire,
      figures,
      monitorCount: seeded.monitorCount,
      dayRows: history.dayRows,
      publicUpdates: incidents.publicUpdates,
      loadBefore,
    });
  });
}

await main();
