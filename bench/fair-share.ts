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
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { gzipSync } from "node:zlib";
import { Agent, fetch as undiciFetch } from "undici";
import { type Latencies, latencies, type OpenLoopResult, openLoop, round } from "./harness/http-load.js";
import { benchEnv, initDataDir, startServer, vigilJson } from "./harness/serve-process.js";
import { printTable } from "./harness/table.js";

const ONLY = new Set(
  (process.env.BENCH_FAIR_ONLY ?? "alerts,logins,tql,connections").split(",").map((s) => s.trim()),
);
const SCALE = Number(process.env.BENCH_FAIR_SCALE ?? 1);
const RULES = Number(process.env.BENCH_FAIR_RULES ?? 1000);
const SPRAYERS = 128;
const CONNECTIONS = Number(process.env.BENCH_FAIR_CONNECTIONS ?? 10_000);
const ADDRESSES = 40;
/** A self-join that never finishes by itself on 3,000 rows: it runs until its time limit. */
const HEAVY =
  "SELECT count() AS value FROM traces a, traces b, traces c WHERE a.duration_ms + b.duration_ms > c.duration_ms";
const TARGETS = {
  alertGapP99Seconds: 40,
  ingestP50Ratio: 3,
  selectOneP99Ms: 2000,
  healthAnsweredShare: 0.99,
};

const log = (text: string) => process.stderr.write(`${text}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const phase = (baseSeconds: number) => Math.max(5, Math.round(baseSeconds * SCALE));

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

/** OTLP/JSON traces of one service: `count` spans lasting 0..count-1 ms, a minute old. */
function spansBody(service: string, count: number, offset = 0): string {
  const start = (Date.now() - 60_000) * 1e6;
  const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
  const spans = Array.from({ length: count }, (_, i) => ({
    traceId: hex(offset + i + 1, 32),
    spanId: hex(offset + i + 1, 16),
    name: "op",
    kind: 2,
    startTimeUnixNano: String(start + i * 1e6),
    endTimeUnixNano: String(start + i * 1e6 + i * 1e6),
  }));
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: service } }] },
        scopeSpans: [{ spans }],
      },
    ],
  });
}

async function send(
  url: string,
  path: string,
  init: { key?: string; body?: string | Uint8Array; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${url}${path}`, {
    method: init.body === undefined ? "GET" : "POST",
    headers: {
      ...(init.key ? { "x-api-key": init.key } : {}),
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const text = await response.text();
  return { status: response.status, text };
}

/** Rows for the heavy queries: 3,000 spans of the key's project. */
async function seedSpans(url: string, key: string) {
  for (let i = 0; i < 3; i++) {
    const { status } = await send(url, "/v1/traces", {
      key,
      body: spansBody("busy", 1000, i * 1000),
    });
    if (status !== 200) throw new Error(`seeding spans answered ${status}`);
  }
  await sleep(1500); // the ingest queue's write
}

/** A fresh data dir with a first organization, project and key (bench@example.com owns it). */
function newDataDir(env: NodeJS.ProcessEnv) {
  const dir = mkdtempSync(join(tmpdir(), "vigil-fair-"));
  return {
    dir,
    ...initDataDir(dir, env),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Another project of an organization, with a full-access key. */
function addProject(dir: string, env: NodeJS.ProcessEnv, orgId: string, name: string) {
  const at = ["--json", "--data-dir", dir];
  const { projectId = "" } = vigilJson(
    ["projects", "create", ...at, "--org", orgId, "--name", name],
    env,
  );
  const { key = "" } = vigilJson(
    ["keys", "create", ...at, "--project", projectId, "--role", "full"],
    env,
  );
  return { projectId, key };
}

/** A new organization, owned by a new user. */
function addOrganization(dir: string, env: NodeJS.ProcessEnv, name: string): string {
  const { orgId = "" } = vigilJson(
    [
      "users",
      "create",
      "--json",
      "--data-dir",
      dir,
      "--email",
      `${name}@example.com`,
      "--password",
      "bench password 2",
      "--new-org",
      name,
    ],
    env,
  );
  return orgId;
}

/** Signs in as the first owner; returns a POST over the session. */
async function session(url: string) {
  const response = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ email: "bench@example.com", password: "bench password 1" }),
  });
  if (response.status !== 200) throw new Error(`sign-in answered ${response.status}`);
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  return async (path: string, body: unknown) => {
    const answer = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { cookie, origin: url, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: answer.status, text: await answer.text() };
  };
}

interface Gaps {
  evaluations: number;
  p50: number;
  p99: number;
  max: number;
}

/** The gaps between a rule's evaluations (s), its last evaluation read every 500 ms for `ms`. */
async function evaluationGaps(url: string, key: string, ruleId: string, ms: number): Promise<Gaps> {
  const until = Date.now() + ms;
  const times: number[] = [];
  while (Date.now() < until) {
    const { status, text } = await send(url, `/v1/alerts/${ruleId}`, { key });
    if (status === 200) {
      const at = (JSON.parse(text) as { lastEvaluation: { at: string } | null }).lastEvaluation?.at;
      const t = at ? Date.parse(at) : undefined;
      if (t !== undefined && t !== times.at(-1)) times.push(t);
    }
    await sleep(500);
  }
  const gaps = times.slice(1).map((t, i) => (t - (times[i] as number)) / 1000);
  // A rule not evaluated since its last: the time past its interval counts as a gap too.
  const since = (until - (times.at(-1) ?? until - ms)) / 1000;
  if (since > 30) gaps.push(since);
  return {
    evaluations: times.length,
    p50: round(percentile(gaps, 50), 1),
    p99: round(percentile(gaps, 99), 1),
    max: round(Math.max(0, ...gaps), 1),
  };
}

/** Creates `count` heavy rules in the project; stops at the first refusal and says where. */
async function createHeavyRules(
  post: Awaited<ReturnType<typeof session>>,
  projectId: string,
  count: number,
) {
  for (let i = 0; i < count; i++) {
    const answer = await post(`/api/projects/${projectId}/alert-rules`, {
      name: `heavy ${i}`,
      query: HEAVY,
      condition: { op: ">", threshold: 0 },
      interval: "30s",
    });
    if (answer.status !== 201)
      return {
        created: i,
        refused: answer.status,
        detail: (JSON.parse(answer.text || "{}") as { detail?: string }).detail ?? answer.text,
      };
  }
  return { created: count, refused: 0, detail: "" };
}

async function alertsAttack() {
  log(`alerts: ${RULES} heavy rules in project A beside project B's rule`);
  // The default cap, on a throwaway data dir where nothing is evaluated: the 501st is refused.
  const capEnv = benchEnv({ VIGIL_ALERTS_ENABLED: "false" });
  const capData = newDataDir(capEnv);
  const capServer = await startServer(capData.dir, capEnv);
  let cap: Awaited<ReturnType<typeof createHeavyRules>>;
  try {
    cap = await createHeavyRules(await session(capServer.url), capData.projectId, RULES);
    log(`  default cap: ${cap.created} created, then ${cap.refused}: ${cap.detail}`);
  } finally {
    await capServer.stop();
    capData.remove();
  }

  const env = benchEnv({ VIGIL_ALERTS_MAX_RULES_PER_PROJECT: String(RULES) });
  const data = newDataDir(env);
  const b = addProject(data.dir, env, data.orgId, "B");
  const server = await startServer(data.dir, env);
  try {
    const post = await session(server.url);
    await seedSpans(server.url, data.apiKey);
    const victim = await post(`/api/projects/${b.projectId}/alert-rules`, {
      name: "B's spans",
      query: "SELECT count() AS value FROM traces",
      condition: { op: ">", threshold: 1_000_000 },
      interval: "30s",
    });
    if (victim.status !== 201) throw new Error(`B's rule: ${victim.status} ${victim.text}`);
    const ruleId = (JSON.parse(victim.text) as { id: string }).id;
    const control = await evaluationGaps(server.url, b.key, ruleId, phase(95) * 1000);
    log(`  control: B's rule alone: ${JSON.stringify(control)}`);
    const started = performance.now();
    const made = await createHeavyRules(post, data.projectId, RULES);
    if (made.refused) throw new Error(`A's rule ${made.created}: ${made.refused} ${made.detail}`);
    const createSeconds = round((performance.now() - started) / 1000, 1);
    const attack = await evaluationGaps(server.url, b.key, ruleId, phase(185) * 1000);
    log(`  attack: ${RULES} rules created in ${createSeconds} s, then ${JSON.stringify(attack)}`);
    return { rules: RULES, cap, createSeconds, control, attack };
  } finally {
    await server.stop();
    data.remove();
  }
}

/** The answered share and latencies of an open loop, for the report. */
const summary = (result: OpenLoopResult) => ({
  requests: result.requests,
  errors: result.errors,
  p50: result.answered.p50,
  p99: result.answered.p99,
  max: result.answered.max,
});

/**
 * `clients` loops signing in with a new email each time and a wrong password until told to
 * stop; posts the answers counted by status (0: the connection failed).
 */
const SPRAYER = `
const { parentPort, workerData } = require("node:worker_threads");
const { url, clients } = workerData;
let stop = false;
let attempt = 0;
const statuses = {};
parentPort.once("message", () => { stop = true; });
Promise.all(Array.from({ length: clients }, async () => {
  while (!stop) {
    let status = 0;
    try {
      const response = await fetch(url + "/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json", origin: url },
        body: JSON.stringify({ email: "spray-" + attempt++ + "@example.com", password: "guess 1234" }),
      });
      await response.arrayBuffer();
      status = response.status;
    } catch {}
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
})).then(() => parentPort.postMessage(statuses));
`;

async function loginsAttack() {
  log(`logins: ${SPRAYERS} sign-in sprayers beside another tenant's gzip ingest`);
  const env = benchEnv();
  const data = newDataDir(env);
  const server = await startServer(data.dir, env);
  // The victim is another tenant: another client address than the sprayers' 127.0.0.1.
  const victim = new Agent({ connect: { localAddress: "127.0.0.2" } });
  try {
    const body = gzipSync(spansBody("victim", 200));
    const ingest = () =>
      openLoop(4, phase(20), async () => {
        const response = await undiciFetch(`${server.url}/v1/traces`, {
          method: "POST",
          headers: {
            "x-api-key": data.apiKey,
            "content-type": "application/json",
            "content-encoding": "gzip",
          },
          body,
          dispatcher: victim,
        });
        await response.arrayBuffer();
        return response.status === 200;
      });
    const control = summary(await ingest());
    log(`  control: ${JSON.stringify(control)}`);
    // The sprayers run on a thread of their own, so their loop never delays the victim's clock.
    const sprayers = new Worker(SPRAYER, {
      eval: true,
      workerData: { url: server.url, clients: SPRAYERS },
    });
    const sprayed = new Promise<Record<string, number>>((resolve) =>
      sprayers.once("message", resolve),
    );
    await sleep(1000);
    const attack = summary(await ingest());
    sprayers.postMessage("stop");
    const sprays = await sprayed;
    await sprayers.terminate();
    log(`  attack: ${JSON.stringify(attack)}; sign-in answers by status ${JSON.stringify(sprays)}`);
    return { control, attack, p50Ratio: round(attack.p50 / control.p50, 2), sprays };
  } finally {
    await victim.close();
    await server.stop();
    data.remove();
  }
}

async function tqlAttack() {
  log("tql: five projects of one organization flood TQL beside another organization's SELECT 1");
  const env = benchEnv();
  const data = newDataDir(env);
  const flooders = [
    data.apiKey,
    ...[2, 3, 4, 5].map((n) => addProject(data.dir, env, data.orgId, `X${n}`).key),
  ];
  const other = addProject(data.dir, env, addOrganization(data.dir, env, "victim"), "Y");
  const server = await startServer(data.dir, env);
  try {
    for (const key of flooders) await seedSpans(server.url, key);
    const tql = (key: string, query: string) =>
      send(server.url, "/v1/tql", { key, body: JSON.stringify({ query }) });
    const probe = () =>
      openLoop(2, phase(20), async () => (await tql(other.key, "SELECT 1 AS one")).status === 200);
    const control = summary(await probe());
    log(`  control: ${JSON.stringify(control)}`);
    let stop = false;
    const statuses = new Map<number, number>();
    const flood = flooders.flatMap((key) =>
      [0, 1].map(async () => {
        while (!stop) {
          const { status } = await tql(key, HEAVY).catch(() => ({ status: 0 }));
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          // A refused client comes back after a second, as Retry-After says.
          if (status === 429 || status === 503) await sleep(1000);
        }
      }),
    );
    await sleep(2000);
    const attack = summary(await probe());
    stop = true;
    await Promise.all(flood);
    const floodAnswers = Object.fromEntries([...statuses].sort(([a], [b]) => a - b));
    log(
      `  attack: ${JSON.stringify(attack)}; flood answers by status ${JSON.stringify(floodAnswers)}`,
    );
    return { control, attack, floodAnswers };
  } finally {
    await server.stop();
    data.remove();
  }
}

/** A free TCP port on loopback, for the admin port. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** GET /healthz on a new connection; true when it answers 200 within 5 s. */
function healthz(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(
      { host: "127.0.0.1", port, path: "/healthz", agent: false, timeout: 5000 },
      (res) => {
        res.resume();
        res.once("end", () => resolve(res.statusCode === 200));
      },
    );
    req.once("timeout", () => req.destroy());
    req.once("error", () => resolve(false));
    req.end();
  });
}

interface HealthShare {
  probes: number;
  answered: number;
  share: number;
  latency: Latencies;
}

/** /healthz 10 times a second for `seconds` on each port: the share answered and how fast. */
async function probeHealth(
  ports: { main: number; admin: number },
  seconds: number,
): Promise<{ main: HealthShare; admin: HealthShare }> {
  const [main, admin] = await Promise.all(
    [ports.main, ports.admin].map(async (port) => {
      const times: number[] = [];
      let answered = 0;
      await openLoop(10, seconds, async () => {
        const started = performance.now();
        const ok = await healthz(port);
        if (ok) {
          answered++;
          times.push(performance.now() - started);
        }
        return ok;
      });
      const probes = Math.round(10 * seconds);
      return {
        probes,
        answered,
        share: round(answered / probes, 4),
        latency: latencies(Float64Array.from(times)),
      };
    }),
  );
  return { main: main as HealthShare, admin: admin as HealthShare };
}

/**
 * Holds `count` connections from `addresses` loopback addresses, each sending a request's
 * headers with a body it never finishes (one byte a second). A connection the server closes
 * comes back a second later, as an attacker's would. Resolves a stop function and the counts.
 */
function holdConnections(port: number, key: string, count: number, addresses: number) {
  let stopped = false;
  const open = new Set<Socket>();
  let opened = 0;
  let closedByServer = 0;
  const head =
    `POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${key}\r\n` +
    "content-type: application/json\r\ncontent-length: 1000000\r\n\r\n{";
  const one = (n: number) => {
    if (stopped) return;
    const socket = connect({
      host: "127.0.0.1",
      port,
      localAddress: `127.0.0.${2 + (n % addresses)}`,
    });
    opened++;
    open.add(socket);
    let drip: NodeJS.Timeout | undefined;
    socket.once("connect", () => {
      socket.write(head);
      drip = setInterval(() => socket.write(" "), 1000);
    });
    socket.on("error", () => {});
    socket.on("data", () => {});
    socket.once("close", () => {
      clearInterval(drip);
      open.delete(socket);
      if (stopped) return;
      closedByServer++;
      setTimeout(() => one(n), 1000).unref();
    });
  };
  // 2,000 a second: the attack builds up in a few seconds, not in one burst of SYNs.
  let next = 0;
  const opener = setInterval(() => {
    for (let i = 0; i < 200 && next < count; i++) one(next++);
    if (next >= count) clearInterval(opener);
  }, 100);
  return {
    stats: () => ({ open: open.size, opened, closedByServer }),
    stop: () => {
      stopped = true;
      clearInterval(opener);
      for (const socket of open) socket.destroy();
    },
  };
}

async function connectionsAttack() {
  log(`connections: ${CONNECTIONS} held connections from ${ADDRESSES} addresses beside /healthz`);
  const adminPort = await freePort();
  const env = benchEnv({ VIGIL_ADMIN_PORT: String(adminPort) });
  const data = newDataDir(env);
  const server = await startServer(data.dir, env);
  try {
    const port = Number(new URL(server.url).port);
    const ports = { main: port, admin: adminPort };
    const control = await probeHealth(ports, phase(15));
    log(`  control: ${JSON.stringify(control)}`);
    const attacker = holdConnections(port, data.apiKey, CONNECTIONS, ADDRESSES);
    await sleep(8000);
    const building = attacker.stats();
    const attack = await probeHealth(ports, phase(40));
    const held = attacker.stats();
    attacker.stop();
    log(
      `  attack (${JSON.stringify(building)} after 8 s, ${JSON.stringify(held)} at the end): ${JSON.stringify(attack)}`,
    );
    return {
      connections: CONNECTIONS,
      addresses: ADDRESSES,
      attacker: held,
      control,
      attack,
    };
  } finally {
    await server.stop();
    data.remove();
  }
}

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
console.log(JSON.stringify({ bench: "fair-share", targets: TARGETS, ...results }));
