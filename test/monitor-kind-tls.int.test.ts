import { createServer as createHttpsServer } from "node:https";
import { createServer as createTcpServer, type Server, type Socket } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboundAgent } from "../src/lib/http/outbound-agent.js";
import type { HttpDefinition } from "../src/monitors/definition.js";
import { runCheck } from "../src/monitors/runner.js";
import { definitionOf, runKindCheck, verdicts } from "./helpers/kind-check.js";
import {
  createTestCa,
  daysFromNow,
  type TestCa,
  type TestCertificate,
} from "./helpers/test-certificates.js";

/** tls monitors and https steps (docs/monitor-kinds.md#tls) against local TLS servers. */
describe("tls monitor", () => {
  let ca: TestCa;
  const servers: Server[] = [];
  const open = new Set<Socket>();
  const ports: Record<"good" | "soon" | "expired" | "elsewhere" | "plain" | "https", number> = {
    good: 0,
    soon: 0,
    expired: 0,
    elsewhere: 0,
    plain: 0,
    https: 0,
  };
  const listen = async (server: Server) => {
    server.on("tlsClientError", () => {});
    server.on("connection", (socket) => {
      socket.on("error", () => {});
      open.add(socket);
      socket.on("close", () => open.delete(socket));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return (server.address() as { port: number }).port;
  };
  const tlsServer = (certificate: TestCertificate) =>
    listen(
      createTlsServer(certificate, (socket) => {
        socket.on("error", () => {});
        socket.end();
      }),
    );
  const tls = (port: number, input: Record<string, unknown> = {}, allowPrivateTargets = true) =>
    runKindCheck(
      { type: "tls", host: "127.0.0.1", port, servername: "vigil.test", ca: ca.cert, ...input },
      { allowPrivateTargets },
    );

  beforeAll(async () => {
    ca = createTestCa();
    const names = ["DNS:vigil.test", "IP:127.0.0.1"];
    const good = ca.issue({ names, notBefore: daysFromNow(-1), notAfter: daysFromNow(90.5) });
    ports.good = await tlsServer(good);
    ports.soon = await tlsServer(
      ca.issue({ names, notBefore: daysFromNow(-80), notAfter: daysFromNow(5.5) }),
    );
    ports.expired = await tlsServer(
      ca.issue({ names, notBefore: daysFromNow(-60), notAfter: daysFromNow(-1.5) }),
    );
    ports.elsewhere = await tlsServer(
      ca.issue({
        names: ["DNS:other.test"],
        notBefore: daysFromNow(-1),
        notAfter: daysFromNow(90),
      }),
    );
    ports.plain = await listen(createTcpServer((socket) => socket.end("SSH-2.0-OpenSSH\r\n")));
    ports.https = await listen(
      createHttpsServer(good, (_req, res) => res.end("ok")) as unknown as Server,
    );
  });
  afterAll(async () => {
    for (const socket of open) socket.destroy();
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    ca?.remove();
  });

  it("passes a trusted certificate that names the host and has days enough left", async () => {
    const result = await tls(ports.good);
    expect(result.passed).toBe(true);
    expect(result.step).toMatchObject({
      method: "TLS",
      url: `tls://127.0.0.1:${ports.good}`,
      statusCode: null,
      transportError: null,
    });
    expect(verdicts(result.step)).toEqual([
      "tls_handshake passed",
      "tls_chain passed",
      "tls_hostname passed",
      "tls_days_left passed",
    ]);
    expect(result.step.tls).toMatchObject({
      subject: "vigil.test",
      issuer: "Vigil Test CA",
      daysLeft: 90,
      authorized: true,
      authorizationError: null,
      hostnameMatches: true,
    });
    expect(result.step.assertions[3]).toMatchObject({
      operator: "at_least",
      expected: "14",
      actual: "90",
    });
    expect(result.step.responseBody).toMatch(/^subject: vigil\.test\nissuer: Vigil Test CA\n/);
    expect(result.step.responseBody).toContain("names: DNS:vigil.test, IP Address:127.0.0.1");
    // Without servername the host is what is matched: the certificate names 127.0.0.1 too.
    expect((await tls(ports.good, { servername: "" })).passed).toBe(true);
  });

  it("fails a certificate that expires in fewer than minDaysLeft days", async () => {
    const result = await tls(ports.soon);
    expect(result.passed).toBe(false);
    expect(verdicts(result.step)).toEqual([
      "tls_handshake passed",
      "tls_chain passed",
      "tls_hostname passed",
      "tls_days_left failed",
    ]);
    expect(result.step.assertions[3]?.message).toMatch(
      /^5 day\(s\) left .*; at least 14 required$/,
    );
    expect((await tls(ports.soon, { minDaysLeft: 5 })).passed).toBe(true);
  });

  it("fails an expired certificate on its chain and its days left", async () => {
    const result = await tls(ports.expired, { minDaysLeft: 0 });
    expect(result.passed).toBe(false);
    expect(verdicts(result.step)).toEqual([
      "tls_handshake passed",
      "tls_chain failed",
      "tls_hostname passed",
      "tls_days_left failed",
    ]);
    expect(result.step.tls).toMatchObject({ authorizationError: "CERT_HAS_EXPIRED", daysLeft: -2 });
    expect(result.step.assertions[3]?.message).toMatch(/^expired 2 day\(s\) ago/);
  });

  it("fails a certificate for another name", async () => {
    const result = await tls(ports.elsewhere);
    expect(verdicts(result.step)).toEqual([
      "tls_handshake passed",
      "tls_chain passed",
      "tls_hostname failed",
      "tls_days_left passed",
    ]);
    expect(result.step.assertions[2]?.message).toBe(
      "the certificate does not name vigil.test (DNS:other.test)",
    );
  });

  it("fails a chain the system's CAs do not trust when no ca is given", async () => {
    const result = await tls(ports.good, { ca: "" });
    expect(result.passed).toBe(false);
    expect(verdicts(result.step)).toEqual([
      "tls_handshake passed",
      "tls_chain failed",
      "tls_hostname passed",
      "tls_days_left passed",
    ]);
    expect(result.step.tls?.authorizationError).toMatch(
      /UNABLE_TO_VERIFY|SELF_SIGNED|LOCAL_ISSUER/,
    );
  });

  it("a server that does not speak TLS fails the handshake", async () => {
    const result = await tls(ports.plain);
    expect(result.passed).toBe(false);
    expect(["tls", "reset"]).toContain(result.step.transportError?.code);
    expect(verdicts(result.step)).toEqual(["tls_handshake failed"]);
    expect(result.step.tls).toBeNull();
  });

  it("with the SSRF guard on, a private host is refused", async () => {
    const result = await tls(ports.good, {}, false);
    expect(result.step.transportError?.code).toBe("blocked_address");
  });

  it("an https step reports the certificate it was answered over", async () => {
    const agent = createOutboundAgent({ allowPrivateNetworks: true, ca: ca.cert });
    try {
      const definition = definitionOf({
        type: "api",
        steps: [{ url: `https://127.0.0.1:${ports.https}/` }],
      }) as HttpDefinition;
      const deps = {
        dispatcher: agent,
        clock: { now: () => new Date() },
        maxResponseBytes: 1024,
        storedBodyBytes: 1024,
      };
      const result = await runCheck(definition, deps);
      expect(result.passed).toBe(true);
      expect(result.steps[0]?.tls).toMatchObject({
        subject: "vigil.test",
        issuer: "Vigil Test CA",
        daysLeft: 90,
        authorized: true,
        hostnameMatches: true,
      });
      // A reused keep-alive connection still reports its certificate.
      expect((await runCheck(definition, deps)).steps[0]?.tls?.daysLeft).toBe(90);
      const plain = definitionOf({ type: "api", steps: [{ url: "http://127.0.0.1:1/" }] });
      expect((await runCheck(plain as HttpDefinition, deps)).steps[0]).not.toHaveProperty("tls");
    } finally {
      await agent.close();
    }
  });
});
