import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import {
  startWebhookReceiver,
  TEST_CA_FILE,
  type WebhookReceiver,
} from "./helpers/webhook-receiver.js";

/** A first hour in Chromium: the sign-in page, a key with chosen permissions, a webhook's new URL. */
describe.skipIf(!chromiumAvailable)("dashboard: a first hour without friction", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let receiver: WebhookReceiver;
  let base: string;

  beforeAll(async () => {
    // The receiver refuses anything sent to /refuse, so a URL change can fail verification.
    receiver = await startWebhookReceiver((request) => ({
      status: request.path.startsWith("/refuse") ? 500 : 200,
    }));
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true",
      VIGIL_WEBHOOKS_CA_FILE: TEST_CA_FILE,
    });
    base = `/projects/${dash.projectId}`;
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    await receiver?.close();
    dir.remove();
  });

  it("loads the sign-in page, directly or sent there, without a console error or a failed request", async () => {
    const { page, console } = await dash.newPage();
    const failed: string[] = [];
    page.on("response", (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${base}/settings`);
    await page.waitForURL(/\/signin\?next=/);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await page.goto("/signin");
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await page.reload();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    // Whatever was still loading has landed.
    await page.waitForLoadState("networkidle");
    expect(failed).toEqual([]);
    expect(console.failedRequests).toEqual([]);
    expect(console.errors).toEqual([]);

    // Signing in still lands where the user was going.
    await dash.signIn(page);
    await page.goto(`${base}/settings`);
    await page.waitForURL(`**${base}/settings/api-keys`);
    expect(console.errors).toEqual([]);
  });

  it("creates an API key with exactly the permissions ticked in the form", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/settings/api-keys`);
    await page.getByLabel("Key name").fill("log shipper check");
    // Custom starts from the role chosen before (Ingest): untick it, tick two reads.
    await page.getByLabel("Role").selectOption("ingest");
    await page.getByLabel("Role").selectOption("custom");
    const permissions = page.getByRole("group", { name: "Permissions" });
    await permissions.waitFor();
    expect(await permissions.getByLabel("ingest", { exact: true }).isChecked()).toBe(true);
    await permissions.getByLabel("ingest", { exact: true }).uncheck();

    // None ticked: the server's message shows under the permissions.
    await page.getByRole("button", { name: "Create key" }).click();
    await permissions.locator(".field-error").waitFor();
    expect(await permissions.locator(".field-error").textContent()).toContain(
      "choose at least one permission",
    );

    await permissions.getByLabel("logs:read").check();
    // Ticking one answers the refusal: its message goes.
    expect(await permissions.locator(".field-error").count()).toBe(0);
    await permissions.getByLabel("tql:query").check();
    expect(await permissions.textContent()).toContain("Run TQL queries");
    await dash.screenshot(page, "settings-api-key-permissions");
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = page.locator(".secret-value");
    await secret.waitFor();
    const key = (await secret.textContent()) ?? "";

    const me = await fetch(`${dash.baseUrl}/v1/whoami`, { headers: { "x-api-key": key } });
    expect(me.status).toBe(200);
    const body = (await me.json()) as { permissions: string[] };
    expect([...body.permissions].sort()).toEqual(["logs:read", "tql:query"]);
    const row = page.locator("tbody tr", { hasText: "log shipper check" });
    expect(await row.textContent()).toContain("Custom");
    expect(console.errors).toEqual([]);
  });

  it("changes a webhook endpoint's URL once the new one answers its verification, and says why not otherwise", async () => {
    const created = await dash.owner.post(`/webhooks/${dash.projectId}/endpoints`, {
      url: `${receiver.url}/old`,
      events: ["monitor.down"],
    });
    expect(created.status).toBe(201);
    const endpoint = (await created.json()) as { id: string };
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/settings/webhooks/${endpoint.id}`);
    await page.getByRole("button", { name: "Change URL" }).click();

    // A URL that does not answer 2xx is not saved; the reason shows beside the field.
    const field = page.getByLabel("New URL");
    await field.fill(`${receiver.url}/refuse`);
    await page.getByRole("button", { name: "Verify and save" }).click();
    const problem = page.locator(".field-error", { hasText: "verification failed" });
    await problem.waitFor();
    expect(await problem.textContent()).toContain("HTTP 500");
    await dash.screenshot(page, "settings-webhook-url");
    const unchanged = await dash.owner.get(`/webhooks/${dash.projectId}/endpoints`);
    expect(((await unchanged.json()) as { data: { url: string }[] }).data[0]?.url).toBe(
      `${receiver.url}/old`,
    );

    await field.fill(`${receiver.url}/new`);
    await page.getByRole("button", { name: "Verify and save" }).click();
    await page.getByRole("heading", { name: `${receiver.url}/new` }).waitFor();
    const verifications = receiver.requests
      .filter((r) => r.headers["x-service-event"] === "endpoint.verify")
      .map((r) => r.path);
    expect(verifications).toEqual(["/old", "/refuse", "/new"]);
    const saved = await dash.owner.get(`/webhooks/${dash.projectId}/endpoints`);
    expect(((await saved.json()) as { data: { url: string }[] }).data[0]?.url).toBe(
      `${receiver.url}/new`,
    );
    await page.getByRole("button", { name: "Change URL" }).waitFor();

    // Its events change through the same kind of PATCH, the URL left as it is.
    await page.getByRole("button", { name: "Change events" }).click();
    await page.getByRole("checkbox", { name: "monitor.recovered" }).check();
    await page.getByRole("button", { name: "Save events" }).click();
    await page.getByRole("button", { name: "Change events" }).waitFor();
    const changed = await dash.owner.get(`/webhooks/${dash.projectId}/endpoints`);
    const [current] = ((await changed.json()) as { data: { url: string; events: string[] }[] })
      .data;
    expect(current?.url).toBe(`${receiver.url}/new`);
    expect([...(current?.events ?? [])].sort()).toEqual(["monitor.down", "monitor.recovered"]);
    // The refused verification is the server's answer (400), not the app's fault.
    expect(console.errors).toEqual([]);
  });
});
