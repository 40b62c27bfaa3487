import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import {
  bodyOf,
  type FakeVendor,
  opsgenieRules,
  startFakeVendor,
  telegramRules,
} from "./helpers/fake-vendor.js";
import { makeTempDir } from "./helpers/temp-dir.js";

// The channel form is built from GET /api/channel-types: the vendor types render their settings
// (a secret key, a region as a select, an optional API URL), are created from the UI, and their
// test action reaches the local fake vendor.

const OPSGENIE_KEY = randomUUID();
const BOT_TOKEN = `777:${randomBytes(18).toString("base64url")}`;

describe.skipIf(!chromiumAvailable)("vendor channels in the dashboard", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let opsgenie: FakeVendor;
  let telegram: FakeVendor;
  let base: string;

  beforeAll(async () => {
    opsgenie = await startFakeVendor(opsgenieRules(OPSGENIE_KEY));
    telegram = await startFakeVendor(telegramRules(BOT_TOKEN, "-10042"));
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      // The fakes listen on loopback.
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
    });
    base = `/projects/${dash.projectId}`;
  }, 180_000);
  afterAll(async () => {
    await dash?.close();
    await opsgenie?.close();
    await telegram?.close();
    dir.remove();
  });

  it("creates an Opsgenie channel with a region and tests it; shows Telegram's field errors", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/settings/channels`);
    await page.getByRole("button", { name: "Add channel" }).click();
    await page.getByLabel("Channel name").fill("ops genie");
    await page.getByLabel("Type").selectOption("opsgenie");
    const region = page.getByLabel("Region");
    expect(await region.inputValue()).toBe("us");
    await region.selectOption("eu");
    await page.getByLabel("API key").fill(OPSGENIE_KEY);
    await page.getByLabel("API URL").fill(opsgenie.url);
    await page.getByRole("button", { name: "Add channel", exact: true }).click();
    const row = page.locator("tbody tr", { hasText: "ops genie" });
    await row.waitFor();
    expect(await row.textContent()).toContain("region: eu");
    expect(await row.textContent()).not.toContain(OPSGENIE_KEY);
    await page.getByRole("button", { name: "Send a test notification to ops genie" }).click();
    await page.getByText("✓ Test notification sent").waitFor();
    expect(opsgenie.requests.at(-1)?.headers.authorization).toBe(`GenieKey ${OPSGENIE_KEY}`);
    expect(bodyOf(opsgenie.requests.at(-1)).tags).toContain("test");

    await page.getByRole("button", { name: "Add channel" }).click();
    await page.getByLabel("Channel name").fill("ops telegram");
    await page.getByLabel("Type").selectOption("telegram");
    await page.getByLabel("Chat ID").fill("not a chat");
    await page.getByLabel("Bot token").fill(BOT_TOKEN);
    await page.getByRole("button", { name: "Add channel", exact: true }).click();
    const fieldError = page.locator(".field.invalid .field-error");
    await fieldError.waitFor();
    expect(await fieldError.textContent()).toContain("chat id");
    await page.getByLabel("Chat ID").fill("-10042");
    await page.getByLabel("API URL").fill(telegram.url);
    await page.getByRole("button", { name: "Add channel", exact: true }).click();
    await page.locator("tbody tr", { hasText: "ops telegram" }).waitFor();
    await page.getByRole("button", { name: "Send a test notification to ops telegram" }).click();
    await expect.poll(() => telegram.requests.length).toBe(1);
    expect(bodyOf(telegram.requests[0])).toMatchObject({ chat_id: "-10042", parse_mode: "HTML" });
    await expect.poll(() => page.getByText("✓ Test notification sent").count()).toBe(2);
    await dash.screenshot(page, "settings-channels-vendors");
    expect(console.errors).toEqual([]);
  });
});
