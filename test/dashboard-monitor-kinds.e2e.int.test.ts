import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { createServer as createTlsServer, type Server as TlsServer } from "node:tls";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DNS_ASSERTION_TYPES } from "../src/contracts/monitor-catalog.js";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/** The options a select offers, as values. */
const optionValues = async (select: Locator) => {
  const values: string[] = [];
  for (const option of await select.locator("option").all())
    values.push((await option.getAttribute("value")) ?? "");
  return values;
};

/** The message shown beside a field the server refused (its aria-describedby). */
async function fieldError(page: Page, field: Locator): Promise<string | null> {
  await field.and(page.locator("[aria-invalid=true]")).waitFor();
  const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
  return page.locator(`[id="${describedBy}"]`).textContent();
}

/**
 * The monitor kinds in Chromium: a tcp monitor built through the form (a refused field's message
 * beside it) against a local TCP server, run now and passing; a tls monitor trusting a private CA
 * and the certificate's details in its result; the DNS assertions editor's
 * operators per type and the API's message beside a row's value; a heartbeat created through the
 * form, its ping URL pinged with fetch, and the ping in its results. The scheduler is off: every
 * check here is one the test runs or the ping records.
 */
describe.skipIf(!chromiumAvailable)("dashboard: monitor kinds", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let tcp: Server;
  let tcpPort: number;
  const sockets = new Set<Socket>();
  let tls: TlsServer;
  let tlsPort: number;
  let tlsCert: string;

  beforeAll(async () => {
    // Answers "PONG" to a line "PING", like a tiny line protocol.
    tcp = createServer((socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
      socket.setEncoding("utf8");
      socket.on("data", (data: string) => {
        if (data.includes("PING")) socket.write("+PONG\r\n");
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
    tcpPort = (tcp.address() as AddressInfo).port;
    // A self-signed certificate for 127.0.0.1, valid 30 days; the monitor trusts it as its CA.
    const key = join(dir.path, "tls-key.pem");
    const cert = join(dir.path, "tls-cert.pem");
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"],
        ...["-days", "30", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
        ...["-keyout", key, "-out", cert],
      ],
      { stdio: "ignore" },
    );
    tlsCert = readFileSync(cert, "utf8");
    tls = createTlsServer({ key: readFileSync(key), cert: tlsCert }, (socket) => socket.end());
    tls.on("tlsClientError", () => undefined);
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    tlsPort = (tls.address() as AddressInfo).port;
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
    });
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => tcp?.close(resolve));
    await new Promise((resolve) => tls?.close(resolve));
    dir.remove();
  });

  const newMonitor = async (page: Page, name: string, type: string) => {
    await page.goto(`/projects/${dash.projectId}/monitors/new`);
    await page.getByLabel("Name", { exact: true }).first().fill(name);
    await page.getByLabel("Type", { exact: true }).first().selectOption(type);
  };

  it("creates a tcp monitor through the form, runs it and shows the passed check", async () => {
    const { page, console } = await dash.newPage({ height: 1000 });
    await dash.signIn(page);
    await newMonitor(page, "Cache port", "tcp");
    const connection = page.getByRole("region", { name: "Connection" });
    await connection.getByLabel("Host").fill("127.0.0.1");
    await connection.getByLabel("Send (optional)").fill("PING\r\n");
    await connection.getByLabel("Expect (optional)").fill("PONG");
    // The HTTP request's fields are not there for a tcp monitor.
    expect(await page.getByLabel("URL").count()).toBe(0);

    // Without a port the API names it, and the form shows its message beside the field.
    await page.getByRole("button", { name: "Create monitor" }).click();
    const port = connection.getByLabel("Port");
    expect(await fieldError(page, port)).toMatch(/number/i);
    await port.fill(String(tcpPort));
    await dash.screenshot(page, "monitor-kinds-tcp-form");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await page.waitForURL(/\/monitors\/mon_[^/]+$/);
    await page.getByRole("heading", { name: "Cache port" }).waitFor();
    await page.getByText(`tcp://127.0.0.1:${tcpPort}`).first().waitFor();

    await page.getByRole("button", { name: "Run now" }).click();
    const run = page.getByRole("region", { name: "Result of the run" });
    await run.getByRole("heading", { name: "Run now: passed" }).waitFor();
    const text = (await run.textContent()) ?? "";
    expect(text).toContain(`TCP tcp://127.0.0.1:${tcpPort}`);
    expect(text).toMatch(/connection/);
    expect(text).toMatch(/received text/);
    // What the server sent is shown under "Received".
    expect(await run.getByText("Received").count()).toBeGreaterThan(0);
    expect(text).toContain("+PONG");

    const results = page.getByRole("region", { name: "Results" });
    await results
      .getByText(/checks passed/)
      .first()
      .waitFor();
    await dash.screenshot(page, "monitor-kinds-tcp-detail");

    // The configuration tab and the list read the kind's fields.
    await page.getByRole("tab", { name: "Configuration" }).click();
    await page.getByRole("tabpanel").getByText('"PONG"', { exact: true }).waitFor();
    await page.getByRole("link", { name: "← Monitors" }).click();
    const listed = page.getByRole("row", { name: /Cache port/ });
    await listed.waitFor();
    expect(await listed.textContent()).toContain(`tcp://127.0.0.1:${tcpPort}`);
    expect(console.errors).toEqual([]);
  }, 90_000);

  it("edits DNS assertions with each type's operators and shows the API's message beside a value", async () => {
    const { page, console } = await dash.newPage({ height: 1000 });
    await dash.signIn(page);
    await newMonitor(page, "Mail records", "dns");
    const query = page.getByRole("region", { name: "DNS query" });
    await query.getByLabel("Domain").fill("example.com");
    await query.getByLabel("Record type").selectOption("MX");
    // A new dns monitor starts with the default: at least one answer.
    const first = query.getByRole("group", { name: "Assertion 1", exact: true });
    expect(await first.getByLabel("Type").inputValue()).toBe("answer_count");
    expect(await optionValues(first.getByLabel("Operator"))).toEqual([
      ...DNS_ASSERTION_TYPES.answer_count.operators,
    ]);
    await query.getByRole("button", { name: "Add assertion" }).click();
    const second = query.getByRole("group", { name: "Assertion 2", exact: true });
    expect(await optionValues(second.getByLabel("Operator"))).toEqual([
      ...DNS_ASSERTION_TYPES.answer.operators,
    ]);
    await second.getByLabel("Operator").selectOption("contains");
    await second.getByLabel("Value").fill("mx.example.com");
    await first.getByLabel("Value").fill("some");
    await page.getByRole("button", { name: "Create monitor" }).click();
    expect(await fieldError(page, first.getByLabel("Value"))).toMatch(/whole number/);
    await dash.screenshot(page, "monitor-kinds-dns-form");
    await first.getByLabel("Value").fill("0");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await page.waitForURL(/\/monitors\/mon_[^/]+$/);
    await page.getByText("dns MX example.com").first().waitFor();
    const id = page.url().split("/monitors/")[1] ?? "";
    const saved = await dash.owner.get(`/api/projects/${dash.projectId}/monitors/${id}`);
    expect(((await saved.json()) as { assertions: unknown }).assertions).toEqual([
      { type: "answer_count", operator: "greater_than", value: "0" },
      { type: "answer", operator: "contains", value: "mx.example.com" },
    ]);
    expect(console.errors).toEqual([]);
  }, 90_000);

  it("creates a tls monitor trusting a private CA and shows the certificate of its check", async () => {
    const { page, console } = await dash.newPage({ height: 1000 });
    await dash.signIn(page);
    await newMonitor(page, "Internal TLS", "tls");
    const certificate = page.getByRole("region", { name: "Certificate" });
    await certificate.getByLabel("Host").fill("127.0.0.1");
    await certificate.getByLabel("Port").fill(String(tlsPort));
    expect(await certificate.getByLabel("Minimum days left").inputValue()).toBe("14");
    await certificate.getByText("Private certificate authority").click();
    await certificate.getByLabel("Trusted CA certificates (PEM, optional)").fill(tlsCert);
    await page.getByRole("button", { name: "Create monitor" }).click();
    await page.waitForURL(/\/monitors\/mon_[^/]+$/);
    await page.getByText(`tls://127.0.0.1:${tlsPort}`).first().waitFor();

    await page.getByRole("button", { name: "Run now" }).click();
    const run = page.getByRole("region", { name: "Result of the run" });
    await run.getByRole("heading", { name: "Run now: passed" }).waitFor();
    const text = (await run.textContent()) ?? "";
    expect(text).toContain(`TLS tls://127.0.0.1:${tlsPort}`);
    for (const checked of ["TLS handshake", "certificate chain", "host name", "days left"])
      expect(text).toContain(checked);
    // The certificate's details: days left, the chain trusted, the name matching, the issuer.
    expect(text).toMatch(/(29|30) days left/);
    expect(text).toContain("trusted chain");
    expect(text).toContain("name matches");
    expect(text).toMatch(/Issuer.*127\.0\.0\.1/);
    await dash.screenshot(page, "monitor-kinds-tls");
    expect(console.errors).toEqual([]);
  }, 90_000);

  it("creates a heartbeat through the form, pings its URL and shows the ping in its results", async () => {
    const { page, console } = await dash.newPage({ height: 1100 });
    await dash.signIn(page);
    await newMonitor(page, "Nightly backup", "heartbeat");
    // A heartbeat waits for pings: no frequency or timeout to set.
    expect(await page.getByLabel("Check frequency").count()).toBe(0);
    const pings = page.getByRole("region", { name: "Expected pings" });
    await pings.getByLabel("Period").fill("1d");
    await pings.getByLabel("Grace").fill("30m");
    await pings.getByText(/expected every 1 day/).waitFor();
    await page.getByRole("button", { name: "Create monitor" }).click();
    await page.waitForURL(/\/monitors\/mon_[^/]+$/);
    await page.getByRole("heading", { name: "Nightly backup" }).waitFor();
    expect(await page.getByRole("button", { name: "Run now" }).count()).toBe(0);

    const card = page.getByRole("region", { name: "Ping URL" });
    const pingUrl = ((await card.getByTestId("ping-url").textContent()) ?? "").trim();
    expect(pingUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ping\/[A-Za-z0-9_-]{43}$/);
    const lines = (await card.locator("pre").allTextContents()).join("\n");
    expect(lines).toContain(`${pingUrl}/start`);
    expect(lines).toContain(`${pingUrl}/fail`);
    await card.getByText("never").waitFor();
    await dash.screenshot(page, "monitor-kinds-heartbeat");

    const ping = await fetch(pingUrl, { method: "POST", body: "backup done: 42 files" });
    expect(ping.status).toBe(200);
    expect(await ping.text()).toMatch(/OK/);

    // The page asks again while the heartbeat has no check yet: the ping shows up by itself.
    const results = page.getByRole("region", { name: "Results" });
    const row = results.locator("table.mon-results > tbody > tr").first();
    await row.waitFor({ timeout: 20_000 });
    expect(await row.textContent()).toMatch(/ping/);
    expect(await row.textContent()).toMatch(/passed/);
    await results
      .getByRole("button", { name: /^Details of the check/ })
      .first()
      .click();
    const drawer = page.getByRole("dialog", { name: "Check result" });
    await drawer.getByText("Ping body").waitFor();
    expect(await drawer.textContent()).toContain("backup done: 42 files");
    expect(await drawer.textContent()).toMatch(/PING heartbeat every 1d \(\+30m\)/);
    await card
      .getByText(/ago|now/)
      .first()
      .waitFor();
    expect(console.errors).toEqual([]);
  }, 90_000);
});
