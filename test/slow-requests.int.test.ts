import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshGet, openRaw, type RawClient, trickle, until, within } from "./helpers/raw-http.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const REQUEST_TIMEOUT_S = 3;
const HEADERS_TIMEOUT_S = 2;
const PER_ADDRESS = 4;
// Node checks the timeouts on a timer (a quarter of the headers timeout here) plus scheduling.
const SLACK_MS = 1500;

const GET_HEALTH = "GET /healthz HTTP/1.1\r\nHost: vigil.test\r\n\r\n";

describe("slow and idle connections", () => {
  const dir = makeTempDir();
  let service: TestService;
  let port: number;

  const openConnections = () =>
    new Promise<number>((resolve, reject) =>
      service.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );

  beforeAll(async () => {
    service = await startTestService(dir.path, {
      VIGIL_HTTP_REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_S),
      VIGIL_HTTP_HEADERS_TIMEOUT_SECONDS: String(HEADERS_TIMEOUT_S),
      VIGIL_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "30",
      VIGIL_HTTP_IDLE_TIMEOUT_SECONDS: "45",
      VIGIL_HTTP_MAX_CONNECTIONS: "500",
      VIGIL_HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
    });
    port = Number(new URL(service.url).port);
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("gives the HTTP server the configured limits", () => {
    const server = service.app.server;
    expect({
      requestTimeout: server.requestTimeout,
      headersTimeout: server.headersTimeout,
      keepAliveTimeout: server.keepAliveTimeout,
      timeout: server.timeout,
      maxConnections: server.maxConnections,
    }).toEqual({
      requestTimeout: REQUEST_TIMEOUT_S * 1000,
      headersTimeout: HEADERS_TIMEOUT_S * 1000,
      keepAliveTimeout: 30_000,
      timeout: 45_000,
      maxConnections: 500,
    });
  });

  it("cuts a login whose body trickles in, with 408, within the request timeout", async () => {
    const client = await openRaw(port);
    client.socket.write(
      "POST /api/auth/login HTTP/1.1\r\nHost: vigil.test\r\nContent-Type: application/json\r\n" +
        "Content-Length: 1000\r\n\r\n{",
    );
    trickle(client, () => " ", 500);
    const elapsed = await within(client.closed, REQUEST_TIMEOUT_S * 1000 + SLACK_MS);
    expect(elapsed).toBeLessThan(REQUEST_TIMEOUT_S * 1000 + SLACK_MS);
    expect(elapsed).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_S * 1000 - 100);
    const answer = client.received();
    if (answer !== "") expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(await freshGet(`${service.url}/healthz`)).toBe(200);
  }, 15_000);

  it("cuts a header block that trickles in within the headers timeout", async () => {
    const client = await openRaw(port);
    client.socket.write("GET /healthz HTTP/1.1\r\nHost: vigil.test\r\n");
    let n = 0;
    trickle(client, () => `X-Slow-${n++}: a\r\n`, 500);
    const elapsed = await within(client.closed, HEADERS_TIMEOUT_S * 1000 + SLACK_MS);
    expect(elapsed).toBeLessThan(HEADERS_TIMEOUT_S * 1000 + SLACK_MS);
    const answer = client.received();
    if (answer !== "") expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(await freshGet(`${service.url}/healthz`)).toBe(200);
  }, 15_000);

  it("closes connections beyond the per-address cap at once; the held ones keep working", async () => {
    await until(async () => (await openConnections()) === 0);
    // Keep-alive connections that served one request and now sit idle, up to the cap.
    const held: RawClient[] = [];
    for (let i = 0; i < PER_ADDRESS; i++) {
      const client = await openRaw(port);
      client.socket.write(GET_HEALTH);
      held.push(client);
    }
    await until(async () => held.every((c) => c.received().includes('{"status":"ok"}')));
    expect(held.map((c) => c.received())).toEqual(
      held.map(() => expect.stringMatching(/^HTTP\/1\.1 200 /)),
    );
    expect(await openConnections()).toBe(PER_ADDRESS);

    // One more from the same address is closed before it can send anything.
    const extra = await openRaw(port);
    extra.socket.write(GET_HEALTH);
    expect(await within(extra.closed, 2000)).toBeLessThan(2000);
    expect(extra.received()).toBe("");
    expect(await openConnections()).toBe(PER_ADDRESS);
    const metrics = await service.deps.metrics.registry.metrics();
    expect(metrics).toMatch(/^vigil_http_connections_refused_total 1$/m);

    // A held connection still serves requests while the address is at its cap.
    const first = held[0] as RawClient;
    const before = first.received().length;
    first.socket.write(GET_HEALTH);
    await until(async () => first.received().length > before);
    expect(first.received().slice(before)).toMatch(/^HTTP\/1\.1 200 /);

    // Once one closes, a new connection from the same address is served.
    first.socket.destroy();
    await until(async () => (await openConnections()) === PER_ADDRESS - 1);
    expect(await freshGet(`${service.url}/healthz`)).toBe(200);

    for (const client of held) client.socket.destroy();
    await until(async () => (await openConnections()) === 0);
    expect(await freshGet(`${service.url}/healthz`)).toBe(200);
  }, 20_000);
});
