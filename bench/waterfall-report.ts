import { cpus, loadavg } from "node:os";
import { printResult } from "./harness/run.js";
import { fmt } from "./harness/stats.js";
import { printTable } from "./harness/table.js";
import type { LoadFigures, ScrollFigures, staticTable } from "./waterfall-page.js";
import type { BigTrace } from "./waterfall-trace.js";
import type { WireFigures } from "./waterfall-wire.js";

export interface WaterfallFigures {
  big: BigTrace;
  small: BigTrace;
  ingestMs: number;
  wire: WireFigures;
  api: Record<
    "spans" | "nested",
    Record<"big" | "small", { medianMs: number; maxMs: number; bytes: number }>
  >;
  load: Record<"big" | "small", ReturnType<typeof summarizeLoad>>;
  bigScroll: ScrollRun;
  smallScroll: ScrollRun;
  staticLoad: Awaited<ReturnType<typeof staticTable>>;
  staticScroll: ScrollRun;
  collapseAll: { ms: number; rows: number };
  expandAll: { ms: number; rows: number };
  settings: { runs: number; scrollSteps: number; targetRenderMs: number; longTaskMs: number };
}

const r1 = (n: number) => Math.round(n * 10) / 10;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

/** One case's navigations: medians and maxima of each part of the load. */
export function summarizeLoad(runs: LoadFigures[]) {
  return {
    runs: runs.length,
    paintedMedianMs: r1(median(runs.map((r) => r.paintedMs))),
    paintedMaxMs: r1(Math.max(...runs.map((r) => r.paintedMs))),
    apiRequestMedianMs: r1(median(runs.map((r) => r.apiEndMs - r.apiStartMs))),
    afterResponseMedianMs: r1(median(runs.map((r) => r.paintedMs - r.apiEndMs))),
    beforeRequestMedianMs: r1(median(runs.map((r) => r.apiStartMs))),
    apiBytes: runs[0]?.apiBytes ?? 0,
    longTasksDuringLoad: Math.max(...runs.map((r) => r.longTasks)),
    longestTaskDuringLoadMs: r1(Math.max(...runs.map((r) => r.longestTaskMs))),
    domRows: Math.max(...runs.map((r) => r.domRows)),
  };
}

/** A scroll run's figures with the trace's long RunTasks. */
export type ScrollRun = ScrollFigures & { runTasksOver100: number; longestRunTaskMs: number };

/** The tables on stdout, then the JSON result line. */
const scrollRow = (label: string, s: ScrollRun) => [
  label,
  String(s.steps),
  String(r1(s.maxFrameMs)),
  String(r1(s.p95FrameMs)),
  String(s.longTasks),
  String(r1(s.longestTaskMs)),
  String(s.runTasksOver100),
  String(s.longestRunTaskMs),
  String(s.maxDomRows),
  s.blankSteps === 0 ? "all" : `${s.steps - s.blankSteps}/${s.steps}`,
];

/** Opening the waterfall, each case beside the static table. */
function printLoad(f: WaterfallFigures) {
  const { load, staticLoad } = f;
  console.log("\nOpening the waterfall: navigation start → first span rows painted (ms)");
  printTable(
    [
      "case",
      "painted p50",
      "painted max",
      "before the trace request",
      "trace request",
      "after the response",
      "JSON bytes",
      "long tasks (max ms)",
      "rows in DOM",
    ],
    [
      ["waterfall, 50,000 spans", load.big],
      ["waterfall, 500 spans (baseline)", load.small],
    ]
      .map(([label, l]) => {
        const x = l as typeof load.big;
        return [
          label as string,
          String(x.paintedMedianMs),
          String(x.paintedMaxMs),
          String(x.beforeRequestMedianMs),
          String(x.apiRequestMedianMs),
          String(x.afterResponseMedianMs),
          fmt(x.apiBytes),
          `${x.longTasksDuringLoad} (${x.longestTaskDuringLoadMs})`,
          fmt(x.domRows),
        ];
      })
      .concat([
        [
          "static table, 50,000 rows, not virtualized",
          String(r1(staticLoad.totalMs)),
          "",
          "",
          String(r1(staticLoad.fetchMs)),
          String(r1(staticLoad.renderMs)),
          fmt(staticLoad.bytes),
          `${staticLoad.longTasks} (${r1(staticLoad.longestTaskMs)})`,
          fmt(staticLoad.domRows),
        ],
      ]),
  );
}

/** Scrolling each case. */
function printScroll(f: WaterfallFigures) {
  const { bigScroll, smallScroll, staticScroll } = f;
  const SCROLL_STEPS = f.settings.scrollSteps;
  console.log(
    `Scrolling: ${SCROLL_STEPS} scrollTop jumps over the list + ${SCROLL_STEPS} wheel steps`,
  );
  printTable(
    [
      "case",
      "steps",
      "max frame ms",
      "p95 frame ms",
      "long tasks",
      "longest ms",
      "RunTask > 100 ms (trace)",
      "longest RunTask ms",
      "max rows in DOM",
      "steps with rows",
    ],
    [
      scrollRow("waterfall, 50,000 spans", bigScroll),
      scrollRow("waterfall, 500 spans", smallScroll),
      scrollRow("static table, 50,000 rows", staticScroll),
    ],
  );
}

/** The read verbs from Node, and collapse / expand. */
function printVerbsAndToggles(f: WaterfallFigures) {
  const { big, small, api, collapseAll, expandAll } = f;
  console.log("The read verbs from Node (owner's session, loopback), time to the last byte");
  printTable(
    ["verb", "spans", "p50 ms", "max ms", "bytes"],
    [
      ["GET …/traces/:id/spans (columns, the waterfall's)", api.spans.big, big.spanCount],
      ["GET …/traces/:id/spans (columns, the waterfall's)", api.spans.small, small.spanCount],
      ["GET …/traces/:id (nested tree, every attribute)", api.nested.big, big.spanCount],
      ["GET …/traces/:id (nested tree, every attribute)", api.nested.small, small.spanCount],
    ].map(([label, a, n]) => {
      const x = a as typeof api.spans.big;
      return [label as string, fmt(n as number), String(x.medianMs), String(x.maxMs), fmt(x.bytes)];
    }),
  );
  const { wire } = f;
  console.log(
    "On the wire: the 50,000-span verbs as each encoding (bytes), and what compressing the columns costs",
  );
  printTable(
    ["verb", "identity", "br", "gzip", "br share", "gzip share"],
    [["GET …/traces/:id/spans", wire.spans] as const].map(([label, x]) => {
      return [
        label as string,
        fmt(x.identity),
        fmt(x.br),
        fmt(x.gzip),
        String(x.brShare),
        String(x.gzipShare),
      ];
    }),
  );
  printTable(
    ["encoder", "bytes", "share", "CPU ms per response"],
    wire.costs.table.map((c) => [
      Object.values(wire.costs.used).includes(c.name) ? `${c.name} (the server's)` : c.name,
      fmt(c.bytes),
      String(c.share),
      String(c.cpuMs),
    ]),
  );
  printTable(
    ["column of spans", "raw bytes", "br q4 bytes", "br bytes a span"],
    wire.columns.map((c) => [
      c.column,
      fmt(c.raw),
      fmt(c.br),
      String(Math.round((c.br / f.big.spanCount) * 10) / 10),
    ]),
  );
  console.log(
    `Whole request, process CPU ms (server and client in one process): identity ${wire.requestCpuMs.identity}, br ${wire.requestCpuMs.br}, gzip ${wire.requestCpuMs.gzip}; JSON.parse of the body ${wire.clientJsonParseCpuMs}`,
  );
  console.log("Collapse / expand on 50,000 spans: click → next frame (ms)");
  printTable(
    ["action", "ms", "rows after"],
    [
      ["Collapse all", String(r1(collapseAll.ms)), fmt(collapseAll.rows)],
      ["Expand all", String(r1(expandAll.ms)), fmt(expandAll.rows)],
    ],
  );
}

/** The tables on stdout, then the JSON result line. */
export function report(f: WaterfallFigures) {
  const { big, small, ingestMs, api, load, bigScroll, smallScroll, staticLoad, staticScroll } = f;
  const { collapseAll, expandAll } = f;
  const RUNS = f.settings.runs;
  const SCROLL_STEPS = f.settings.scrollSteps;
  const TARGET_RENDER_MS = f.settings.targetRenderMs;
  const LONG_TASK_MS = f.settings.longTaskMs;
  console.log(
    `One trace of ${fmt(big.spanCount)} spans (depth ${big.maxDepth}, ${big.services} services, ${big.errorCount} failed), ` +
      `baseline ${fmt(small.spanCount)} spans; ${RUNS} full navigations each; Chromium headless, ${cpus().length} CPUs`,
  );
  printLoad(f);
  printScroll(f);
  printVerbsAndToggles(f);
  const renderMet = load.big.paintedMaxMs < TARGET_RENDER_MS;
  const scrollMet = bigScroll.runTasksOver100 === 0 && bigScroll.longestTaskMs <= LONG_TASK_MS;
  const { wire } = f;
  console.log(
    `Target transfer ≤ ${wire.target * 100} % of the raw answer: ${wire.met ? "met" : "NOT met"} ` +
      `(br ${wire.spans.brShare * 100} %, gzip ${wire.spans.gzipShare * 100} % of ${fmt(wire.spans.identity)} B; uncompressed before issue 37)`,
  );
  console.log(
    `Target render < ${TARGET_RENDER_MS} ms: ${renderMet ? "met" : "NOT met"} (p50 ${load.big.paintedMedianMs} ms, max ${load.big.paintedMaxMs} ms; ` +
      `x${r1(load.big.paintedMedianMs / load.small.paintedMedianMs)} the 500-span trace's, ` +
      `x${r1(load.big.paintedMedianMs / staticLoad.totalMs)} the static table's). ` +
      `No long task > ${LONG_TASK_MS} ms while scrolling: ${scrollMet ? "met" : "NOT met"} ` +
      `(longest ${bigScroll.longestTaskMs} ms by the observer, ${bigScroll.longestRunTaskMs} ms by the trace; static table: ${r1(staticScroll.longestTaskMs)} ms)`,
  );
  printResult({
    bench: "waterfall",
    trace: {
      spans: big.spanCount,
      depth: big.maxDepth,
      services: big.services,
      errors: big.errorCount,
      baselineSpans: small.spanCount,
    },
    runs: RUNS,
    scrollSteps: SCROLL_STEPS,
    cpus: cpus().length,
    loadAverage1m: r1(loadavg()[0] ?? 0),
    ingestMs: Math.round(ingestMs),
    api,
    load,
    staticTable: { load: staticLoad, scroll: staticScroll },
    scroll: { big: bigScroll, small: smallScroll },
    toggle: { collapseAll, expandAll },
    baseline:
      "the same page with a 500-span trace, and a static HTML table of the same 50,000 spans rendered whole (same origin, same JSON)",
    wire,
    target: { renderMs: TARGET_RENDER_MS, longTaskMs: LONG_TASK_MS, wireShare: wire.target },
    targetMet: { render: renderMet, scroll: scrollMet, wire: wire.met },
  });
}
