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
 * 3. Over keep-alive HTTP from a worker thread (bench/http-load.ts), for each of
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
 * Target (issue): p99 < 20 ms at 500 requests/s for both routes, reported beside the static
 * file baseline (ratios of p99). The last line is one JSON object with every figure.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { EventLoopUtilization } from "node:perf_hooks";
import { brotliCompressSync, gzipSync } from "node:zlib";
import type { RunningService } from "../src/cli/serve.js";
import { systemCtx } from "../src/context.js";
import type { IncidentSeverity } from "../src/meta/repositories/incidents.js";
import type { DayRow } from "../src/status-pages/history.js";
import {
  type BodyBytes,
  type ClosedLoopResult,
  type HttpClient,
  latencies,
  type OpenLoopResult,
  round,
  startClient,
} from "./harness/http-load.js";
import { printTable } from "./harness/table.js";

const RATE = Number(process.env.BENCH_STATUS_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_STATUS_SECONDS ?? 20);
const WARMUP_SECONDS = Number(process.env.BENCH_STATUS_WARMUP_SECONDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_STATUS_CONCURRENCY ?? 4);
const CLOSED_SECONDS = Number(process.env.BENCH_STATUS_CLOSED_SECONDS ?? 5);
const BUILDS = Number(process.env.BENCH_STATUS_BUILDS ?? 20);
const LOW_RATE = Number(process.env.BENCH_STATUS_LOW_RATE ?? 50);
const LOW_SECONDS = Number(process.env.BENCH_STATUS_LOW_SECONDS ?? 10);
/** The client's Accept-Encoding: a browser's by default, `identity` for uncompressed bodies. */
const ENCODING = process.env.BENCH_STATUS_ENCODING ?? "br, gzip";
const TARGET_P99_MS = 20;

const COMPONENTS = 50;
const GROUPS = ["Core API", "Web", "Data", "Integrations", "Regions"];
const DAYS = 90;
const INCIDENTS = 30;
const PAST_WINDOWS = 6;
const SLUG = "bench-status";
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

const log = (text: string) => process.stderr.write(`${text}\n`);
const fmt = (n: number) => n.toLocaleString("en");

/** A small seeded generator (mulberry32): the same page on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs `fn` `times` times, one after the other: latencies of each call, in ms. */
async function timed(times: number, fn: () => unknown) {
  const taken = new Float64Array(times);
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await fn();
    taken[i] = performance.now() - t0;
  }
  return latencies(taken);
}

/**
 * The baseline server: reads the file from disk for every request and sends it as is, or its
 * precompressed `.br` / `.gz` twin when the client accepts it (as nginx's brotli_static and
 * gzip_static do).
 */
async function startStaticServer(files: Record<string, { path: string; contentType: string }>) {
  const server: Server = createServer((req, res) => {
    const file = files[req.url ?? ""];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    const accepted = String(req.headers["accept-encoding"] ?? "");
    const encoding = /\bbr\b/.test(accepted) ? "br" : /\bgzip\b/.test(accepted) ? "gzip" : "";
    const path =
      encoding === "br" ? `${file.path}.br` : encoding === "gzip" ? `${file.path}.gz` : file.path;
    readFile(path).then(
      (body) => {
        res.writeHead(200, {
          "content-type": file.contentType,
          "content-length": body.length,
          "cache-control": "public, max-age=30",
          ...(encoding ? { "content-encoding": encoding, vary: "accept-encoding" } : {}),
        });
        res.end(body);
      },
      () => res.writeHead(500).end(),
    );
  });
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface TargetFigures {
  label: string;
  bytes: BodyBytes;
  serial: ClosedLoopResult;
  open: OpenLoopResult;
  /** The same at LOW_RATE, below saturation (absent when LOW_RATE is 0). */
  lowRateOpen: OpenLoopResult | undefined;
  closed: ClosedLoopResult;
  statuses: Record<string, number>;
  /** Share of the time the server's thread (main) was busy during the open loop. */
  serverLoopUtilization: number;
  /** Payloads the status page cache built during this target's runs. */
  payloadBuilds: number;
  /** The machine's 1-minute load average before and after (this benchmark's threads count too). */
  loadAverage1m: { before: number; after: number };
}

async function main() {
  const { loadConfig } = await import("../src/config/load-config.js");
  const { startService } = await import("../src/cli/serve.js");
  const { createLogger } = await import("../src/lib/logger.js");
  const { initialize } = await import("../src/setup/initialize.js");
  const { createMonitor } = await import("../src/monitors/monitors.js");
  const { createPage } = await import("../src/status-pages/status-pages.js");
  const { createGroup } = await import("../src/status-pages/groups.js");
  const { createComponent } = await import("../src/status-pages/components.js");
  const { createMaintenance } = await import("../src/status-pages/maintenances.js");
  const { splitByUtcDay, utcDay } = await import("../src/status-pages/history.js");
  const { buildStatusPageData } = await import("../src/status-pages/public-data.js");
  const { renderStatusPage } = await import("../src/status-pages/public/render-page.js");
  const { StatusPageData } = await import("../src/contracts/status-page-data.js");
  const { appendIncidentEvent, openSourceIncident, resolveSourceIncident } = await import(
    "../src/incidents/source-incidents.js"
  );

  const dataDir = mkdtempSync(join(tmpdir(), "vigil-bench-status-"));
  let service: RunningService | undefined;
  let client: HttpClient | undefined;
  let staticServer: Awaited<ReturnType<typeof startStaticServer>> | undefined;
  try {
    const config = loadConfig({
      env: {
        VIGIL_DATA_DIR: dataDir,
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
    });
    service = await startService(config, createLogger("warn", process.stderr));
    const { deps } = service;
    const domain = deps.domain;
    const meta = domain.meta;
    const setup = await initialize({
      ctx: systemCtx(domain),
      input: {
        email: "bench@example.com",
        password: "bench password 1",
      },
    });
    const apiKey = setup.apiKey ?? "";
    const system = { deps: domain, actor: { kind: "system" as const } };
    const setupStarted = performance.now();

    // 1. The page: groups, monitors, components.
    const pageView = await createPage({
      ctx: system,
      orgId: setup.orgId,
      input: {
        slug: SLUG,
        title: "Acme Cloud",
        description: "Live status of Acme Cloud's API, dashboard, data pipeline and regions.",
        logoUrl: "https://example.com/logo.png",
        links: [
          { label: "Support", url: "https://example.com/support" },
          { label: "Docs", url: "https://example.com/docs" },
        ],
        timezone: "Europe/Paris",
      },
    });
    const pageId = pageView.page.id;
    const pageRef = { ctx: system, orgId: setup.orgId, pageId };
    const groupIds: string[] = [];
    for (const name of GROUPS)
      groupIds.push((await createGroup({ ...pageRef, input: { name } })).id);

    const newMonitor = async (name: string, path: string) =>
      (
        await createMonitor({
          ctx: system,
          projectId: setup.projectId,
          input: {
            name,
            type: "api",
            frequency: "1m",
            steps: [{ url: `https://example.com${path}` }],
          },
        })
      ).id;
    const groupMonitors: string[] = [];
    for (const [g, name] of GROUPS.entries())
      groupMonitors.push(await newMonitor(`${name} health`, `/health/group-${g}`));
    const components: { id: string; name: string; monitors: string[] }[] = [];
    for (let i = 0; i < COMPONENTS; i++) {
      const g = i % GROUPS.length;
      const name = `${GROUPS[g]} service ${Math.floor(i / GROUPS.length) + 1}`;
      const own = await newMonitor(`${name} check`, `/health/${i}`);
      const monitors = i % 2 === 1 ? [own, groupMonitors[g] ?? own] : [own];
      const view = await createComponent({
        ...pageRef,
        input: {
          name,
          description: `The ${name.toLowerCase()} of Acme Cloud`,
          groupId: groupIds[g] ?? null,
          monitorIds: monitors,
        },
      });
      components.push({ id: view.id, name, monitors });
    }
    const monitorCount = GROUPS.length + COMPONENTS;

    // 2. Incidents over the 90 days (chronological), each with public updates; the last is open.
    const rand = random(20240613);
    const now = Date.now();
    const todayStart = Math.floor(now / DAY_MS) * DAY_MS;
    const firstDayStart = todayStart - (DAYS - 1) * DAY_MS;
    const allMonitors = [...new Set(components.flatMap((c) => c.monitors))];
    const severities: IncidentSeverity[] = ["low", "medium", "high", "critical"];
    interface PlannedIncident {
      monitorId: string;
      startMs: number;
      endMs: number | null;
      severity: IncidentSeverity;
    }
    const planned: PlannedIncident[] = [];
    for (let i = 0; i < INCIDENTS - 1; i++) {
      const startMs = firstDayStart + Math.floor(rand() * (now - firstDayStart - 6 * 3600_000));
      const duration = (10 + Math.floor(rand() * 230)) * MINUTE_MS;
      const r = rand();
      planned.push({
        monitorId: allMonitors[Math.floor(rand() * allMonitors.length)] ?? "",
        startMs,
        endMs: startMs + duration,
        severity: severities[r < 0.3 ? 0 : r < 0.6 ? 1 : r < 0.9 ? 2 : 3] ?? "medium",
      });
    }
    planned.sort((a, b) => a.startMs - b.startMs);
    planned.push({
      monitorId: components[7]?.monitors[0] ?? "",
      startMs: now - 25 * MINUTE_MS,
      endMs: null,
      severity: "medium",
    });
    const monitorName = new Map<string, string>();
    for (const c of components) monitorName.set(c.monitors[0] ?? "", c.name);
    for (const [g, id] of groupMonitors.entries()) monitorName.set(id, `${GROUPS[g]} services`);
    const iso = (ms: number) => new Date(ms).toISOString();
    let publicUpdates = 0;
    for (const p of planned) {
      const what = monitorName.get(p.monitorId) ?? "A service";
      const down = p.severity === "high" || p.severity === "critical";
      const title = down ? `${what} unavailable` : `Elevated errors on ${what}`;
      await meta.transaction(async (tx) => {
        const { incident } = await openSourceIncident(tx, domain, {
          projectId: setup.projectId,
          source: "monitor",
          sourceId: p.monitorId,
          title,
          severity: p.severity,
          cause: down ? "status 503" : "assertion failed: response time above 2000 ms",
          at: iso(p.startMs),
          event: { type: "monitor_down", message: "Check failed" },
        });
        const span = (p.endMs ?? now) - p.startMs;
        const updates: [number, "investigating" | "identified" | "monitoring", string][] = [
          [
            0.05,
            "investigating",
            `We are investigating ${down ? "an outage" : "errors"} of ${what}.`,
          ],
          [0.4, "identified", "The cause has been identified: a faulty deployment; rolling back."],
          [0.75, "monitoring", "A fix has been deployed; we are monitoring the results."],
        ];
        for (const [share, phase, message] of p.endMs === null ? updates.slice(0, 2) : updates) {
          await appendIncidentEvent(tx, domain, incident.id, {
            type: "update",
            at: iso(p.startMs + Math.round(span * share)),
            actor: { kind: "system", id: null },
            phase,
            message,
            public: true,
          });
          publicUpdates++;
        }
        if (p.endMs !== null) {
          await appendIncidentEvent(tx, domain, incident.id, {
            type: "update",
            at: iso(p.endMs),
            actor: { kind: "system", id: null },
            phase: "resolved",
            message: "This incident has been resolved.",
            public: true,
          });
          publicUpdates++;
          await resolveSourceIncident(tx, domain, {
            source: "monitor",
            sourceId: p.monitorId,
            at: iso(p.endMs),
            event: { type: "monitor_recovered", message: "Check passed" },
          });
        } else {
          // The open one: its monitor is in an outage, as the monitor engine leaves it.
          await tx.repos.monitors.updateState(p.monitorId, {
            health: "outage",
            failureStreak: 3,
            lastCheckedAt: iso(now),
            lastResultId: "bench",
            openIncidentId: incident.id,
          });
        }
        await domain.statusPages.sourcesChanged(tx, [{ kind: "monitor", id: p.monitorId }]);
      });
    }

    // 3. Maintenance windows: 6 completed (through the repository), 1 running and 3 ahead.
    const pastWindows: { startMs: number; endMs: number; componentIds: string[] }[] = [];
    for (let w = 0; w < PAST_WINDOWS; w++) {
      const startMs = todayStart - (80 - w * 13) * DAY_MS + (1 + Math.floor(rand() * 4)) * 3600_000;
      const componentIds = components.slice(w * 8, w * 8 + 3 + (w % 3)).map((c) => c.id);
      pastWindows.push({ startMs, endMs: startMs + (2 + (w % 3)) * 3600_000, componentIds });
      const at = iso(startMs - 3 * DAY_MS);
      await meta.repos.statusPageMaintenances.insert({
        id: domain.newId("mnt"),
        pageId,
        title: `Database upgrade ${w + 1}`,
        message: "Planned upgrade of the storage cluster; short read-only periods are expected.",
        startsAt: iso(startMs),
        endsAt: iso(startMs + (2 + (w % 3)) * 3600_000),
        phase: "completed",
        componentIds: [...componentIds].sort(),
        createdBy: null,
        createdAt: at,
        updatedAt: at,
      });
    }
    const windowsAhead: [number, number, string, number[]][] = [
      [-60, 120, "Network maintenance in Regions", [4, 9]],
      [2 * 24 * 60, 2 * 24 * 60 + 180, "Dashboard release", [1, 6, 11, 16]],
      [5 * 24 * 60, 5 * 24 * 60 + 60, "Certificate rotation", [0, 5, 10]],
      [9 * 24 * 60, 9 * 24 * 60 + 240, "Data pipeline migration", [2, 7, 12, 17, 22]],
    ];
    for (const [fromMin, toMin, title, indexes] of windowsAhead)
      await createMaintenance({
        ...pageRef,
        input: {
          title,
          message: "We will keep this page updated during the work.",
          startsAt: iso(now + fromMin * MINUTE_MS),
          endsAt: iso(now + toMin * MINUTE_MS),
          componentIds: indexes.map((i) => components[i]?.id ?? ""),
        },
      });

    // 4. 90 days of history: one row per component and day, consistent with the incidents and
    // the past windows, plus a few degraded blips.
    const rows = new Map<string, Map<string, DayRow>>();
    for (const c of components) {
      const byDay = new Map<string, DayRow>();
      for (let d = 0; d < DAYS; d++) {
        const start = firstDayStart + d * DAY_MS;
        const run =
          start === todayStart ? Math.max(1, Math.floor((now - start) / MINUTE_MS)) : 1440;
        const failed = rand() < 0.7 ? Math.floor(rand() * 3) : 0;
        const blip = rand() < 0.03 ? (5 + Math.floor(rand() * 25)) * MINUTE_MS : 0;
        byDay.set(utcDay(start), {
          day: utcDay(start),
          checksRun: run,
          checksPassed: run - failed - Math.round(blip / MINUTE_MS / 2),
          checksInMaintenance: 0,
          downMs: 0,
          degradedMs: blip,
          maintenanceMs: 0,
          worstState: blip > 0 ? "degraded" : "operational",
          maintenance: false,
        });
      }
      rows.set(c.id, byDay);
    }
    for (const p of planned.filter((x) => x.endMs !== null)) {
      const down = p.severity === "high" || p.severity === "critical";
      for (const c of components.filter((x) => x.monitors.includes(p.monitorId)))
        for (const { day, ms } of splitByUtcDay(p.startMs, p.endMs ?? now)) {
          const row = rows.get(c.id)?.get(day);
          if (!row) continue;
          const minutes = Math.round(ms / MINUTE_MS);
          row.checksPassed = Math.max(
            0,
            row.checksPassed - (down ? minutes : Math.ceil(minutes / 3)),
          );
          if (down) row.downMs += ms;
          else row.degradedMs += ms;
          if (down) row.worstState = "down";
          else if (row.worstState === "operational") row.worstState = "degraded";
        }
    }
    for (const w of pastWindows)
      for (const id of w.componentIds)
        for (const { day, ms } of splitByUtcDay(w.startMs, w.endMs)) {
          const row = rows.get(id)?.get(day);
          if (!row) continue;
          const minutes = Math.round(ms / MINUTE_MS);
          row.checksInMaintenance += minutes;
          row.checksRun -= minutes;
          row.checksPassed = Math.min(row.checksPassed, row.checksRun);
          row.maintenanceMs += ms;
          row.maintenance = true;
        }
    let dayRows = 0;
    const writtenAt = new Date(now).toISOString();
    for (const c of components)
      await meta.transaction(async (tx) => {
        for (const row of rows.get(c.id)?.values() ?? []) {
          await tx.repos.statusPageDays.accrue({
            componentId: c.id,
            pageId,
            ...row,
            at: writtenAt,
          });
          dayRows++;
        }
      });
    // Anything read from the meta store changed: a new data version, so no stale cache is served.
    await meta.repos.statusPages.bumpVersion(pageId, new Date().toISOString());
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    log(
      `Page '${SLUG}': ${COMPONENTS} components in ${GROUPS.length} groups, ${monitorCount} monitors, ` +
        `${planned.length} incidents (${publicUpdates} public updates), ${PAST_WINDOWS + windowsAhead.length} windows, ` +
        `${fmt(dayRows)} day rows, in ${setupSeconds.toFixed(1)} s`,
    );

    // Counts the payload builds (the cache calls days() once per build).
    const stateRepo = meta.repos.statusPageDays;
    const readDays = stateRepo.days.bind(stateRepo);
    let builds = 0;
    stateRepo.days = (...args: Parameters<typeof readDays>) => {
      builds++;
      return readDays(...args);
    };

    // 5. Check what the page serves.
    const pagePath = `/status/${SLUG}`;
    const dataPath = `/v1/status-pages/${SLUG}/data`;
    const headers = { "x-api-key": apiKey };
    const payload = (await (await fetch(`${service.url}${pagePath}.json`)).json()) as {
      services: { history: { checks: { run: number } }[] }[];
      incidents: { updates: unknown[]; status: string }[];
      maintenance: unknown[];
      page: { status: string };
    };
    const historyDays = payload.services.map((s) => s.history.length);
    const measuredDays = payload.services.flatMap((s) => s.history).filter((d) => d.checks.run > 0);
    if (
      payload.services.length !== COMPONENTS ||
      historyDays.some((n) => n !== DAYS) ||
      measuredDays.length !== COMPONENTS * DAYS ||
      payload.incidents.length !== INCIDENTS ||
      payload.incidents.some((i) => i.updates.length < 2)
    )
      throw new Error(
        `unexpected payload: ${payload.services.length} services, history days ${[...new Set(historyDays)]}, ` +
          `${measuredDays.length} measured days, ${payload.incidents.length} incidents`,
      );
    const htmlResponse = await fetch(`${service.url}${pagePath}`);
    const html = Buffer.from(await htmlResponse.arrayBuffer());
    const v1Response = await fetch(`${service.url}${dataPath}`, { headers });
    const v1Json = Buffer.from(await v1Response.arrayBuffer());
    if (htmlResponse.status !== 200 || v1Response.status !== 200)
      throw new Error(
        `GET ${pagePath} ${htmlResponse.status}, GET ${dataPath} ${v1Response.status}`,
      );
    const pageFacts = {
      components: payload.services.length,
      groups: GROUPS.length,
      monitors: monitorCount,
      historyDays: DAYS,
      dayRows,
      incidents: payload.incidents.length,
      activeIncidents: payload.incidents.filter((i) => i.status === "active").length,
      publicUpdates,
      maintenanceWindows: PAST_WINDOWS + windowsAhead.length,
      maintenanceShown: payload.maintenance.length,
      pageStatus: payload.page.status,
      htmlBytes: html.length,
      v1JsonBytes: v1Json.length,
      setupSeconds: round(setupSeconds, 1),
    };
    log(`Payload: ${JSON.stringify(pageFacts)}`);

    // 6. Cold cost: build and render directly, on the idle service.
    const page = await meta.repos.statusPages.findBySlug(SLUG);
    if (!page) throw new Error("page not found");
    log(`Cold build: ${BUILDS} x buildStatusPageData + renderStatusPage`);
    const builtBefore = builds;
    let data = await buildStatusPageData(meta, page, new Date());
    const build = await timed(BUILDS, async () => {
      data = await buildStatusPageData(meta, page, new Date());
    });
    const renderNow = new Date();
    const render = await timed(BUILDS, () =>
      renderStatusPage(data, { basePath: pagePath, now: renderNow }),
    );
    // What sending the cached HTML string costs on every request: Fastify takes its UTF-8 length
    // for content-length, then the socket encodes it. V8 holds a string with any character
    // beyond Latin-1 (the title's "—") at two bytes a character, which makes both slower.
    const htmlText = renderStatusPage(data, { basePath: pagePath, now: renderNow });
    let beyondLatin1 = false;
    for (let i = 0; i < htmlText.length && !beyondLatin1; i++)
      beyondLatin1 = htmlText.charCodeAt(i) > 0xff;
    const sendHtmlString = await timed(
      BUILDS * 5,
      () => Buffer.from(htmlText, "utf8").length === Buffer.byteLength(htmlText),
    );
    const both = await timed(BUILDS, async () => {
      const at = new Date();
      renderStatusPage(await buildStatusPageData(meta, page, at), { basePath: pagePath, now: at });
    });
    // What the /v1 route does on every request, cached payload or not: fastify-type-provider-zod's
    // serializer parses the payload with the response schema, then JSON.stringify.
    const v1Serialize = await timed(BUILDS, () => JSON.stringify(StatusPageData.parse(data)));
    const zodParse = await timed(BUILDS, () => StatusPageData.parse(data));
    const stringify = await timed(BUILDS, () => JSON.stringify(data));
    builds = builtBefore;
    const cold = {
      build,
      render,
      buildAndRender: both,
      v1Serialize,
      zodParse,
      stringify,
      sendHtmlString,
      htmlBeyondLatin1: beyondLatin1,
    };
    // Where the bytes are: the 90-day strips of the HTML, the history arrays of the JSON.
    let stripBytes = 0;
    for (let at = htmlText.indexOf('<div class="history" '); at >= 0; ) {
      const end = htmlText.indexOf('<div class="history-legend"', at);
      stripBytes += Buffer.byteLength(htmlText.slice(at, end));
      at = htmlText.indexOf('<div class="history" ', end);
    }
    const sizes = {
      htmlHistoryStripBytes: stripBytes,
      htmlHistoryStripShare: round(stripBytes / html.length, 3),
      htmlBytesPerDayBar: Math.round(stripBytes / (COMPONENTS * DAYS)),
      jsonHistoryBytes: JSON.stringify(data.services.map((x) => x.history)).length,
    };
    log(`  sizes: ${JSON.stringify(sizes)}`);
    log(`  ${JSON.stringify(cold)}`);

    // 7. The baselines: the same bytes as files, and the HTTP client.
    const staticDir = join(dataDir, "static");
    mkdirSync(staticDir);
    for (const [name, body] of [
      ["status.html", html],
      ["data.json", v1Json],
    ] as const) {
      writeFileSync(join(staticDir, name), body);
      writeFileSync(join(staticDir, `${name}.br`), brotliCompressSync(body));
      writeFileSync(join(staticDir, `${name}.gz`), gzipSync(body));
    }
    staticServer = await startStaticServer({
      "/status.html": {
        path: join(staticDir, "status.html"),
        contentType: "text/html; charset=utf-8",
      },
      "/data.json": {
        path: join(staticDir, "data.json"),
        contentType: "application/json; charset=utf-8",
      },
    });
    const { hostname, port } = new URL(service.url);
    // What a browser sends, unless BENCH_STATUS_ENCODING=identity asks for raw bodies.
    const clientHeaders =
      ENCODING === "identity" ? headers : { ...headers, "accept-encoding": ENCODING };
    client = startClient({ host: hostname, port: Number(port), headers: clientHeaders });
    const http = client;

    const targets = {
      staticHtml: {
        label: "static HTML (node:http + readFile)",
        path: "/status.html",
        port: staticServer.port,
      },
      html: { label: `GET /status/:slug (HTML)`, path: pagePath, port: undefined },
      v1: { label: "GET /v1/status-pages/:slug/data", path: dataPath, port: undefined },
      staticJson: {
        label: "static JSON (node:http + readFile)",
        path: "/data.json",
        port: staticServer.port,
      },
    };
    const figures: Record<string, TargetFigures> = {};
    const loadBefore = loadavg()[0] ?? 0;
    for (const [name, t] of Object.entries(targets)) {
      const target = { port: t.port };
      const statuses: Record<string, number> = {};
      const count = (from: Record<string, number>) => {
        for (const [k, v] of Object.entries(from)) statuses[k] = (statuses[k] ?? 0) + v;
      };
      builds = 0;
      const loadAtStart = loadavg()[0] ?? 0;
      log(`${t.label}: warm-up and serial service time`);
      count((await http.closed([t.path], 1, WARMUP_SECONDS, target)).statuses);
      const serial = await http.closed([t.path], 1, WARMUP_SECONDS, target);
      count(serial.statuses);
      let low: OpenLoopResult | undefined;
      if (LOW_RATE > 0) {
        log(`${t.label}: open loop ${LOW_RATE}/s for ${LOW_SECONDS} s`);
        const answer = await http.open([t.path], LOW_RATE, LOW_SECONDS, undefined, target);
        count(answer.statuses);
        low = answer.result;
      }
      log(`${t.label}: open loop ${RATE}/s for ${SECONDS} s`);
      const elu0: EventLoopUtilization = performance.eventLoopUtilization();
      const open = await http.open([t.path], RATE, SECONDS, undefined, target);
      const elu = performance.eventLoopUtilization(elu0);
      count(open.statuses);
      log(`${t.label}: closed loop, ${CONCURRENCY} connections for ${CLOSED_SECONDS} s`);
      const closed = await http.closed([t.path], CONCURRENCY, CLOSED_SECONDS, target);
      count(closed.statuses);
      figures[name] = {
        label: t.label,
        bytes: open.bytes,
        serial: serial.result,
        open: open.result,
        lowRateOpen: low,
        closed: closed.result,
        statuses,
        serverLoopUtilization: round(elu.utilization, 3),
        payloadBuilds: builds,
        loadAverage1m: { before: round(loadAtStart), after: round(loadavg()[0] ?? 0) },
      };
      log(`  ${JSON.stringify(figures[name])}`);
    }

    // Report.
    const f = (name: keyof typeof targets) => {
      const x = figures[name];
      if (!x) throw new Error(`no figures for ${name}`);
      return x;
    };
    const base = f("staticHtml");
    const baseJson = f("staticJson");
    const ratio = (a: number, b: number) => round(a / b, 2);
    const ratios = {
      htmlP99ToStaticHtmlP99: ratio(f("html").open.p99, base.open.p99),
      v1P99ToStaticHtmlP99: ratio(f("v1").open.p99, base.open.p99),
      v1P99ToStaticJsonP99: ratio(f("v1").open.p99, baseJson.open.p99),
      htmlP50ToStaticHtmlP50: ratio(f("html").open.p50, base.open.p50),
      v1P50ToStaticJsonP50: ratio(f("v1").open.p50, baseJson.open.p50),
      htmlClosedToStaticHtmlClosed: ratio(
        f("html").closed.requestsPerSecond,
        base.closed.requestsPerSecond,
      ),
      v1ClosedToStaticJsonClosed: ratio(
        f("v1").closed.requestsPerSecond,
        baseJson.closed.requestsPerSecond,
      ),
      /** Service time, one request at a time: what each answer costs without queueing. */
      htmlSerialMeanToStaticHtml: ratio(f("html").serial.mean, base.serial.mean),
      v1SerialMeanToStaticJson: ratio(f("v1").serial.mean, baseJson.serial.mean),
      /** Below saturation (LOW_RATE), where a p99 is not a queue length. */
      lowRate:
        LOW_RATE > 0
          ? {
              htmlP99ToStaticHtmlP99: ratio(
                f("html").lowRateOpen?.p99 ?? Number.NaN,
                base.lowRateOpen?.p99 ?? Number.NaN,
              ),
              v1P99ToStaticJsonP99: ratio(
                f("v1").lowRateOpen?.p99 ?? Number.NaN,
                baseJson.lowRateOpen?.p99 ?? Number.NaN,
              ),
            }
          : undefined,
    };
    const met = (x: TargetFigures) =>
      x.open.p99 < TARGET_P99_MS && x.open.errors === 0 && x.open.achievedRate >= RATE * 0.95;
    const targetMet = { html: met(f("html")), v1: met(f("v1")) };

    const ms = (n: number) => n.toFixed(2);
    console.log(
      `Status page '${SLUG}': ${COMPONENTS} components in ${GROUPS.length} groups (${monitorCount} monitors), ${DAYS} days of history ` +
        `(${fmt(dayRows)} rows), ${pageFacts.incidents} incidents (${pageFacts.activeIncidents} open, ${publicUpdates} public updates), ` +
        `${pageFacts.maintenanceWindows} maintenance windows (${pageFacts.maintenanceShown} shown); HTML ${fmt(html.length)} B, /v1 JSON ${fmt(v1Json.length)} B; ` +
        `${cpus().length} CPUs`,
    );
    console.log(
      `\nCold cost, ${BUILDS} calls each on the idle service, ms (the cache hides build and render)`,
    );
    printTable(
      ["step", "mean", "p50", "p99", "max"],
      [
        ["buildStatusPageData (meta store reads + assembly)", build],
        ["renderStatusPage (HTML)", render],
        ["build + render (a cache miss of /status/:slug)", both],
        ["/v1 serializer per request: zod parse + JSON.stringify", v1Serialize],
        ["  of which zod parse (StatusPageData)", zodParse],
        ["  of which JSON.stringify", stringify],
        [
          `sending the cached HTML string per request: byteLength + UTF-8 encode (${beyondLatin1 ? "two-byte" : "one-byte"} string)`,
          sendHtmlString,
        ],
      ].map(([label, l]) => {
        const x = l as typeof build;
        return [label as string, ms(x.mean), ms(x.p50), ms(x.p99), ms(x.max)];
      }),
    );
    const order = ["staticHtml", "html", "v1", "staticJson"] as const;
    console.log(
      `Open loop, ${RATE} requests/s for ${SECONDS} s, latency in ms from the scheduled send time (keep-alive, client in a worker thread)`,
    );
    printTable(
      [
        "target",
        "bytes/answer",
        "p50",
        "p90",
        "p99",
        "max",
        "achieved/s",
        "errors",
        "p99 / static HTML p99",
        "server loop busy",
        "payload builds",
        "load 1m",
      ],
      order.map((name) => {
        const x = f(name);
        return [
          x.label,
          fmt(x.bytes.mean),
          ms(x.open.p50),
          ms(x.open.p90),
          ms(x.open.p99),
          ms(x.open.max),
          String(x.open.achievedRate),
          `${x.open.errors}/${x.open.requests}`,
          `x${ratio(x.open.p99, base.open.p99).toFixed(2)}`,
          `${Math.round(x.serverLoopUtilization * 100)}%`,
          String(x.payloadBuilds),
          `${x.loadAverage1m.before} -> ${x.loadAverage1m.after}`,
        ];
      }),
    );
    if (LOW_RATE > 0) {
      console.log(
        `Open loop below saturation, ${LOW_RATE} requests/s for ${LOW_SECONDS} s, latency in ms from the scheduled send time`,
      );
      printTable(
        ["target", "p50", "p90", "p99", "max", "achieved/s", "errors", "p99 / static HTML p99"],
        order.map((name) => {
          const x = f(name).lowRateOpen;
          const b = base.lowRateOpen;
          if (!x || !b) throw new Error("a low-rate run is missing");
          return [
            f(name).label,
            ms(x.p50),
            ms(x.p90),
            ms(x.p99),
            ms(x.max),
            String(x.achievedRate),
            `${x.errors}/${x.requests}`,
            `x${ratio(x.p99, b.p99).toFixed(2)}`,
          ];
        }),
      );
    }
    console.log(
      `Serial (one connection, no queueing) and closed loop (${CONCURRENCY} connections, ${CLOSED_SECONDS} s): service time and maximum`,
    );
    printTable(
      [
        "target",
        "serial mean / p99 ms",
        "closed req/s",
        "closed p50 / p99 ms",
        "closed errors",
        "req/s / static HTML",
        "statuses",
      ],
      order.map((name) => {
        const x = f(name);
        return [
          x.label,
          `${ms(x.serial.mean)} / ${ms(x.serial.p99)}`,
          String(x.closed.requestsPerSecond),
          `${ms(x.closed.p50)} / ${ms(x.closed.p99)}`,
          `${x.closed.errors}/${x.closed.requests}`,
          `x${ratio(x.closed.requestsPerSecond, base.closed.requestsPerSecond).toFixed(2)}`,
          JSON.stringify(x.statuses),
        ];
      }),
    );
    console.log(
      `Ratios at ${RATE}/s: /status/:slug p99 x${ratios.htmlP99ToStaticHtmlP99} the static HTML file's; ` +
        `/v1 data p99 x${ratios.v1P99ToStaticHtmlP99} the static HTML's, x${ratios.v1P99ToStaticJsonP99} the static JSON's (same bytes)`,
    );
    console.log(
      `Service time (serial mean): /status/:slug x${ratios.htmlSerialMeanToStaticHtml} the static HTML's, ` +
        `/v1 data x${ratios.v1SerialMeanToStaticJson} the static JSON's` +
        (ratios.lowRate
          ? `; p99 at ${LOW_RATE}/s: /status/:slug x${ratios.lowRate.htmlP99ToStaticHtmlP99} the static HTML's, /v1 data x${ratios.lowRate.v1P99ToStaticJsonP99} the static JSON's`
          : ""),
    );
    console.log(
      `Target p99 < ${TARGET_P99_MS} ms at ${RATE} requests/s: /status/:slug ${targetMet.html ? "met" : "NOT met"} ` +
        `(p99 ${ms(f("html").open.p99)} ms at ${f("html").open.achievedRate}/s, ${f("html").open.errors} errors); ` +
        `/v1/status-pages/:slug/data ${targetMet.v1 ? "met" : "NOT met"} ` +
        `(p99 ${ms(f("v1").open.p99)} ms at ${f("v1").open.achievedRate}/s, ${f("v1").open.errors} errors); ` +
        `static HTML baseline p99 ${ms(base.open.p99)} ms`,
    );
    console.log(
      JSON.stringify({
        bench: "status-pages",
        page: { ...pageFacts, ...sizes },
        rate: RATE,
        seconds: SECONDS,
        lowRate: LOW_RATE,
        lowSeconds: LOW_SECONDS,
        warmupSeconds: WARMUP_SECONDS,
        concurrency: CONCURRENCY,
        closedSeconds: CLOSED_SECONDS,
        cpus: cpus().length,
        loadAverage1m: { before: round(loadBefore), after: round(loadavg()[0] ?? 0) },
        baseline:
          "plain node:http server in the same process: fs.promises.readFile of the file (or its precompressed .br/.gz twin when accepted) per request, sent with content-type, content-length, cache-control",
        acceptEncoding: ENCODING,
        cold: { calls: BUILDS, ...cold },
        targets: figures,
        ratios,
        target: { p99Ms: TARGET_P99_MS, rate: RATE },
        targetMet,
      }),
    );
  } finally {
    await client?.stop();
    await staticServer?.stop();
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
