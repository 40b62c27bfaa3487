import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nearestSlot, slotAtOrBefore } from "../src/lib/periodic-scheduler.js";
import { openMetaDatabase } from "../src/meta/database.js";
import { createMetaStore, type MetaStore } from "../src/meta/meta-store.js";
import { type ClusterStores, postgresAvailable, startClusterStores } from "./helpers/cluster.js";
import { hexId, tracesBody } from "./helpers/otlp.js";
import { SKIP_REDIS } from "./helpers/redis.js";
import { runCli, type ServeProcess } from "./helpers/run-cli.js";
import {
  startWebhookReceiver,
  TEST_CA_FILE,
  type WebhookReceiver,
} from "./helpers/webhook-receiver.js";

const MINUTE = 60_000;
const SLOW = 30;
const FLAKY = 6;
const LEASE_SECONDS = 6;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(250);
  }
}

const runnable = postgresAvailable() && !SKIP_REDIS;
// CI installs both (.ci/run): there a missing binary is a failure, not a skip.
if (!runnable && process.env.CI) {
  describe("several nodes", () => {
    it("needs postgresql and redis-server (apt-get install postgresql redis-server)", () => {
      throw new Error("PostgreSQL or redis-server binaries not found");
    });
  });
}

/**
 * Two API nodes and two worker nodes, each `vigil serve --role …` as a process of its own, over
 * PostgreSQL, Redis and the test ClickHouse endpoint, all on loopback. 36 monitors at 1m, checked
 * against a local target that answers slowly (2 s), so checks are always in flight; one worker is
 * killed with SIGKILL while it is in the middle of a check.
 */
describe.skipIf(!runnable)("several nodes", () => {
  let stores: ClusterStores;
  let meta: MetaStore;
  let receiver: WebhookReceiver;
  let target: Server;
  let targetUrl = "";
  let projectId = "";
  let apiKey = "";
  const nodes: Record<"api1" | "api2" | "worker1" | "worker2", ServeProcess> = {} as never;
  /** Monitor ids by name, and whether the flaky target fails now. */
  const monitors = new Map<string, string>();
  let flakyDown = false;
  /** Set once: the next check request of one of these monitors kills worker 1 mid-check. */
  let killOn: Set<string> | undefined;
  let killedAt = 0;
  let killing: Promise<void> | undefined;

  beforeAll(async () => {
    stores = await startClusterStores();
    meta = createMetaStore(openMetaDatabase({ url: stores.postgres.url, dataDir: "/nonexistent" }));
    ({ projectId, apiKey } = await stores.init("owner@example.com", "correct-horse-1"));
    receiver = await startWebhookReceiver();
    target = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://target");
      const name = url.searchParams.get("m") ?? "";
      const id = monitors.get(name);
      if (killOn && id && killOn.has(id) && !killing) {
        killedAt = Date.now();
        killing = nodes.worker1.kill();
      }
      const status = url.pathname === "/flaky" && flakyDown ? 500 : 200;
      setTimeout(
        () => response.writeHead(status, { "content-type": "application/json" }).end('{"ok":true}'),
        2_000,
      );
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const common = {
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
      VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true",
      VIGIL_WEBHOOKS_CA_FILE: TEST_CA_FILE,
      VIGIL_LEASE_SECONDS: String(LEASE_SECONDS),
    };
    const [api1, api2, worker1, worker2] = await Promise.all([
      stores.startNode("api1", "api", common),
      stores.startNode("api2", "api", common),
      stores.startNode("worker1", "worker", common),
      stores.startNode("worker2", "worker", common),
    ]);
    Object.assign(nodes, { api1, api2, worker1, worker2 });
  }, 120_000);

  afterAll(async () => {
    target?.close();
    await receiver?.close();
    await meta?.close();
    await stores?.stop();
  }, 60_000);

  async function signedIn(node: ServeProcess) {
    const login = await fetch(`${node.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: node.url },
      body: JSON.stringify({ email: "owner@example.com", password: "correct-horse-1" }),
    });
    await login.text();
    expect(login.status).toBe(200);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    return async <T>(path: string, body: unknown): Promise<T> => {
      const response = await fetch(`${node.url}${path}`, {
        method: "POST",
        headers: { cookie, origin: node.url, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${text}`);
      return JSON.parse(text) as T;
    };
  }

  it("worker nodes serve health only; API nodes serve the API", async () => {
    const health = await fetch(`${nodes.worker1.url}/readyz`);
    await health.text();
    expect(health.status).toBe(200);
    const api = await fetch(`${nodes.worker1.url}/v1/whoami`, { headers: { "x-api-key": apiKey } });
    await api.text();
    expect(api.status).toBe(404);
    const onApi = await fetch(`${nodes.api2.url}/v1/whoami`, { headers: { "x-api-key": apiKey } });
    await onApi.text();
    expect(onApi.status).toBe(200);
  });

  it("reads on node 2 what node 1 ingested", async () => {
    const traceId = hexId(0xabc123, 32);
    const now = Date.now();
    const body = tracesBody("checkout", [
      {
        traceId,
        spanId: hexId(1, 16),
        name: "GET /pay",
        startMs: now - 50,
        durationMs: 40,
        kind: 2,
      },
    ]);
    const sent = await fetch(`${nodes.api1.url}/v1/traces`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    await sent.text();
    expect(sent.status).toBe(200);
    const found = await until(
      "the trace on node 2",
      async () => {
        const response = await fetch(`${nodes.api2.url}/v1/traces/${traceId}`, {
          headers: { "x-api-key": apiKey },
        });
        const text = await response.text();
        return response.status === 200 ? (JSON.parse(text) as { data: unknown }) : undefined;
      },
      15_000,
    );
    expect(JSON.stringify(found)).toContain("GET /pay");
  }, 30_000);

  it("holds the 100 a minute key limit across both API nodes", async () => {
    const created = await runCli(
      ["keys", "create", "--project", projectId, "--role", "read_only", "--json"],
      stores.env("cli"),
    );
    expect(created.code, created.stderr).toBe(0);
    const key = (JSON.parse(created.stdout) as { key: string }).key;
    const remaining: number[] = [];
    for (let i = 0; i < 100; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
          const node = (i + j) % 2 === 0 ? nodes.api1 : nodes.api2;
          const response = await fetch(`${node.url}/v1/whoami`, { headers: { "x-api-key": key } });
          await response.text();
          return response;
        }),
      );
      for (const response of batch) {
        expect(response.status).toBe(200);
        remaining.push(Number(response.headers.get("ratelimit-remaining")));
      }
    }
    expect(Math.min(...remaining)).toBe(0);
    for (const node of [nodes.api1, nodes.api2]) {
      const over = await fetch(`${node.url}/v1/whoami`, { headers: { "x-api-key": key } });
      await over.text();
      expect(over.status).toBe(429);
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  }, 60_000);

  it("checks every monitor slot exactly once, through a worker's kill -9 mid-check, with one alert per outage", async () => {
    const post = await signedIn(nodes.api1);
    await post(`/webhooks/${projectId}/endpoints`, {
      url: `${receiver.url}/hooks`,
      events: ["monitor.down"],
    });
    const channel = await post<{ id: string }>(`/api/projects/${projectId}/channels`, {
      name: "hooks",
      type: "webhook",
    });
    const make = async (name: string, path: string) => {
      const created = await post<{ id: string }>(`/api/projects/${projectId}/monitors`, {
        name,
        type: "api",
        frequency: "1m",
        timeoutSeconds: 10,
        alertAfter: 1,
        channelIds: [channel.id],
        steps: [{ name: "get", method: "GET", url: `${targetUrl}${path}?m=${name}` }],
      });
      monitors.set(name, created.id);
    };
    for (let i = 0; i < SLOW; i++) await make(`slow-${i}`, "/slow");
    for (let i = 0; i < FLAKY; i++) await make(`flaky-${i}`, "/flaky");
    const ids = [...monitors.values()];

    // The two workers split the monitors (created on an API node, picked up by the workers).
    const workerOf = (node: ServeProcess) => `${hostname()}:${node.pid}:`;
    const split = await until(
      "the workers to share the monitors",
      async () => {
        const leases = (await meta.repos.workLeases.list("monitor")).filter((l) =>
          ids.includes(l.entityId),
        );
        const one = leases.filter((l) => l.owner?.startsWith(workerOf(nodes.worker1))).length;
        const two = leases.filter((l) => l.owner?.startsWith(workerOf(nodes.worker2))).length;
        return one + two === ids.length && Math.abs(one - two) <= 1 ? [one, two] : undefined;
      },
      60_000,
    );
    expect(split).toEqual([18, 18]);

    // Half a period on: the flaky target starts failing, and worker 1 dies in its next check.
    await sleep(30_000);
    const held = (await meta.repos.workLeases.list("monitor"))
      .filter((l) => l.owner?.startsWith(workerOf(nodes.worker1)))
      .map((l) => l.entityId);
    flakyDown = true;
    killOn = new Set(
      held.filter((id) =>
        [...monitors].some(([name, mid]) => mid === id && name.startsWith("slow")),
      ),
    );
    await until(
      "worker 1 to be killed mid-check",
      async () => (killing ? true : undefined),
      70_000,
    );
    await killing;

    // Its share moves to worker 2 within one lease (plus a renewal round).
    await until(
      "worker 2 to hold every monitor",
      async () => {
        const leases = (await meta.repos.workLeases.list("monitor")).filter((l) =>
          ids.includes(l.entityId),
        );
        return leases.every((l) => l.owner?.startsWith(workerOf(nodes.worker2))) ? true : undefined;
      },
      (LEASE_SECONDS + 10) * 1000,
    );
    const movedAfterMs = Date.now() - killedAt;
    expect(movedAfterMs).toBeLessThan((LEASE_SECONDS + LEASE_SECONDS / 3 + 3) * 1000);

    // Two more periods, then the record: every slot once, none lost.
    await sleep(2 * MINUTE + 10_000);
    const end = Date.now();
    const sql = new pg.Client({ connectionString: stores.postgres.url });
    await sql.connect();
    const { rows: results } = await sql.query<{ monitor_id: string; started_at: string }>(
      "select monitor_id, started_at from monitor_results where trigger = 'scheduled'",
    );

    const { rows: outages } = await sql.query<{ source_id: string; n: string }>(
      "select source_id, count(*) as n from incidents where source = 'monitor' group by source_id",
    );
    await sql.end();
    for (const id of ids) {
      const started = results
        .filter((r) => r.monitor_id === id)
        .map((r) => new Date(r.started_at).toISOString())
        .sort();
      // The first run comes at once, when the monitor is created: it stands for the slot nearest
      // the moment it was scheduled, which its start a few ms later need not be (at half a period
      // they differ). Only its distance to the next run is checked; every later run is on a slot.
      const [atOnce, ...onSlots] = started.map((at) => Date.parse(at));
      expect((onSlots[0] ?? 0) - (atOnce ?? 0), `${id}: ${started}`).toBeGreaterThan(
        MINUTE / 2 - 1000,
      );
      const slots = onSlots.map((at) => nearestSlot(id, MINUTE, at));
      expect(slots.length, `${id}: a slot checked twice: ${started}`).toBe(new Set(slots).size);
      const first = slots[0] ?? 0;
      const last = slotAtOrBefore(id, MINUTE, end - 20_000);
      const expected = (last - first) / MINUTE + 1;
      expect(
        slots.filter((s) => s <= last),
        `${id}: slots ${slots.map((s) => new Date(s).toISOString())}`,
      ).toHaveLength(expected);
    }

    // One outage incident per flaky monitor, and one monitor.down message for each.
    const downs = receiver.requests.filter((r) => r.headers["x-service-event"] === "monitor.down");
    for (const [name, id] of monitors) {
      if (!name.startsWith("flaky")) continue;
      expect(outages.find((o) => o.source_id === id)?.n, name).toBe("1");
      const messages = new Set(
        downs
          .filter(
            (r) => (JSON.parse(r.body) as { data: { monitorId: string } }).data.monitorId === id,
          )
          .map((r) => r.headers["webhook-id"]),
      );
      expect(messages.size, name).toBe(1);
    }
  }, 360_000);
});
