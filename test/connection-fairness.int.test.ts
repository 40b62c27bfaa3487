import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshGet, openRaw, type RawClient, trickle, until } from "./helpers/raw-http.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const MAX = 40;
const PER_ADDRESS = 6;
const METRICS_TOKEN = "admin-port-metrics-token-0123";
const GET_HEALTH = "GET /healthz HTTP/1.1\r\nHost: vigil.test\r\n\r\n";
// The measured attack: OTLP exports whose bodies never finish arriving.
const SLOW_EXPORT =
  "POST /v1/traces HTTP/1.1\r\nHost: vigil.test\r\nContent-Type: application/x-protobuf\r\n" +
  "Content-Length: 100000\r\n\r\n";

/** `count` slow exports from each of `addresses`, one connection after another. */
async function flood(port: number, addresses: string[], count: number): Promise<RawClient[]> {
  const clients: RawClient[] = [];
  for (const address of addresses)
    for (let i = 0; i < count; i++) {
      const client = await openRaw(port, address);
      client.socket.write(SLOW_EXPORT);
      trickle(client, () => "x", 500);
      clients.push(client);
    }
  return clients;
}

const loopback = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `127.0.0.${from + i}`);

describe("connections while strangers hold them", () => {
  const dir = makeTempDir();
  let service: TestService;
  let port: number;
  let adminUrl: string;
  let established: RawClient;
  const attackers: RawClient[] = [];

  const openConnections = () =>
    new Promise<number>((resolve, reject) =>
      service.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
  const metric = async (name: string) => {
    const text = await service.deps.metrics.registry.metrics();
    return Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1] ?? Number.NaN);
  };
  /** Sends GET /healthz on a held connection and resolves with the response's status line. */
  const getOn = async (client: RawClient) => {
    const before = client.received().length;
    client.socket.write(GET_HEALTH);
    await until(() => client.received().slice(before).includes('{"status":"ok"}'));
    return client.received().slice(before).split("\r\n")[0];
  };

  beforeAll(async () => {
    service = await startTestService(dir.path, {
      // Long enough that nothing the attackers hold times out during a test.
      VIGIL_HTTP_REQUEST_TIMEOUT_SECONDS: "30",
      VIGIL_HTTP_HEADERS_TIMEOUT_SECONDS: "20",
      VIGIL_HTTP_BODY_TIMEOUT_SECONDS: "20",
      VIGIL_HTTP_MAX_CONNECTIONS: String(MAX),
      VIGIL_HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
      VIGIL_ADMIN_PORT: "0",
      VIGIL_METRICS_TOKEN: METRICS_TOKEN,
    });
    port = Number(new URL(service.url).port);
    adminUrl = service.adminUrl ?? "";
    // A client served before the flood, keeping its connection (an SDK between exports).
    established = await openRaw(port);
    expect(await getOn(established)).toBe("HTTP/1.1 200 OK");
  });
  afterAll(async () => {
    for (const client of [...attackers, established]) client?.socket.destroy();
    await service?.stop();
    dir.remove();
  });

  it("holds each address to its cap, which leaves room below the global one", async () => {
    const addresses = loopback(2, 6);
    attackers.push(...(await flood(port, addresses, PER_ADDRESS + 4)));
    // The connections over each address's cap are closed at once.
    await until(() => attackers.filter((c) => c.isClosed()).length === 6 * 4);
    await until(async () => (await openConnections()) === 6 * PER_ADDRESS + 1);
    expect(attackers.filter((c) => !c.isClosed())).toHaveLength(6 * PER_ADDRESS);
    expect(await openConnections()).toBe(6 * PER_ADDRESS + 1);
    expect(await metric("vigil_http_connections_refused_total")).toBe(6 * 4);

    // 36 of 40 held: a new client gets in without anyone being shed.
    expect(await freshGet(`${service.url}/healthz`)).toBe(200);
    expect(await metric("vigil_http_connections_shed_total")).toBe(0);
    expect(await getOn(established)).toBe("HTTP/1.1 200 OK");
  }, 20_000);

  it("at the global cap, closes the stranger waiting longest: new clients get in, served ones stay", async () => {
    // Ten more addresses, each within its cap: together far more than the global cap.
    attackers.push(...(await flood(port, loopback(10, 10), PER_ADDRESS)));
    await until(async () => (await openConnections()) < MAX);
    const open = await openConnections();
    expect(open).toBeGreaterThanOrEqual(MAX - 3);
    expect(open).toBeLessThan(MAX);
    const shed = await metric("vigil_http_connections_shed_total");
    expect(shed).toBeGreaterThanOrEqual(36 + 60 + 1 - MAX);

    // The oldest strangers went first (all of the first flood); the latest are still held.
    const first = attackers.slice(0, 6 * (PER_ADDRESS + 4));
    const latest = attackers.slice(-20);
    expect(first.every((c) => c.isClosed())).toBe(true);
    expect(latest.every((c) => !c.isClosed())).toBe(true);

    // The client served before keeps its connection; a new one and probes get in.
    expect(established.isClosed()).toBe(false);
    expect(await getOn(established)).toBe("HTTP/1.1 200 OK");
    for (let i = 0; i < 5; i++) expect(await freshGet(`${service.url}/healthz`)).toBe(200);
    expect(await freshGet(`${service.url}/readyz`)).toBe(200);
    // Each new client took a stranger's place, not a served client's.
    expect(established.isClosed()).toBe(false);
  }, 30_000);

  it("answers /healthz, /readyz and /metrics on the admin port, whatever holds the main one", async () => {
    expect(adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(adminUrl).not.toBe(service.url);
    expect(await freshGet(`${adminUrl}/healthz`)).toBe(200);
    expect(await freshGet(`${adminUrl}/readyz`)).toBe(200);
    // The token, when set, holds on the admin port too.
    expect((await fetch(`${adminUrl}/metrics`)).status).toBe(401);
    const metrics = await fetch(`${adminUrl}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await metrics.text()).toMatch(/^vigil_http_connections_shed_total \d+$/m);
    // Only those: the API, the docs and the dashboard stay on the main port.
    for (const path of ["/docs", "/api/auth/me", "/"]) {
      const response = await fetch(`${adminUrl}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    }
  }, 20_000);

  it("serves /metrics on the admin port only; the main port keeps its probes", async () => {
    for (const client of attackers) client.socket.destroy();
    await until(async () => (await openConnections()) <= 1);
    const main = await fetch(`${service.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(main.status).toBe(404);
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    expect(service.logs.join("")).not.toContain("/metrics is open to anyone");
  });

  it("closes the admin port on stop", async () => {
    established.socket.destroy();
    await service.stop();
    expect(await freshGet(`${adminUrl}/healthz`)).toBe("ECONNREFUSED");
  });
});

describe("metrics on the main port without a token or admin port", () => {
  const dir = makeTempDir();
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService(dir.path);
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("stay open, as before, and the start says so", async () => {
    expect(service.adminUrl).toBeUndefined();
    const metrics = await service.fetch("/metrics");
    expect(metrics.status).toBe(200);
    // Read, as a client does: a compressed answer left unread holds its connection, and the
    // service's stop waits for it (undici keeps the socket paused until the body is consumed).
    await metrics.text();
    const warning = service.logs.find((line) => line.includes("/metrics is open to anyone"));
    expect(warning).toBeDefined();
    expect(JSON.parse(warning ?? "{}")).toMatchObject({ level: 40 });
  });
});
