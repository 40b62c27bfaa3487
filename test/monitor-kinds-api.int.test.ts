import { randomBytes } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  CheckResultView as CheckResult,
  MonitorView as Monitor,
} from "../src/contracts/monitors.js";
import type { Page, Problem } from "../src/contracts/pagination.js";
import { startDnsServer, type TestDnsServer } from "./helpers/dns-server.js";
import { bodyOf, discordRules, type FakeVendor, startFakeVendor } from "./helpers/fake-vendor.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

/** tcp, dns and tls monitors through the management API: saved, checked, outages, notified, on pages. */
describe("monitor kinds through the API", () => {
  const dir = makeTempDir();
  const token = randomBytes(16).toString("hex");
  const sockets = new Set<Socket>();
  let service: TestService;
  let owner: Session;
  let orgId: string;
  let projectId: string;
  let tcp: Server;
  let tcpPort: number;
  let dns: TestDnsServer;
  let discord: FakeVendor;

  const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;
  const base = () => `/api/projects/${projectId}/monitors`;
  const created = async (body: Record<string, unknown>): Promise<Monitor> => {
    const response = await owner.post(base(), { frequency: "1h", ...body });
    const monitor = await json<Monitor & Problem>(response);
    if (response.status !== 201) throw new Error(`${response.status}: ${JSON.stringify(monitor)}`);
    return monitor;
  };
  const refused = async (response: Response): Promise<string[]> => {
    const problem = await json<Problem>(response);
    expect(response.status, problem.detail).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    return (problem.errors ?? []).map((e) => `${e.field}: ${e.message}`);
  };
  const run = async (id: string) => json<CheckResult>(await owner.post(`${base()}/${id}/run`));

  beforeAll(async () => {
    tcp = createServer((socket) => {
      socket.on("error", () => {});
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.write("+OK ready\r\n");
    });
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
    tcpPort = (tcp.address() as { port: number }).port;
    dns = await startDnsServer({ "vigil.test": [{ type: "A", value: "192.0.2.7" }] });
    discord = await startFakeVendor(discordRules(token));
    ({ service, owner, orgId, projectId } = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
    }));
  });
  afterAll(async () => {
    await service?.stop();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => tcp?.close(resolve));
    await dns?.close();
    await discord?.close();
    dir.remove();
  });

  it("creates a tcp, a dns and a tls monitor with their target line and fields", async () => {
    const tcpMonitor = await created({
      name: "Redis",
      type: "tcp",
      host: "127.0.0.1",
      port: tcpPort,
      expect: "+OK",
    });
    expect(tcpMonitor).toMatchObject({
      type: "tcp",
      target: `tcp://127.0.0.1:${tcpPort}`,
      host: "127.0.0.1",
      port: tcpPort,
      expect: "+OK",
      frequency: "1h",
      steps: [],
      escalationPolicyId: null,
    });
    const dnsMonitor = await created({
      name: "Apex",
      type: "dns",
      domain: "vigil.test",
      recordType: "A",
      resolver: dns.resolver,
      assertions: [{ type: "answer", operator: "equals", value: "192.0.2.7" }],
    });
    expect(dnsMonitor).toMatchObject({
      target: "dns A vigil.test",
      domain: "vigil.test",
      recordType: "A",
      resolver: dns.resolver,
    });
    const tlsMonitor = await created({ name: "Cert", type: "tls", host: "example.com" });
    expect(tlsMonitor).toMatchObject({
      target: "tls://example.com:443",
      port: 443,
      minDaysLeft: 14,
    });
    expect(tlsMonitor).not.toHaveProperty("ca");

    const tcpResult = await run(tcpMonitor.id);
    expect(tcpResult).toMatchObject({ trigger: "manual", passed: true });
    expect(tcpResult.steps).toHaveLength(1);
    expect(tcpResult.steps[0]).toMatchObject({
      method: "TCP",
      url: `tcp://127.0.0.1:${tcpPort}`,
      responseBody: "+OK ready\r\n",
    });
    const dnsResult = await run(dnsMonitor.id);
    expect(dnsResult.passed).toBe(true);
    expect(dnsResult.steps[0]?.assertions[0]).toMatchObject({
      type: "answer",
      actual: "192.0.2.7",
    });
    const list = await json<Page<Monitor>>(await owner.get(base()));
    expect(list.data.map((m) => m.target)).toEqual(
      expect.arrayContaining([tcpMonitor.target, dnsMonitor.target, tlsMonitor.target]),
    );
  });

  it("refuses bad input with problems naming each field", async () => {
    expect(
      await refused(await owner.post(base(), { name: "x", type: "tcp", host: "a b" })),
    ).toEqual(
      expect.arrayContaining([
        "host: must be a host name or an IP address, without a scheme, port or path",
        expect.stringMatching(/^port: /),
      ]),
    );
    expect(
      await refused(
        await owner.post(base(), {
          name: "x",
          type: "dns",
          domain: "vigil.test",
          recordType: "SPF",
        }),
      ),
    ).toEqual(["recordType: must be one of A, AAAA, CNAME, MX, TXT"]);
    expect(
      await refused(
        await owner.post(base(), { name: "x", type: "tls", host: "example.com", port: 0 }),
      ),
    ).toEqual([expect.stringMatching(/^port: /)]);
    expect(
      await refused(
        await owner.post(base(), { name: "x", type: "heartbeat", period: "1h", frequency: "5m" }),
      ),
    ).toEqual(["frequency: is not a known field"]);
    expect(await refused(await owner.post(base(), { name: "x", type: "smtp" }))).toEqual([
      "type: must be one of 'api', 'flow', 'tcp', 'dns', 'tls', 'heartbeat'",
    ]);
  });

  it("a PATCH changes the kind's fields, never its type or another kind's fields", async () => {
    const monitor = await created({ name: "Patched", type: "tcp", host: "127.0.0.1", port: 1 });
    const moved = await json<Monitor>(
      await owner.patch(`${base()}/${monitor.id}`, { port: tcpPort, send: "PING\r\n" }),
    );
    expect(moved).toMatchObject({
      port: tcpPort,
      send: "PING\r\n",
      host: "127.0.0.1",
      name: "Patched",
    });
    expect(await refused(await owner.patch(`${base()}/${monitor.id}`, { type: "dns" }))).toEqual([
      "type: a tcp monitor cannot become dns; create a new monitor instead",
    ]);
    expect(
      await refused(await owner.patch(`${base()}/${monitor.id}`, { domain: "vigil.test" })),
    ).toEqual(["domain: is not a field of a TCP monitor (type tcp)"]);
    expect(await refused(await owner.patch(`${base()}/${monitor.id}`, { port: 70000 }))).toEqual([
      expect.stringMatching(/^port: /),
    ]);
    // An api monitor may become a flow: the same steps.
    const api = await created({
      name: "Api",
      type: "api",
      steps: [{ url: "http://127.0.0.1:1/" }],
    });
    const flow = await json<Monitor>(await owner.patch(`${base()}/${api.id}`, { type: "flow" }));
    expect(flow).toMatchObject({ type: "flow", target: "http://127.0.0.1:1/" });
  });

  it("an outage of a tcp monitor opens an incident, notifies with the target line and shows on a status page", async () => {
    const channel = await json<{ id: string }>(
      await owner.post(`/api/projects/${projectId}/channels`, {
        name: "discord",
        type: "discord",
        settings: { webhookUrl: `${discord.url}/api/webhooks/7/${token}` },
      }),
    );
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const monitor = await created({
      name: "Queue",
      type: "tcp",
      host: "127.0.0.1",
      port: closedPort,
      channelIds: [channel.id],
    });
    const page = await json<{ page: { id: string } }>(
      await owner.post(`/api/orgs/${orgId}/status-pages`, { slug: "kinds", title: "Kinds" }),
    );
    const pageBase = `/api/orgs/${orgId}/status-pages/${page.page.id}`;
    const component = await json<{ id: string; status: string }>(
      await owner.post(`${pageBase}/components`, { name: "Queue", monitorIds: [monitor.id] }),
    );
    expect(component.status).toBe("operational");

    const result = await run(monitor.id);
    expect(result.passed).toBe(false);
    expect(result.steps[0]?.transportError?.code).toBe("refused");
    const down = await json<Monitor>(await owner.get(`${base()}/${monitor.id}`));
    expect(down.health).toBe("outage");
    const incidents = await json<Page<{ cause: string; status: string }>>(
      await owner.get(`${base()}/${monitor.id}/incidents`),
    );
    expect(incidents.data[0]).toMatchObject({ status: "active" });
    expect(incidents.data[0]?.cause).toMatch(/^connection refused/);
    for (let i = 0; i < 200 && discord.requests.length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    const sent = JSON.stringify(bodyOf(discord.requests[0]));
    expect(sent).toContain(`tcp://127.0.0.1:${closedPort}`);
    expect(sent).toContain("Queue");
    const config = await json<{ components: { id: string; status: string }[] }>(
      await owner.get(pageBase),
    );
    expect(config.components.find((c) => c.id === component.id)?.status).not.toBe("operational");
  });
});
