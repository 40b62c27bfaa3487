/**
 * npm run bench:error-detail-days — what an error group's detail (`GET /v1/errors/:id`) costs the
 * engine over a month of kept days, before and after each quiet day's parts are merged into one
 * (ADR 0019).
 *
 * The detail reads the group (`error_groups … FINAL`) and its occurrences' services and sample
 * traces by fingerprint with no time range, so it opens every part of every day kept of both
 * tables; only its histogram is cut to a window.
 *
 * 1. An embedded engine in a temporary dir, with the product's schema. BENCH_GROUPS (400) error
 *    groups; BENCH_DAYS (30) days of occurrences, each day written in BENCH_PARTS_PER_DAY (8)
 *    inserts of BENCH_OCCURRENCES_PER_PART (2,000) occurrences spread over the groups and 7
 *    services; each group's row written in 8 versions (a group's versions share its first day's
 *    partition). Merges of both tables are stopped while they are filled and measured.
 * 2. Before: half of the groups, each one's detail read once through the product's verb
 *    (getError, the read API's handler), one after the other: wall time p50/p90/p99 (its
 *    statements run side by side). Then the same again, and `SELECT 1` as often.
 * 3. The forced merges of both tables (the age shortened from an hour to 1 s), until every day
 *    is one part: how long that took and the process CPU it used.
 * 4. After: the other half of the groups, the same way.
 *
 * The last line is one JSON object.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ErrorGroupStore } from "../src/ingest/error-groups.js";
import type { Row } from "../src/ingest/ingest-batch.js";
import { systemClock } from "../src/lib/clock.js";
import { getError } from "../src/read/error-groups.js";
import { createReadDeps, type ReadCtx, type ReadDeps } from "../src/read/read-deps.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { UnixTime } from "../src/telemetry/unix-time.js";
import { round } from "./harness/http-load.js";
import { mergeQuietDays, partsPerDay, readEachTwice } from "./quiet-days.js";

const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const PARTS_PER_DAY = Number(process.env.BENCH_PARTS_PER_DAY ?? 8);
const PER_PART = Number(process.env.BENCH_OCCURRENCES_PER_PART ?? 2000);
const GROUPS = Number(process.env.BENCH_GROUPS ?? 400);
const VERSIONS = 8;
const PROJECT = "prj_bench_error_days";
const DAY_MS = 24 * 3600_000;
const TABLES = ["error_occurrences", "error_groups"] as const;

const log = (text: string) => process.stderr.write(`${text}\n`);
const fingerprint = (n: number) => `fp${String(n % GROUPS).padStart(4, "0")}`;

/** One insert's occurrences, on `day` days ago, the `part`-th of that day. */
function occurrences(day: number, part: number, dayStart: number): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i < PER_PART; i++) {
    const n = (day * PARTS_PER_DAY + part) * PER_PART + i;
    rows.push({
      project_id: PROJECT,
      fingerprint: fingerprint(n),
      timestamp: UnixTime.fromMillis(dayStart + part * 3600_000 + i * 1000),
      service_name: `service-${n % 7}`,
      trace_id: n.toString(16).padStart(32, "0"),
      span_id: (n % 65_536).toString(16).padStart(16, "0"),
      source: "backend",
      message: `Order ${n % 97} could not be placed`,
    });
  }
  return rows;
}

/** Every group's row at one version; first seen on the oldest day, last seen today. */
function groupRows(version: number, firstSeen: UnixTime, lastSeen: UnixTime): Row[] {
  return Array.from({ length: GROUPS }, (_, n) => ({
    project_id: PROJECT,
    fingerprint: fingerprint(n),
    exception_type: "PlacementError",
    message: `Order ${n} could not be placed`,
    stacktrace: `PlacementError: Order ${n} could not be placed\n    at place (/srv/app/orders.js:${n}:7)`,
    culprit: "orders.js in place",
    first_seen: firstSeen,
    last_seen: lastSeen,
    occurrence_count: version * 100,
    status: "active",
    resolved_at: new UnixTime(0, 0),
    severity: "high",
    services: ["service-0"],
    sample_trace_id: "",
    sample_span_id: "",
    source: "backend",
    version,
  }));
}

/** A system ctx over the read deps alone: getError reads nothing else of its ctx. */
const readerCtx = (read: ReadDeps) =>
  ({ deps: { read }, actor: { kind: "system" } }) as unknown as ReadCtx;

/** Each group's detail read once, one after the other, then the same again; SELECT 1 as often. */
async function details(deps: ReadDeps, groups: readonly string[]) {
  const { first, ...rest } = await readEachTwice(deps.telemetry, groups, (id) =>
    getError({ ctx: readerCtx(deps), projectId: PROJECT, errorId: id }).then((found) => {
      if (found.services.length === 0) throw new Error(`group ${id} has no occurrences`);
    }),
  );
  return { firstRead: first, ...rest };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "vigil-bench-error-days-"));
  const telemetry = createChdbExecutor({ path: join(dir, "telemetry"), database: "vigil" });
  try {
    await ensureTelemetrySchema(telemetry, { retentionDays: 30 });
    for (const table of TABLES)
      await telemetry.command(`SYSTEM STOP MERGES ${telemetry.database}.${table}`);

    log(
      `Writing ${DAYS} days x ${PARTS_PER_DAY} parts x ${PER_PART} occurrences, ${GROUPS} groups`,
    );
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    for (let day = 1; day <= DAYS; day++)
      for (let part = 0; part < PARTS_PER_DAY; part++)
        await telemetry.insert("error_occurrences", occurrences(day, part, today - day * DAY_MS));
    const firstSeen = UnixTime.fromMillis(today - DAYS * DAY_MS);
    const lastSeen = UnixTime.fromMillis(today - DAY_MS);
    for (let version = 1; version <= VERSIONS; version++)
      await telemetry.insert("error_groups", groupRows(version, firstSeen, lastSeen));
    const before = {
      occurrences: await partsPerDay(telemetry, "error_occurrences"),
      groups: await partsPerDay(telemetry, "error_groups"),
    };
    log(`parts: ${JSON.stringify(before)}`);

    const deps = createReadDeps(
      { telemetry, clock: systemClock, errorGroups: new ErrorGroupStore(telemetry) },
      { maxPending: 1000 },
    );
    const ids = Array.from({ length: GROUPS }, (_, n) => fingerprint(n));
    const firstSet = ids.filter((_, i) => i % 2 === 0);
    const secondSet = ids.filter((_, i) => i % 2 === 1);

    log(`Before: ${firstSet.length} error details`);
    const beforeFigures = await details(deps, firstSet);
    log(`  ${JSON.stringify(beforeFigures)}`);

    log("Forced merges (the age shortened from an hour to 1 s)");
    const occurrenceMerge = await mergeQuietDays(telemetry, "error_occurrences");
    const groupMerge = await mergeQuietDays(telemetry, "error_groups");
    const after = { occurrences: occurrenceMerge.parts, groups: groupMerge.parts };
    const merge = {
      seconds: round(occurrenceMerge.merge.seconds + groupMerge.merge.seconds, 1),
      cpuSeconds: round(occurrenceMerge.merge.cpuSeconds + groupMerge.merge.cpuSeconds, 1),
    };
    log(`  ${JSON.stringify({ ...merge, ...after })}`);

    log(`After: ${secondSet.length} error details`);
    const afterFigures = await details(deps, secondSet);
    log(`  ${JSON.stringify(afterFigures)}`);

    const partsOf = (p: typeof before) => p.occurrences.parts + p.groups.parts;
    const row = (label: string, parts: number, f: typeof beforeFigures) =>
      `${label.padEnd(28)} ${String(parts).padStart(5)} parts   first read p50 ${f.firstRead.p50} ms, p90 ${f.firstRead.p90}, p99 ${f.firstRead.p99}   same again p50 ${f.sameAgain.p50} ms   SELECT 1 p50 ${f.selectOne.p50} ms`;
    const occurrenceCount = DAYS * PARTS_PER_DAY * PER_PART;
    console.log(
      `Error group details over ${DAYS} days (${occurrenceCount.toLocaleString("en")} occurrences, ${GROUPS} groups), wall time:`,
    );
    console.log(row("each day as merges left it", partsOf(before), beforeFigures));
    console.log(row("each quiet day one part", partsOf(after), afterFigures));
    console.log(`  the forced merges: ${merge.seconds} s, ${merge.cpuSeconds} s of process CPU`);
    console.log(
      JSON.stringify({
        bench: "error-detail-days",
        days: DAYS,
        partsPerDay: PARTS_PER_DAY,
        occurrences: occurrenceCount,
        groups: GROUPS,
        details: firstSet.length,
        before: { parts: before, ...beforeFigures },
        after: { parts: after, ...afterFigures },
        forcedMerges: merge,
      }),
    );
  } finally {
    await telemetry.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
