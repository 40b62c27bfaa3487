import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OpenLoopResult } from "../harness/http-load.js";
import { sleep } from "../harness/run.js";
import { initDataDir, vigilJson } from "../harness/serve-process.js";

// The attacks' settings and targets, and what every attack sets up: data dirs, organizations,
// projects, keys, spans and a signed-in session.

export const ONLY = new Set(
  (process.env.BENCH_FAIR_ONLY ?? "alerts,logins,tql,connections").split(",").map((s) => s.trim()),
);
export const SCALE = Number(process.env.BENCH_FAIR_SCALE ?? 1);
export const RULES = Number(process.env.BENCH_FAIR_RULES ?? 1000);
export const SPRAYERS = 128;
export const CONNECTIONS = Number(process.env.BENCH_FAIR_CONNECTIONS ?? 10_000);
export const ADDRESSES = 40;
/** A self-join that never finishes by itself on 3,000 rows: it runs until its time limit. */
export const HEAVY =
  "SELECT count() AS value FROM traces a, traces b, traces c WHERE a.duration_ms + b.duration_ms > c.duration_ms";
export const TARGETS = {
  alertGapP99Seconds: 40,
  ingestP50Ratio: 3,
  selectOneP99Ms: 2000,
  healthAnsweredShare: 0.99,
};

export const phase = (baseSeconds: number) => Math.max(5, Math.round(baseSeconds * SCALE));

/** OTLP/JSON traces of one service: `count` spans lasting 0..count-1 ms, a minute old. */
export function spansBody(service: string, count: number, offset = 0): string {
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

export async function send(
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
export async function seedSpans(url: string, key: string) {
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
export function newDataDir(env: NodeJS.ProcessEnv) {
  const dir = mkdtempSync(join(tmpdir(), "vigil-fair-"));
  return {
    dir,
    ...initDataDir(dir, env),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Another project of an organization, with a full-access key. */
export function addProject(dir: string, env: NodeJS.ProcessEnv, orgId: string, name: string) {
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
export function addOrganization(dir: string, env: NodeJS.ProcessEnv, name: string): string {
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
export async function session(url: string) {
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

/** The answered share and latencies of an open loop, for the report. */
export const summary = (result: OpenLoopResult) => ({
  requests: result.requests,
  errors: result.errors,
  p50: result.answered.p50,
  p99: result.answered.p99,
  max: result.answered.max,
});
