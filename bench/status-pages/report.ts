import { cpus, loadavg } from "node:os";
import { printResult } from "../harness/run.js";
import { fmt, round } from "../harness/stats.js";
import { printTable } from "../harness/table.js";
import type { coldCost } from "./cold-cost.js";
import type { TargetFigures } from "./load.js";
import type { ServedPage } from "./page-checks.js";
import {
  BUILDS,
  CLOSED_SECONDS,
  COMPONENTS,
  CONCURRENCY,
  DAYS,
  ENCODING,
  GROUPS,
  LOW_RATE,
  LOW_SECONDS,
  RATE,
  SECONDS,
  SLUG,
  TARGET_P99_MS,
  WARMUP_SECONDS,
} from "./settings.js";
import type { StatusWireFigures } from "./wire.js";

export interface StatusPagesFigures {
  served: ServedPage;
  costs: Awaited<ReturnType<typeof coldCost>>;
  wire: StatusWireFigures;
  figures: Record<string, TargetFigures>;
  monitorCount: number;
  dayRows: number;
  publicUpdates: number;
  loadBefore: number;
}

type TargetName = "staticHtml" | "html" | "v1" | "staticJson";

/** The ratios to the static baselines, and whether each route met the target. */
function ratiosOf(f: (name: TargetName) => TargetFigures) {
  const base = f("staticHtml");
  const baseJson = f("staticJson");
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

  return { ratios, targetMet };
}

const ms = (n: number) => n.toFixed(2);
const ratio = (a: number, b: number) => round(a / b, 2);
const ORDER = ["staticHtml", "html", "v1", "staticJson"] as const;
type Figures = (name: TargetName) => TargetFigures;

/** Cold cost, on the idle service: what the cache hides. */
function printColdCost(cold: StatusPagesFigures["costs"]["cold"]) {
  const {
    build,
    render,
    buildAndRender: both,
    v1Serialize,
    zodParse,
    stringify,
    sendHtmlString,
  } = cold;
  const beyondLatin1 = cold.htmlBeyondLatin1;
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
}

/** The open loops at RATE, then below saturation at LOW_RATE. */
function printOpenLoops(f: Figures) {
  const base = f("staticHtml");
  const order = ORDER;
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
}

/** Serial service time and the closed loop's maximum. */
function printServiceTimes(f: Figures) {
  const base = f("staticHtml");
  const order = ORDER;
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
}

/** Bytes on the wire, and the CPU compressing each answer once per build costs. */
function printWire({ wire, compression, bytes }: StatusWireFigures) {
  console.log("\nOn the wire (bytes) as each encoding");
  const rows: [string, StatusWireFigures["wire"]["html"] | null][] = [
    ["GET /status/:slug (HTML)", wire.html],
    ["GET /v1/status-pages/:slug/data", wire.v1],
    ["  ?history=days", wire.v1Days],
    ["GET /status/:slug.json", wire.publicJson],
  ];
  printTable(
    ["answer", "identity", "br", "gzip", "br share", "gzip share"],
    rows.flatMap(([label, w]) =>
      w === null
        ? []
        : [
            [
              label,
              fmt(w.identity),
              fmt(w.br),
              fmt(w.gzip),
              String(w.brShare),
              String(w.gzipShare),
            ],
          ],
    ),
  );
  console.log("Compressing once per build (kept in the cache; a request then costs a lookup)");
  printTable(
    ["answer", "encoder", "bytes", "CPU ms"],
    (["html", "v1"] as const).flatMap((name) =>
      compression[name].table.map((c) => [
        name,
        Object.values(compression[name].used).includes(c.name) ? `${c.name} (used)` : c.name,
        fmt(c.bytes),
        String(c.cpuMs),
      ]),
    ),
  );
  console.log(
    `Target ≤ ${fmt(bytes.target)} B before compression: ${bytes.met ? "met" : "NOT met"} ` +
      `(HTML ${fmt(bytes.figure.html)} B, x${bytes.smallerThanBaseline.html} smaller than ${fmt(bytes.baseline.html)}; ` +
      `/v1 JSON ${fmt(bytes.figure.v1Json)} B, x${bytes.smallerThanBaseline.v1Json} smaller than ${fmt(bytes.baseline.v1Json)})`,
  );
}

/** The tables on stdout, then the JSON result line. */
export function report(r: StatusPagesFigures) {
  const { figures, monitorCount, dayRows, publicUpdates, loadBefore } = r;
  const { pageFacts, html, v1Json } = r.served;
  const { cold, sizes } = r.costs;
  const f = (name: TargetName) => {
    const x = figures[name];
    if (!x) throw new Error(`no figures for ${name}`);
    return x;
  };
  const base = f("staticHtml");
  const { ratios, targetMet } = ratiosOf(f);
  console.log(
    `Status page '${SLUG}': ${COMPONENTS} components in ${GROUPS.length} groups (${monitorCount} monitors), ${DAYS} days of history ` +
      `(${fmt(dayRows)} rows), ${pageFacts.incidents} incidents (${pageFacts.activeIncidents} open, ${publicUpdates} public updates), ` +
      `${pageFacts.maintenanceWindows} maintenance windows (${pageFacts.maintenanceShown} shown); HTML ${fmt(html.length)} B, /v1 JSON ${fmt(v1Json.length)} B; ` +
      `${cpus().length} CPUs`,
  );
  printColdCost(cold);
  printWire(r.wire);
  printOpenLoops(f);
  printServiceTimes(f);
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
  printResult({
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
    bytes: r.wire.bytes,
    wire: r.wire.wire,
    compression: r.wire.compression,
    targets: figures,
    ratios,
    target: { p99Ms: TARGET_P99_MS, rate: RATE },
    targetMet: { ...targetMet, bytes: r.wire.bytes.met },
  });
}
