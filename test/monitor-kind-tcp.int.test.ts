import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResolveAll } from "../src/lib/http/outbound-agent.js";
import { runKindCheck, verdicts } from "./helpers/kind-check.js";

/** tcp monitors (docs/monitor-kinds.md#tcp) against local TCP servers. */
describe("tcp monitor", () => {
  const sockets = new Set<Socket>();
  let echo: Server;
  let mute: Server;
  let echoPort: number;
  let mutePort: number;
  let closedPort: number;

  const listen = async (server: Server) => {
    server.on("connection", (socket) => {
      // The monitor hangs up as soon as it has what it came for.
      socket.on("error", () => {});
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return (server.address() as { port: number }).port;
  };

  beforeAll(async () => {
    // A greeting at once, then every line back upper-cased (like a tiny SMTP or Redis).
    echo = createServer((socket) => {
      socket.write("220 vigil-test ready\r\n");
      socket.on("data", (data) => socket.write(data.toString().toUpperCase()));
    });
    echoPort = await listen(echo);
    // Accepts and never says anything.
    mute = createServer(() => {});
    mutePort = await listen(mute);
    const closed = createServer();
    closedPort = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all([echo, mute].map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it("connecting is enough without send/expect", async () => {
    const result = await runKindCheck({ type: "tcp", host: "127.0.0.1", port: echoPort });
    expect(result.passed).toBe(true);
    expect(result.step).toMatchObject({
      method: "TCP",
      url: `tcp://127.0.0.1:${echoPort}`,
      statusCode: null,
      transportError: null,
      responseBody: null,
    });
    expect(verdicts(result.step)).toEqual(["connect passed"]);
    expect(result.durationMs).toBe(result.step.durationMs);
  });

  it("sends a text and finds the expected one in what comes back", async () => {
    const result = await runKindCheck({
      type: "tcp",
      host: "127.0.0.1",
      port: echoPort,
      send: "ping\r\n",
      expect: "PING",
    });
    expect(result.passed).toBe(true);
    expect(verdicts(result.step)).toEqual(["connect passed", "received passed"]);
    expect(result.step.responseBody).toContain("220 vigil-test ready");
    expect(result.step.responseBody).toContain("PING");
  });

  it("sends the text before closing when nothing is expected", async () => {
    const received: string[] = [];
    const sink = createServer((socket) => {
      socket.on("error", () => {});
      socket.on("data", (data) => received.push(data.toString()));
    });
    const port = await listen(sink);
    const result = await runKindCheck({ type: "tcp", host: "127.0.0.1", port, send: "QUIT\r\n" });
    expect(result.passed).toBe(true);
    for (let i = 0; i < 100 && received.join("") !== "QUIT\r\n"; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(received.join("")).toBe("QUIT\r\n");
    await new Promise((resolve) => sink.close(resolve));
  });

  it("fails when the expected text does not come within the timeout", async () => {
    const started = Date.now();
    const result = await runKindCheck({
      type: "tcp",
      host: "127.0.0.1",
      port: echoPort,
      expect: "+PONG",
      timeoutSeconds: 1,
    });
    expect(result.passed).toBe(false);
    expect(verdicts(result.step)).toEqual(["connect passed", "received failed"]);
    expect(result.step.assertions[1]).toMatchObject({
      operator: "contains",
      expected: "+PONG",
      actual: "220 vigil-test ready\r\n",
      message: "not received within 1 s",
    });
    expect(result.step.transportError).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(3000);
    const silent = await runKindCheck({
      type: "tcp",
      host: "127.0.0.1",
      port: mutePort,
      expect: "hello",
      timeoutSeconds: 1,
    });
    expect(silent.step.responseBody).toBeNull();
    expect(silent.step.assertions[1]).toMatchObject({ actual: null, passed: false });
  });

  it("a refused connection fails with its code and a failed connect", async () => {
    const result = await runKindCheck({ type: "tcp", host: "127.0.0.1", port: closedPort });
    expect(result.passed).toBe(false);
    expect(result.step.transportError?.code).toBe("refused");
    expect(result.step.assertions).toEqual([
      expect.objectContaining({ type: "connect", passed: false, actual: null }),
    ]);
  });

  it("a target that does not answer in time fails with a timeout", async () => {
    // A name whose lookup never ends stands for a host that never answers.
    const hang: ResolveAll = () => {};
    const started = Date.now();
    const result = await runKindCheck(
      { type: "tcp", host: "slow.example.com", port: 9, timeoutSeconds: 1 },
      { resolve: hang },
    );
    expect(result.passed).toBe(false);
    expect(result.step.transportError).toEqual({ code: "timeout", message: "timed out after 1 s" });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("with the SSRF guard on, a private address or a name resolving to one is refused", async () => {
    const literal = await runKindCheck(
      { type: "tcp", host: "127.0.0.1", port: echoPort },
      { allowPrivateTargets: false },
    );
    expect(literal.step.transportError?.code).toBe("blocked_address");
    const resolve: ResolveAll = (_host, _options, callback) =>
      callback(null, [{ address: "127.0.0.1", family: 4 }]);
    const named = await runKindCheck(
      { type: "tcp", host: "db.example.com", port: echoPort },
      { allowPrivateTargets: false, resolve },
    );
    expect(named.step.transportError).toMatchObject({ code: "blocked_address" });
    expect(named.step.transportError?.message).toMatch(/db\.example\.com \(127\.0\.0\.1\)/);
    // Guard off: the same name connects to the address it resolved to.
    const allowed = await runKindCheck(
      { type: "tcp", host: "db.example.com", port: echoPort },
      { allowPrivateTargets: true, resolve },
    );
    expect(allowed.passed).toBe(true);
  });

  it("keeps what was received within the stored-body limit", async () => {
    const result = await runKindCheck(
      {
        type: "tcp",
        host: "127.0.0.1",
        port: echoPort,
        send: "x".repeat(100),
        expect: "X".repeat(100),
      },
      { storedBodyBytes: 30 },
    );
    expect(result.passed).toBe(true);
    expect(result.step.responseBody).toHaveLength(30);
    expect(result.step.responseBodyTruncated).toBe(true);
  });
});
