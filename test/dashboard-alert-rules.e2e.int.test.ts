import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/**
 * Alert rules in Chromium: a rule from a preset with its preview chart, muted; a threshold in
 * percent with its unit; a rule whose evaluations fail. The evaluator is off: every evaluation
 * here is one the test asks for. (Monitors are dashboard-respond.e2e.int.test.ts.)
 */
describe.skipIf(!chromiumAvailable)("dashboard: alert rules", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;

  beforeAll(async () => {
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
    });
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    dir.remove();
  });

  it("creates an alert rule from a preset, previews it as a chart with its threshold, and mutes it", async () => {
    await dash.seedDemo(600);
    const { page, console } = await dash.newPage({ height: 1000 });
    await dash.signIn(page);
    await page.goto(`/projects/${dash.projectId}/alerts`);
    await page.getByText("No alert rules yet").waitFor();
    await page.getByRole("link", { name: "New alert rule" }).click();
    const form = page.getByRole("form", { name: "Alert rule" });
    await form.getByLabel("Name", { exact: true }).fill("Logs by level");
    await form.getByLabel("Preset", { exact: true }).selectOption("log_count");
    await form.getByLabel("Window").selectOption("24h");
    await form.getByLabel("Group by").selectOption("level");
    await form.getByLabel("Threshold").fill("5");
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByTestId("alert-preview");
    await preview.locator("canvas").first().waitFor();
    expect(await preview.textContent()).toMatch(/level=/);
    await dash.screenshot(page, "alerts-editor");

    await page.getByRole("button", { name: "Create rule" }).click();
    await page.waitForURL(/\/alerts\/alr_[^/]+$/);
    const ruleId = page.url().split("/alerts/")[1] ?? "";
    await page.getByRole("heading", { name: "Logs by level" }).waitFor();
    // A saved rule previews itself on opening.
    await page.getByTestId("alert-preview").locator("canvas").first().waitFor();
    await page.getByText("No events yet").waitFor();

    await page.getByRole("button", { name: "Mute…" }).click();
    await page.getByLabel("Mute for").selectOption("forever");
    await page.getByRole("button", { name: "Mute", exact: true }).click();
    await page.getByText("Muted indefinitely").waitFor();
    const rule = await dash.owner.get(`/api/projects/${dash.projectId}/alert-rules/${ruleId}`);
    expect(await rule.json()).toMatchObject({ muted: true, mutedUntil: null, status: "muted" });
    await dash.screenshot(page, "alerts-rule");

    await page.getByRole("link", { name: "← Alerts" }).click();
    const listed = page.getByRole("row", { name: /Logs by level/ });
    await listed.waitFor();
    expect(await listed.textContent()).toContain("muted");
    await dash.screenshot(page, "alerts-list");

    await page.getByRole("link", { name: "Logs by level" }).click();
    await page.getByRole("button", { name: "Unmute" }).click();
    await page.getByRole("button", { name: "Mute…" }).waitFor();
    expect(console.errors).toEqual([]);
  });

  it("takes an error-rate threshold in percent with its unit beside it, refuses 500%, and warns of a rule without a channel", async () => {
    const { page, console } = await dash.newPage({ height: 1000 });
    await dash.signIn(page);
    await page.goto(`/projects/${dash.projectId}/alerts/new`);
    const form = page.getByRole("form", { name: "Alert rule" });
    await form.getByLabel("Name", { exact: true }).fill("Checkout errors");
    await form.getByLabel("Preset", { exact: true }).selectOption("error_rate");
    // The unit the Overview shows an error rate in, beside the threshold and in its hint.
    const threshold = form.getByLabel("Threshold (%)");
    await threshold.waitFor();
    expect(await form.getByTestId("threshold-unit").textContent()).toBe("%");
    const describedBy = (await threshold.getAttribute("aria-describedby")) ?? "";
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(
      /In percent, 0 to 100.*5 means 5%/,
    );
    // Before saving: no channel is chosen, and the form says what that means.
    expect(await form.getByRole("note").textContent()).toMatch(/notify no one/);
    await threshold.fill("500");
    await page.getByRole("button", { name: "Create rule" }).click();
    await page.getByText("The rule was not saved").waitFor();
    const refusal = page.locator(
      `[id="${(await threshold.getAttribute("aria-describedby")) ?? ""}"]`,
    );
    expect(await refusal.textContent()).toMatch(/percentage, from 0 to 100.*never hold/);
    expect(await threshold.getAttribute("aria-invalid")).toBe("true");
    await dash.screenshot(page, "alerts-threshold-unit");

    await threshold.fill("5");
    // Once the threshold is changed, the refusal of 500% no longer stands beside it.
    expect(await page.getByText("The rule was not saved").count()).toBe(0);
    expect(await threshold.getAttribute("aria-invalid")).toBeNull();
    // The preview speaks the same unit: each series' value in percent.
    await dash.seedDemo(200);
    await form.getByLabel("Window").selectOption("24h");
    await page.getByRole("button", { name: "Preview" }).click();
    const previewed = page.getByTestId("alert-preview");
    await previewed.waitFor();
    expect(await previewed.getByRole("row", { name: /^value/ }).textContent()).toMatch(
      /value\s*\d+(\.\d+)?%/,
    );
    await dash.screenshot(page, "alerts-preview-percent");
    await page.getByRole("button", { name: "Create rule" }).click();
    await page.waitForURL(/\/alerts\/alr_[^/]+$/);
    const ruleId = page.url().split("/alerts/")[1] ?? "";
    await page.getByRole("heading", { name: "Checkout errors" }).waitFor();
    // After saving: the rule's own warning, and its condition in percent.
    const warning = page.getByRole("note").filter({ hasText: "notifies no channel" });
    await warning.waitFor();
    expect(await page.locator(".alr-subtitle").textContent()).toContain("value > 5%");
    const saved = await dash.owner.get(`/api/projects/${dash.projectId}/alert-rules/${ruleId}`);
    expect(await saved.json()).toMatchObject({
      unit: "percent",
      condition: { op: ">", threshold: 5 },
      warnings: [{ code: "no_channels" }],
    });
    await dash.screenshot(page, "alerts-no-channel");
    await page.getByRole("link", { name: "← Alerts" }).click();
    const listed = page.getByRole("row", { name: /Checkout errors/ });
    await listed.waitFor();
    expect(await listed.textContent()).toMatch(/notifies no one.*value > 5%/);
    const deleted = await dash.owner.delete(
      `/api/projects/${dash.projectId}/alert-rules/${ruleId}`,
    );
    expect(deleted.status).toBe(204);
    await deleted.arrayBuffer();
    expect(console.errors).toEqual([]);
  });

  it("shows a rule whose evaluations fail as failing, with why and when it runs next", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    const created = await dash.owner.post(`/api/projects/${dash.projectId}/alert-rules`, {
      name: "Broken query",
      query: "SELECT count() AS value FROM logs",
      condition: { op: ">", threshold: 5 },
    });
    const ruleId = ((await created.json()) as { id: string }).id;
    // Its query breaks (a column dropped, say): two scheduled evaluations fail in a row.
    const { repos } = dash.service.deps.meta;
    const stored = await repos.alertRules.findById(ruleId);
    if (!stored) throw new Error("rule gone");
    await repos.alertRules.updateDefinition(ruleId, {
      ...stored,
      query: "SELECT no_such_column AS value FROM logs",
    });
    const { engine } = dash.service.deps.alerts;
    await engine.evaluateScheduled(ruleId);
    await engine.evaluateScheduled(ruleId);

    await page.goto(`/projects/${dash.projectId}/alerts`);
    const listed = page.getByRole("row", { name: /Broken query/ });
    await listed.waitFor();
    expect(await listed.textContent()).toContain("failing");
    expect(await listed.textContent()).not.toMatch(/\bok\b/);
    await listed.getByRole("link", { name: "Broken query" }).click();
    const status = page.getByRole("status").filter({ hasText: "Failing since" });
    await status.waitFor();
    expect(await status.textContent()).toMatch(
      /2 evaluations in a row failed \([\s\S]*no_such_column[\s\S]*\)\. Backing off: next evaluation/,
    );
    await dash.screenshot(page, "alerts-failing");
    // The Overview's alerts tile does not say all is quiet: none firing, but one failing.
    await page.goto(`/projects/${dash.projectId}/overview`);
    const tile = page.locator(".overview-tiles").getByRole("link", { name: /^Active alerts/ });
    await tile.getByText(/1 failing/).waitFor();
    expect(await tile.textContent()).toMatch(/none firing.*1 failing/);
    await dash.screenshot(page, "overview-alerts-failing");
    expect(console.errors).toEqual([]);
  });
});
