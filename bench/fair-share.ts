/**
 * npm run bench:fair-share — no tenant, and no stranger, can starve the others (issue 31).
 *
 * Each attack runs at the size the issue measured against `vigil serve` in its own process on a
 * fresh data dir, with a victim measured alone first (control) and then beside the attack, in
 * the same run:
 *
 * 1. alerts: project A holds BENCH_FAIR_RULES (1,000) rules whose query is a heavy self-join
 *    (interval 30 s); project B's 30 s rule's evaluation gaps, read from its last evaluation
 *    every 500 ms. Target: p99 gap < 40 s. The default cap (500 rules a project) is first shown
 *    refusing the 501st; the server measured is started with the cap at the bench's size.
 * 2. logins: 128 clients spraying failed sign-ins with a new email each time, from one address;
 *    another tenant's gzip OTLP export (200 spans) 4 times a second. Target: p50 < 3× control.
 * 3. tql: five projects of one organization, each with two clients sending a heavy self-join in
 *    a loop; another organization's `SELECT 1` twice a second. Target: p99 < 2 s.
 * 4. connections: BENCH_FAIR_CONNECTIONS (10,000) connections from 40 loopback addresses that
 *    send their headers and hold their body (reopened a second after the server closes one);
 *    `/healthz` on a new connection 10 times a second on the main port and on the admin port
 *    (VIGIL_ADMIN_PORT). Target: ≥ 99 % answered on the admin port.
 *
 * BENCH_FAIR_ONLY=alerts,logins,tql,connections picks attacks; BENCH_FAIR_SCALE multiplies the
 * phases' lengths (default 1). The last line is one JSON object with every figure.
 * The parts: bench/fair-share/ (setup, and one file per attack).
 */
import { alertsAttack } from "./fair-share/alerts-attack.js";
import { connectionsAttack, type HealthShare } from "./fair-share/connections-attack.js";
import { loginsAttack } from "./fair-share/logins-attack.js";
import { ONLY, SPRAYERS, TARGETS } from "./fair-share/setup.js";
import { tqlAttack } from "./fair-share/tql-attack.js";
import { printResult } from "./harness/run.js";
import { round } from "./harness/stats.js";
import { printTable } from "./harness/table.js";

const results: Record<string, unknown> = {};
const rows: string[][] = [];
const ms = (n: number) => `${round(n, 1)} ms`;
if (ONLY.has("alerts")) {
  const r = await alertsAttack();
  results.alerts = r;
  rows.push([
    `alerts: ${r.rules} heavy rules in A → B's 30 s rule, evaluation gap p50 / p99`,
    `${r.control.p50} / ${r.control.p99} s (${r.control.evaluations} evaluations)`,
    `${r.attack.p50} / ${r.attack.p99} s (${r.attack.evaluations} evaluations)`,
    `p99 < ${TARGETS.alertGapP99Seconds} s: ${r.attack.p99 < TARGETS.alertGapP99Seconds ? "met" : "NOT met"}`,
  ]);
}
if (ONLY.has("logins")) {
  const r = await loginsAttack();
  results.logins = r;
  rows.push([
    `logins: ${SPRAYERS} sprayers → another tenant's gzip ingest p50 / p99`,
    `${ms(r.control.p50)} / ${ms(r.control.p99)}`,
    `${ms(r.attack.p50)} / ${ms(r.attack.p99)} (${r.attack.errors} errors)`,
    `p50 < ${TARGETS.ingestP50Ratio}× control, all answered: ${r.p50Ratio}× ${r.p50Ratio < TARGETS.ingestP50Ratio && r.attack.errors === 0 ? "met" : "NOT met"}`,
  ]);
}
if (ONLY.has("tql")) {
  const r = await tqlAttack();
  results.tql = r;
  rows.push([
    "tql: 5 projects of one org flooding → another org's SELECT 1 p50 / p99",
    `${ms(r.control.p50)} / ${ms(r.control.p99)}`,
    `${ms(r.attack.p50)} / ${ms(r.attack.p99)} (${r.attack.errors} not 200)`,
    `p99 < ${TARGETS.selectOneP99Ms} ms: ${r.attack.p99 < TARGETS.selectOneP99Ms && r.attack.errors === 0 ? "met" : "NOT met"}`,
  ]);
}
if (ONLY.has("connections")) {
  const r = await connectionsAttack();
  results.connections = r;
  const pct = (h: HealthShare) => `${round(h.share * 100, 1)} % (p99 ${ms(h.latency.p99)})`;
  rows.push([
    `connections: ${r.connections} held from ${r.addresses} addresses → /healthz answered, main port`,
    pct(r.control.main),
    pct(r.attack.main),
    "",
  ]);
  rows.push([
    "… on the admin port",
    pct(r.control.admin),
    pct(r.attack.admin),
    `≥ ${TARGETS.healthAnsweredShare * 100} %: ${r.attack.admin.share >= TARGETS.healthAnsweredShare ? "met" : "NOT met"}`,
  ]);
}
printTable(["victim", "control", "under attack", "target"], rows);
printResult({ bench: "fair-share", targets: TARGETS, ...results });
