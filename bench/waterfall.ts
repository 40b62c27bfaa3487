/**
 * npm run bench:waterfall — the trace waterfall of the dashboard with a 50,000-span trace.
 *
 * 1. Builds the dashboard (test/helpers/dashboard.ts `builtDashboard`, a production build) and
 *    starts the service with it in-process, with Chromium (Debian's, through playwright-core).
 * 2. Sends ONE trace of BENCH_WATERFALL_SPANS (50,000) spans through OTLP/protobuf in requests
 *    of 2,000 (bench/waterfall-trace.ts: a batch import through a gateway fanning out to ten
 *    services, chains up to 20 deep, ~0.4 % failed spans with exceptions), and the baseline
 *    trace of BENCH_WATERFALL_BASELINE_SPANS (500) spans made the same way.
 * 3. GET /api/projects/:id/v1/traces/:traceId from Node with the owner's session:
 *    BENCH_WATERFALL_RUNS (5) times each, time to the last byte and size.
 * 4. In Chromium, signed in, for each trace BENCH_WATERFALL_RUNS times: a full navigation to
 *    /projects/:id/traces/:traceId and the time from navigation start until the first span row
 *    is in the DOM and the frame holding it was produced (a MutationObserver, then
 *    requestAnimationFrame + a message: the task after the frame), with the trace request's
 *    own timing from Resource Timing, so that "waiting for the server" and "the page's own
 *    work" read apart. Long tasks (PerformanceObserver "longtask") during the load are counted.
 * 5. Scrolling, on the 50,000-span waterfall: BENCH_WATERFALL_SCROLL_STEPS (30) jumps of
 *    scrollTop spread over the whole list (two animation frames each), then as many mouse
 *    wheel steps of 1,500 px back up, while recording long tasks and a Chromium performance
 *    trace (browser.startTracing; RunTask events on the renderer main threads longer than
 *    100 ms are counted). Same on the 500-span baseline and on a static HTML table of the
 *    same 50,000 spans rendered whole (not virtualized, same origin, same JSON), so that the
 *    figures read against something. Also "Collapse all" and "Expand all" on 50,000 spans,
 *    click to the next frame.
 *
 * 3b. The waterfall's verbs on the wire (bench/waterfall-wire.ts): bytes as br, gzip and identity,
 *    the CPU compressing the body costs at each quality, the whole request's CPU as each.
 *
 * Targets (issue 17): render < 1 s, no long task > 100 ms while scrolling; (issue 37) the
 * 50,000-span answer's transfer ≤ 15 % of its raw size. The last line is one JSON object with
 * every figure.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { sendAll } from "../src/demo/sender.js";
import { type DashboardHarness, startDashboard } from "../test/helpers/dashboard.js";
import { addKey } from "../test/helpers/projects.js";
import {
  INIT_SCRIPT,
  type LoadFigures,
  loadFigures,
  measureToggle,
  runTasksOver,
  scrollThrough,
  staticTable,
} from "./waterfall-page.js";
import { report, summarizeLoad } from "./waterfall-report.js";
import { type BigTrace, bigTrace } from "./waterfall-trace.js";
import { wireFigures } from "./waterfall-wire.js";

const SPANS = Number(process.env.BENCH_WATERFALL_SPANS ?? 50_000);
const BASELINE_SPANS = Number(process.env.BENCH_WATERFALL_BASELINE_SPANS ?? 500);
const RUNS = Number(process.env.BENCH_WATERFALL_RUNS ?? 5);
const SCROLL_STEPS = Number(process.env.BENCH_WATERFALL_SCROLL_STEPS ?? 30);
const TARGET_RENDER_MS = 1000;
const LONG_TASK_MS = 100;

const log = (text: string) => process.stderr.write(`${text}\n`);
const fmt = (n: number) => n.toLocaleString("en");
const r1 = (n: number) => Math.round(n * 10) / 10;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

async function waitForTrace(dash: DashboardHarness, trace: BigTrace): Promise<void> {
  const path = `/api/projects/${dash.projectId}/v1/traces/${trace.traceId}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const response = await dash.owner.get(path);
    const body = (await response.json()) as { spanCount?: number };
    if (body.spanCount === trace.spanCount) return;
    if (Date.now() > deadline)
      throw new Error(`trace ${trace.traceId}: ${body.spanCount} of ${trace.spanCount} spans`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The read verb from Node: time to the last byte, and the body's size. */
async function apiTimes(dash: DashboardHarness, trace: BigTrace, suffix: "" | "/spans") {
  const path = `/api/projects/${dash.projectId}/v1/traces/${trace.traceId}${suffix}`;
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const response = await dash.owner.get(path);
    bytes = (await response.arrayBuffer()).byteLength;
    times.push(performance.now() - t0);
  }
  return { medianMs: r1(median(times)), maxMs: r1(Math.max(...times)), bytes };
}

/** Opens the waterfall RUNS times by full navigation; the figures of each run. */
async function openWaterfall(page: Page, url: string): Promise<LoadFigures[]> {
  const runs: LoadFigures[] = [];
  for (let i = 0; i < RUNS; i++) {
    await page.goto(url);
    runs.push(await loadFigures(page));
  }
  return runs;
}

async function scrollFigures(browser: Browser, page: Page, selector: string) {
  await browser.startTracing(page, {
    categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel"],
  });
  const figures = await scrollThrough(page, selector, SCROLL_STEPS);
  const trace = JSON.parse((await browser.stopTracing()).toString("utf8")) as {
    traceEvents: Parameters<typeof runTasksOver>[0];
  };
  const tasks = runTasksOver(trace.traceEvents, LONG_TASK_MS);
  return { ...figures, runTasksOver100: tasks.over, longestRunTaskMs: r1(tasks.longestMs) };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "vigil-bench-waterfall-"));
  let dash: DashboardHarness | undefined;
  try {
    log("Building the dashboard and starting the service…");
    dash = await startDashboard(dir, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_WEBHOOKS_ENABLED: "false",
      VIGIL_LOG_LEVEL: "warn",
      VIGIL_RATE_LIMIT_PER_MINUTE: "1000000",
    });
    const key = await addKey(dash.service, dash.projectId, { name: "bench", role: "full" });
    const now = Date.now();
    const big = bigTrace(SPANS, {
      seed: 17,
      startMs: now - 20 * 60_000,
      durationMs: 45_000,
      batch: 2000,
    });
    const small = bigTrace(BASELINE_SPANS, {
      seed: 18,
      startMs: now - 15 * 60_000,
      durationMs: 45_000,
      batch: 2000,
    });
    log(
      `Trace: ${fmt(big.spanCount)} spans, depth ${big.maxDepth}, ${big.services} services, ${big.errorCount} errors; baseline ${fmt(small.spanCount)} spans, depth ${small.maxDepth}`,
    );
    const ingestStart = performance.now();
    await sendAll([...big.requests, ...small.requests], { url: dash.baseUrl, key, concurrency: 2 });
    await waitForTrace(dash, big);
    await waitForTrace(dash, small);
    const ingestMs = performance.now() - ingestStart;
    log(`Ingested and readable in ${fmt(Math.round(ingestMs))} ms`);

    // The waterfall reads the columnar verb; the nested one is there for comparison.
    const api = {
      spans: {
        big: await apiTimes(dash, big, "/spans"),
        small: await apiTimes(dash, small, "/spans"),
      },
      nested: { big: await apiTimes(dash, big, ""), small: await apiTimes(dash, small, "") },
    };
    log(`API: ${JSON.stringify(api)}`);
    const wire = await wireFigures(dash, big);
    log(`Wire: ${JSON.stringify(wire)}`);

    const { page, console: watch } = await dash.newPage({ width: 1440, height: 900 });
    await dash.signIn(page);
    await page.addInitScript(INIT_SCRIPT);
    const url = (t: BigTrace) => `/projects/${dash?.projectId}/traces/${t.traceId}`;

    const smallRuns = await openWaterfall(page, url(small));
    const smallScroll = await scrollFigures(dash.browser, page, ".wf");
    const bigRuns = await openWaterfall(page, url(big));
    const load = { big: summarizeLoad(bigRuns), small: summarizeLoad(smallRuns) };
    log(`Load: ${JSON.stringify(load)}`);
    const bigScroll = await scrollFigures(dash.browser, page, ".wf");
    await dash.screenshot(page, "traces-waterfall-50k");
    const collapseAll = await measureToggle(page, "Collapse all");
    const expandAll = await measureToggle(page, "Expand all");
    log(`Scroll: ${JSON.stringify({ bigScroll, smallScroll, collapseAll, expandAll })}`);

    const staticLoad = await staticTable(
      page,
      `/api/projects/${dash.projectId}/v1/traces/${big.traceId}/spans`,
    );
    const staticScroll = await scrollFigures(dash.browser, page, "#static-scroll");
    log(`Static: ${JSON.stringify({ staticLoad, staticScroll })}`);
    if (watch.errors.length > 0) throw new Error(`console errors: ${watch.errors.join("\n")}`);

    report({
      big,
      small,
      ingestMs,
      api,
      wire,
      load,
      bigScroll,
      smallScroll,
      staticLoad,
      staticScroll,
      collapseAll,
      expandAll,
      settings: {
        runs: RUNS,
        scrollSteps: SCROLL_STEPS,
        targetRenderMs: TARGET_RENDER_MS,
        longTaskMs: LONG_TASK_MS,
      },
    });
  } finally {
    await dash?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
