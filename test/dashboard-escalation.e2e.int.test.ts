import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AlertRuleView } from "../src/contracts/alerts.js";
import type { EscalationPolicyView } from "../src/contracts/escalation.js";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { VIEWER } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/** Settings → Escalation and the alert rule form's escalation picker, in Chromium. */
describe.skipIf(!chromiumAvailable)("dashboard escalation policies", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  const api = (path: string) => `/api/projects/${dash.projectId}${path}`;

  beforeAll(async () => {
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
    });
    for (const name of ["Pager hook", "Lead hook"])
      await dash.owner.post(api("/channels"), { name, type: "webhook", settings: {} });
  }, 180_000);
  afterAll(async () => {
    await dash?.close();
    dir.remove();
  });

  it("adds a policy step by step, shows the server's field errors, edits and lists it", async () => {
    const { page, console } = await dash.newPage({ height: 1100 });
    await dash.signIn(page);
    await page.goto(`/projects/${dash.projectId}/settings/escalation`);
    await page.getByText("No escalation policies yet").waitFor();
    await page.getByRole("button", { name: "Add policy" }).click();
    const form = page.getByRole("form", { name: "Add an escalation policy" });
    await form.getByLabel("Policy name").fill("Checkout on call");
    // No channel in the step: the server's message shows under the step's channels.
    await form.getByRole("button", { name: "Add policy" }).click();
    await form.getByText("give at least one channel").waitFor();
    const step1 = form.getByRole("listitem", { name: "Step 1" });
    await step1.getByLabel("Pager hook").check();
    await form.getByRole("button", { name: "Add step" }).click();
    const step2 = form.getByRole("listitem", { name: "Step 2" });
    await step2.getByLabel("Wait after the previous step (minutes)").fill("20");
    await step2.getByLabel("Lead hook").check();
    await step2.getByLabel("Pager hook").check();
    await form.getByLabel("Repeat the steps (times)").fill("1");
    await dash.screenshot(page, "escalation-form");
    await form.getByRole("button", { name: "Add policy" }).click();
    const row = page.getByRole("row", { name: /Checkout on call/ });
    await row.waitFor();
    expect(await row.textContent()).toContain("2 steps, repeated once");
    expect(await row.textContent()).toContain("+20 min: Lead hook, Pager hook");

    await row.getByRole("button", { name: "Edit Checkout on call" }).click();
    const edit = page.getByRole("form", { name: "Edit Checkout on call" });
    await edit.getByRole("button", { name: "Move step 2 up" }).click();
    await edit.getByLabel("Policy name").fill("Checkout escalation");
    await edit.getByRole("button", { name: "Save policy" }).click();
    await page.getByRole("row", { name: /Checkout escalation/ }).waitFor();
    const { data } = (await (await dash.owner.get(api("/escalation-policies"))).json()) as {
      data: EscalationPolicyView[];
    };
    expect(data.map((p) => [p.name, p.repeat, p.steps.map((s) => s.delayMinutes)])).toEqual([
      ["Checkout escalation", 1, [20, 0]],
    ]);
    await dash.screenshot(page, "escalation-list");
    expect(console.errors).toEqual([]);
  });

  it("attaches the policy in the alert rule form, which opens an incident for it", async () => {
    const { page, console } = await dash.newPage({ height: 1200 });
    await dash.signIn(page);
    await page.goto(`/projects/${dash.projectId}/alerts/new`);
    const form = page.getByRole("form", { name: "Alert rule" });
    await form.getByLabel("Name", { exact: true }).fill("Error logs");
    await form.getByLabel("Preset", { exact: true }).selectOption("log_count");
    await form.getByLabel("Threshold").fill("5");
    const incident = form.getByLabel("Open an incident when it fires");
    expect(await incident.isChecked()).toBe(false);
    await form
      .getByLabel("Escalation policy")
      .selectOption({ label: "Checkout escalation (2 steps, repeated once)" });
    expect(await incident.isChecked()).toBe(true);
    await page.getByRole("button", { name: "Create rule" }).click();
    await page.waitForURL(/\/alerts\/alr_[^/]+$/);
    const ruleId = page.url().split("/alerts/")[1] ?? "";
    const rule = (await (
      await dash.owner.get(api(`/alert-rules/${ruleId}`))
    ).json()) as AlertRuleView;
    const { data } = (await (await dash.owner.get(api("/escalation-policies"))).json()) as {
      data: EscalationPolicyView[];
    };
    expect(rule).toMatchObject({ openIncident: true, escalationPolicyId: data[0]?.id });

    // In use, the policy is not deleted: the 409 names the rule.
    await page.goto(`/projects/${dash.projectId}/settings/escalation`);
    const row = page.getByRole("row", { name: /Checkout escalation/ });
    expect(await row.textContent()).toContain("Error logs (alert)");
    await row.getByRole("button", { name: "Delete policy Checkout escalation" }).click();
    await page.getByRole("button", { name: "Delete policy", exact: true }).click();
    await page.getByText(/still used by alert rule 'Error logs'/).waitFor();
    expect(console.errors).toEqual([]);
  });

  it("shows viewers the policies without the add, edit and delete controls", async () => {
    const { page } = await dash.newPage();
    await dash.signIn(page, VIEWER);
    await page.goto(`/projects/${dash.projectId}/settings/escalation`);
    await page.getByRole("row", { name: /Checkout escalation/ }).waitFor();
    await page.getByText("Viewers can see escalation policies, not change them.").waitFor();
    expect(await page.getByRole("button", { name: "Add policy" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Edit / }).count()).toBe(0);
  });
});
