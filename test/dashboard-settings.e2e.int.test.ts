import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { VIEWER } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import {
  startWebhookReceiver,
  TEST_CA_FILE,
  type WebhookReceiver,
} from "./helpers/webhook-receiver.js";

interface Endpoint {
  id: string;
  url: string;
  isActive: boolean;
}

/** Settings (API keys, webhooks, channels, members), AI and Sessions in Chromium. */
describe.skipIf(!chromiumAvailable)("dashboard settings, AI and sessions", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let receiver: WebhookReceiver;
  let base: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver(() => ({ status: 200, body: "thanks" }));
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      // The local receiver: loopback, with a certificate of the test CA.
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

  const whoami = async (key: string) => {
    const response = await fetch(`${dash.baseUrl}/v1/whoami`, { headers: { "x-api-key": key } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const row = (page: Page, text: string) => page.locator("tbody tr", { hasText: text });

  it("creates an API key that works, shows its secret once, and revokes it", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/settings`);
    await page.waitForURL(`**${base}/settings/api-keys`);
    await page.getByLabel("Key name").fill("ci reader");
    await page.getByLabel("Role").selectOption("read_only");
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = page.locator(".secret-value");
    await secret.waitFor();
    const key = (await secret.textContent()) ?? "";
    expect(key).toMatch(/^vgl_[0-9A-Za-z]{24,}$/);
    expect(await page.getByText("shown only this once", { exact: false }).count()).toBe(1);
    await row(page, "ci reader").waitFor();
    expect(await row(page, "ci reader").textContent()).toContain(`${key.slice(0, 8)}…`);
    await dash.screenshot(page, "settings-api-keys");

    // The key really works, with the read-only role's permissions.
    const me = await whoami(key);
    expect(me.status).toBe(200);
    expect(me.body.projectId).toBe(dash.projectId);
    expect(me.body.permissions).toContain("logs:read");
    expect(me.body.permissions).not.toContain("ingest");

    // Once gone from the page, the secret is never shown again.
    await page.reload();
    await row(page, "ci reader").waitFor();
    expect(await page.locator(".secret-value").count()).toBe(0);
    expect(await page.content()).not.toContain(key);

    await page.getByRole("button", { name: "Revoke key ci reader" }).click();
    await page.getByRole("button", { name: "Revoke key", exact: true }).click();
    await row(page, "ci reader").getByText("revoked").waitFor();
    expect((await whoami(key)).status).toBe(401);
    expect(console.errors).toEqual([]);
  });

  it("adds a webhook endpoint, sends a test event, shows its bodies in the log, and disables it", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/settings/webhooks`);
    await page.getByText("No webhook endpoints yet").waitFor();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const url = `${receiver.url}/vigil-hook`;
    await page.getByLabel("Endpoint URL").fill(url);
    // Without an event, the server's message shows beside the events.
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.locator(".settings-events .field-error").waitFor();
    await page.getByLabel("monitor.down").check();
    await page.getByLabel("incident.created").check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = page.locator(".secret-value");
    await secret.waitFor();
    expect(await secret.textContent()).toMatch(/^whsec_/);
    expect(receiver.requests.map((r) => r.headers["x-service-event"])).toEqual(["endpoint.verify"]);

    await page.getByRole("button", { name: `Send a test event to ${url}` }).click();
    await page.getByText("test.ping delivered").waitFor();
    expect(receiver.requests).toHaveLength(2);
    const sent = receiver.requests[1]?.body ?? "";
    expect(JSON.parse(sent)).toMatchObject({ event: "test.ping", attempt: 1 });

    await page.getByRole("link", { name: `Delivery log of ${url}` }).click();
    await page.waitForURL(/\/settings\/webhooks\/whe_/);
    const delivery = page.locator("tr[data-delivery-id]").first();
    await delivery.waitFor();
    expect(await delivery.textContent()).toContain("test.ping");
    expect(await delivery.textContent()).toContain("200");
    await delivery.getByRole("button", { name: "Show bodies" }).click();
    const details = page.locator(".settings-delivery-details");
    await details.waitFor();
    const text = (await details.textContent()) ?? "";
    expect(text).toContain('"event": "test.ping"');
    expect(text).toContain("This is a test delivery from Vigil");
    expect(text).toContain("thanks");
    await dash.screenshot(page, "settings-webhooks");

    await page.getByRole("button", { name: `Disable ${url}` }).click();
    await page.getByRole("button", { name: `Enable ${url}` }).waitFor();
    const endpoints = await dash.owner.get(`/webhooks/${dash.projectId}/endpoints`);
    const list = (await endpoints.json()) as { data: Endpoint[] };
    expect(list.data.map((e) => [e.url, e.isActive])).toEqual([[url, false]]);
    // A disabled endpoint cannot be tested: the button says why.
    expect(
      await page.getByRole("button", { name: `Send a test event to ${url}` }).isDisabled(),
    ).toBe(true);
    expect(console.errors).toEqual([]);
  });

  it("keeps every endpoint's Delete button on screen at 1440 px, with a long URL and every event", async () => {
    const types = (await (await dash.owner.get("/webhooks/event-types")).json()) as {
      data: { type: string }[];
    };
    const url = `${receiver.url}/vigil-hook/${"a-rather-long-path-segment/".repeat(4)}events`;
    const created = await dash.owner.post(`/webhooks/${dash.projectId}/endpoints`, {
      url,
      events: types.data.map((t) => t.type),
    });
    expect(created.status).toBe(201);
    const endpointId = ((await created.json()) as { id: string }).id;
    const { page, console } = await dash.newPage({ width: 1440, height: 900 });
    await dash.signIn(page);
    await page.goto(`${base}/settings/webhooks`);
    const remove = page.getByRole("button", { name: `Delete endpoint ${url}` });
    await remove.waitFor();
    await dash.screenshot(page, "settings-webhooks-1440");
    const box = await remove.boundingBox();
    const scroller = await page.locator(".table-scroll").first().boundingBox();
    expect(box && scroller).toBeTruthy();
    if (!box || !scroller) return;
    // Inside the window and inside the table's visible box: nothing to scroll sideways to find.
    expect(box.x + box.width).toBeLessThanOrEqual(1440);
    expect(box.x + box.width).toBeLessThanOrEqual(scroller.x + scroller.width);
    expect(
      await page
        .locator(".table-scroll")
        .first()
        .evaluate((el) => el.scrollWidth - el.clientWidth),
    ).toBe(0);
    expect(console.errors).toEqual([]);
    // The list as the other cases expect it: without this endpoint.
    const removed = await dash.owner.delete(`/webhooks/${dash.projectId}/endpoints/${endpointId}`);
    expect(removed.status).toBe(204);
    await removed.arrayBuffer();
  });

  it("creates a notification channel from its type's settings, with the server's field errors", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/settings/channels`);
    await page.getByRole("button", { name: "Add channel" }).click();
    await page.getByLabel("Channel name").fill("ops slack");
    await page.getByLabel("Type").selectOption("slack");
    // The type's settings come from the registry: Slack has a webhook URL.
    await page.getByLabel("Webhook URL").fill("ftp://hooks.example.com/services/x");
    await page.getByRole("button", { name: "Add channel", exact: true }).click();
    const fieldError = page.locator(".field.invalid .field-error");
    await fieldError.waitFor();
    expect(await fieldError.textContent()).toContain("http or https");

    await page.getByLabel("Type").selectOption("webhook");
    await page.getByLabel("Channel name").fill("ops hooks");
    await page.getByRole("button", { name: "Add channel", exact: true }).click();
    await row(page, "ops hooks").waitFor();
    await page.getByRole("button", { name: "Send a test notification to ops hooks" }).click();
    await page.getByText("Sample published").waitFor();
    await dash.screenshot(page, "settings-channels");

    await page.getByRole("link", { name: "Edit ops hooks" }).click();
    await page.waitForURL(/\/settings\/channels\/chn_/);
    await page.locator("tbody tr", { hasText: "channel.test" }).waitFor();
    expect(console.errors).toEqual([]);
  });

  it("lists the organization's members with their roles", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/settings/members`);
    const owner = page.locator('tr[data-member="owner@example.com"]');
    await owner.waitFor();
    expect(await owner.getByRole("combobox").inputValue()).toBe("owner");
    expect(await owner.textContent()).toContain("you");
    const viewer = page.locator(`tr[data-member="${VIEWER.email}"]`);
    expect(await viewer.getByRole("combobox").inputValue()).toBe("viewer");
    await dash.screenshot(page, "settings-members");

    // The last owner cannot step down: the server's reason shows in the row.
    await owner.getByRole("combobox").selectOption("admin");
    await owner.getByText("last owner").waitFor();
    expect(console.errors).toEqual([]);
  });

  it("shows a viewer no create or change controls", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page, VIEWER);
    await page.goto(`${base}/settings/api-keys`);
    await page.getByText("Only owners and admins can create or revoke API keys.").waitFor();
    expect(await page.getByRole("button", { name: "Create key" }).count()).toBe(0);
    await page.getByRole("link", { name: "Webhooks", exact: true }).click();
    await page.locator("tr[data-endpoint-id]").first().waitFor();
    expect(await page.getByRole("button", { name: "Add endpoint" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^(Disable|Enable|Delete)/ }).count()).toBe(0);
    await page.getByRole("link", { name: "Notification channels" }).click();
    await page.locator("tr[data-channel-id]").first().waitFor();
    expect(await page.getByRole("button", { name: "Add channel" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /Send a test/ }).count()).toBe(0);
    await page.getByRole("link", { name: "Members", exact: true }).click();
    await page.locator("tr[data-member]").first().waitFor();
    expect(await page.locator("table").getByRole("combobox").count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Remove/ }).count()).toBe(0);
    expect(console.errors).toEqual([]);
  });

  describe("with the demo dataset", () => {
    beforeAll(async () => {
      await dash.seedDemo();
    }, 120_000);

    it("shows AI cost and tokens by model, and the recommendations", async () => {
      const { page, console } = await dash.newPage();
      await dash.signIn(page);
      await page.goto(`${base}/ai?range=6h`);
      const models = page.locator("table.ai-usage").first().locator("tbody tr");
      await models.first().waitFor();
      const first = (await models.first().textContent()) ?? "";
      expect(first).toMatch(/\$\d/);
      expect(await page.getByRole("heading", { name: "Recommendations" }).count()).toBe(1);
      await page.locator(".ai-recommendation").first().waitFor();
      await dash.screenshot(page, "ai");
      await page.getByLabel("Findings area").selectOption("cost");
      await page.waitForURL((u) => u.searchParams.get("context") === "cost");
      await page.getByText(/analyzers ran over cost/).waitFor();
      expect(console.errors).toEqual([]);
    });

    it("lists sessions with filters in the URL and opens one's timeline", async () => {
      const { page, console } = await dash.newPage();
      await dash.signIn(page);
      await page.goto(`${base}/sessions?range=6h`);
      const rows = page.locator("tr[data-session-id]");
      await rows.first().waitFor();
      await page.getByLabel("Errors").selectOption("true");
      await page.waitForURL((u) => u.searchParams.get("has_errors") === "true");
      await page.locator("tr[data-session-id] .badge-bad").first().waitFor();
      await dash.screenshot(page, "sessions");
      const id = (await rows.first().getAttribute("data-session-id")) ?? "";
      await rows.first().getByRole("link").click();
      await page.waitForURL(`**${base}/sessions/${encodeURIComponent(id)}`);
      await page.getByRole("heading", { name: `Session ${id}` }).waitFor();
      const timeline = page.locator(".sessions-row");
      await timeline.first().waitFor();
      expect(await page.locator(".sessions-row-page").count()).toBeGreaterThan(0);
      expect(await page.locator(".sessions-row-request").count()).toBeGreaterThan(0);
      expect(await page.locator(".sessions-row-error").count()).toBeGreaterThan(0);
      await dash.screenshot(page, "sessions-timeline");
      // Only errors, in the URL; each links to its error group or trace.
      for (const kind of ["Page views", "Requests", "AI calls", "Logs"])
        await page.getByRole("checkbox", { name: new RegExp(kind) }).uncheck();
      await page.waitForURL((u) => u.searchParams.get("show") === "error");
      expect(await page.locator(".sessions-row").count()).toBe(
        await page.locator(".sessions-row-error").count(),
      );
      await page.getByRole("link", { name: "← Sessions" }).click();
      await page.waitForURL((u) => u.searchParams.get("has_errors") === "true");
      expect(console.errors).toEqual([]);
    });
  });
});
