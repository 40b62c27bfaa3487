import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ASSERTION_TYPES } from "../src/contracts/monitor-catalog.js";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { VIEWER } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/** The operators a builder's select offers, as values. */
const optionValues = async (select: Locator) => {
  const values: string[] = [];
  for (const option of await select.locator("option").all())
    values.push((await option.getAttribute("value")) ?? "");
  return values;
};

/**
 * Monitors in Chromium: a two-step flow built through the form (extraction and {{token}}), run
 * now passing then failing with its reason, the builder's operators, a field error beside its
 * field, pause and resume; what a viewer sees of monitors and alert rules. The alert rule
 * screens are dashboard-alert-rules.e2e.int.test.ts. The scheduler and evaluator are off: every
 * check here is one the test asks for.
 */
describe.skipIf(!chromiumAvailable)("dashboard: monitors and alerts", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let target: Server;
  let targetBase: string;
  /** What /me answers: 200 with the user, or a failure status. */
  let meStatus = 200;
  const meRequests: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    let issued = 0;
    target = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        const json = (status: number, body: unknown) =>
          res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
        if (req.url === "/login" && req.method === "POST") {
          issued += 1;
          json(200, { token: `tok-${issued}`, user: { name: "ada" } });
        } else if (req.url === "/me") {
          meRequests.push(req.headers);
          if (!/^Bearer tok-\d+$/.test(req.headers.authorization ?? ""))
            json(401, { error: "no token" });
          else if (meStatus !== 200) json(meStatus, { error: "upstream unavailable" });
          else json(200, { name: "ada", plan: "pro" });
        } else json(404, { error: "not found" });
      });
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    targetBase = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    dash = await startDashboard(dir.path, {
      // Run now executes through the engine without the scheduler; off, no check runs by itself.
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
    });
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    await new Promise((resolve) => target?.close(resolve));
    dir.remove();
  });

  const step = (page: Page, n: number) => page.getByRole("region", { name: `Step ${n}` });
  const row = (scope: Locator, name: string) => scope.getByRole("group", { name, exact: true });

  it("builds a two-step flow through the form, runs it passing then failing, pauses and resumes", async () => {
    const { page, console } = await dash.newPage({ height: 1000 });
    await dash.signIn(page);
    await page.goto(`/projects/${dash.projectId}/monitors`);
    await page.getByText("No monitors yet").waitFor();
    await page.getByRole("link", { name: "New monitor" }).click();
    await page.waitForURL(/\/monitors\/new$/);

    await page.getByLabel("Name", { exact: true }).first().fill("Login flow");
    await page.getByLabel("Type", { exact: true }).first().selectOption("flow");
    const first = step(page, 1);
    await first.getByLabel("Method").selectOption("POST");
    await first.getByLabel("URL").fill(`${targetBase}/login`);
    await first.getByLabel("Body").fill('{"user":"ada"}');
    await first.getByRole("button", { name: "Add header" }).click();
    await row(first, "Header 1").getByLabel("Name").fill("content-type");
    await row(first, "Header 1").getByLabel("Value").fill("application/json");

    // The builder offers exactly the operators the server's registry allows for each type.
    const assertion1 = row(first, "Assertion 1");
    expect(await optionValues(assertion1.getByLabel("Operator"))).toEqual([
      ...ASSERTION_TYPES.status_code.operators,
    ]);
    for (const type of ["response_time", "body_not_contains", "json_path"] as const) {
      await assertion1.getByLabel("Type").selectOption(type);
      expect(await optionValues(assertion1.getByLabel("Operator"))).toEqual([
        ...ASSERTION_TYPES[type].operators,
      ]);
    }
    expect(await assertion1.getByLabel("JSON path").count()).toBe(1);
    await assertion1.getByLabel("Type").selectOption("header");
    expect(await assertion1.getByLabel("Header name").count()).toBe(1);
    await assertion1.getByLabel("Type").selectOption("status_code");
    expect(await assertion1.getByLabel("JSON path").count()).toBe(0);
    await assertion1.getByLabel("Value").fill("200");

    // Step 1 extracts the token; a path with recursive descent is refused by the server.
    await first.getByRole("button", { name: "Add variable" }).click();
    await row(first, "Variable 1").getByLabel("Name").fill("token");
    await row(first, "Variable 1").getByLabel("JSON path").fill("$..token");

    await page.getByRole("button", { name: "Add step" }).click();
    const second = step(page, 2);
    await second.getByLabel("URL").fill(`${targetBase}/me`);
    expect(await second.getByText("Variables from earlier steps: {{token}}").count()).toBe(1);
    await second.getByRole("button", { name: "Add header" }).click();
    await row(second, "Header 1").getByLabel("Name").fill("Authorization");
    await row(second, "Header 1").getByLabel("Value").fill("Bearer {{token}}");
    await second.getByRole("button", { name: "Add assertion" }).click();
    const plan = row(second, "Assertion 3");
    await plan.getByLabel("Type").selectOption("json_path");
    await plan.getByLabel("JSON path").fill("$.plan");
    await plan.getByLabel("Operator").selectOption("equals");
    await plan.getByLabel("Value").fill("pro");
    await dash.screenshot(page, "monitors-form");

    await page.getByRole("button", { name: "Create monitor" }).click();
    const path = row(first, "Variable 1").getByLabel("JSON path");
    await path.and(page.locator("[aria-invalid=true]")).waitFor();
    const describedBy = (await path.getAttribute("aria-describedby")) ?? "";
    const message = await page.locator(`[id="${describedBy}"]`).textContent();
    expect(message).toMatch(/recursive descent/i);
    await path.fill("$.token");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await page.waitForURL(/\/monitors\/mon_[^/]+$/);
    const monitorId = page.url().split("/monitors/")[1] ?? "";
    await page.getByRole("heading", { name: "Login flow" }).waitFor();

    await page.getByRole("button", { name: "Run now" }).click();
    const run = page.getByRole("region", { name: "Result of the run" });
    await run.getByRole("heading", { name: "Run now: passed" }).waitFor();
    expect(await run.textContent()).toContain("token = tok-1");
    expect(meRequests.at(-1)?.authorization).toBe("Bearer tok-1");

    meStatus = 503;
    await page.getByRole("button", { name: "Run now" }).click();
    await run.getByRole("heading", { name: "Run now: failed" }).waitFor();
    const reason = await run.locator(".mon-reason").first().textContent();
    expect(reason).toContain("Step 2");
    expect(reason).toContain("503");
    // The results list shows both checks, the failed one with its reason.
    const results = page.getByRole("region", { name: "Results" });
    await results.getByText(/503/).first().waitFor();
    expect(await results.locator("table.mon-results > tbody > tr").count()).toBe(2);
    await results
      .getByRole("button", { name: /^Details of the check/ })
      .first()
      .click();
    const drawer = page.getByRole("dialog", { name: "Check result" });
    await drawer.getByText("HTTP 503").waitFor();
    await drawer.getByRole("button", { name: "Close" }).click();
    await dash.screenshot(page, "monitors-detail");

    // Editing keeps the steps as they were and lands back on the detail.
    await page.getByRole("link", { name: "Edit" }).click();
    await page.waitForURL(/\/edit$/);
    expect(await step(page, 2).getByLabel("URL").inputValue()).toBe(`${targetBase}/me`);
    await page.getByLabel("Check frequency").selectOption("1m");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL(new RegExp(`/monitors/${monitorId}$`));
    await page.getByText(/every 1 min/).waitFor();
    const edited = (await (
      await dash.owner.get(`/api/projects/${dash.projectId}/monitors/${monitorId}`)
    ).json()) as { frequency: string; steps: { headers: { value: string }[] }[] };
    expect(edited.frequency).toBe("1m");
    expect(edited.steps[1]?.headers[0]?.value).toBe("Bearer {{token}}");

    await page.getByRole("button", { name: "Pause" }).click();
    await page.getByRole("button", { name: "Resume" }).waitFor();
    await page.getByText("Paused", { exact: true }).first().waitFor();
    const paused = await dash.owner.get(`/api/projects/${dash.projectId}/monitors/${monitorId}`);
    expect(((await paused.json()) as { status: string }).status).toBe("paused");
    await page.getByRole("button", { name: "Resume" }).click();
    await page.getByRole("button", { name: "Pause" }).waitFor();

    await page.getByRole("link", { name: "← Monitors" }).click();
    const listed = page.getByRole("row", { name: /Login flow/ });
    await listed.waitFor();
    expect(await listed.textContent()).toMatch(/failed/);
    await page.getByLabel("State").selectOption("up");
    await page.getByText("No monitor matches these filters").waitFor();
    expect(page.url()).toContain("state=up");
    await page.getByRole("button", { name: "Clear filters" }).click();
    await listed.waitFor();
    await dash.screenshot(page, "monitors-list");
    meStatus = 200;

    // Delete asks first; then the monitor is gone with its history.
    await page.getByRole("link", { name: "Login flow" }).click();
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("button", { name: "Confirm delete" }).click();
    await page.getByText("No monitors yet").waitFor();
    const gone = await dash.owner.get(`/api/projects/${dash.projectId}/monitors/${monitorId}`);
    expect(gone.status).toBe(404);
    await gone.arrayBuffer();
    expect(console.errors).toEqual([]);
  });

  it("shows a viewer monitors and alert rules without any write control", async () => {
    const created = await dash.owner.post(`/api/projects/${dash.projectId}/monitors`, {
      name: "Read only",
      type: "api",
      steps: [{ url: `${targetBase}/me` }],
    });
    const monitor = (await created.json()) as { id: string };
    const { page, console } = await dash.newPage();
    await dash.signIn(page, VIEWER);
    await page.goto(`/projects/${dash.projectId}/monitors`);
    await page.getByRole("link", { name: "Read only" }).click();
    await page.getByRole("heading", { name: "Read only" }).waitFor();
    for (const name of ["Run now", "Pause", "Delete"])
      expect(await page.getByRole("button", { name }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Edit" }).count()).toBe(0);
    await page.goto(`/projects/${dash.projectId}/monitors`);
    await page.getByRole("link", { name: "Read only" }).waitFor();
    expect(await page.getByRole("link", { name: "New monitor" }).count()).toBe(0);
    await page.goto(`/projects/${dash.projectId}/monitors/${monitor.id}/edit`);
    await page.getByText("Viewers cannot change monitors").waitFor();

    const rule = await dash.owner.post(`/api/projects/${dash.projectId}/alert-rules`, {
      name: "Error logs",
      preset: { kind: "log_count", params: { level: "error" } },
      condition: { op: ">", threshold: 10 },
    });
    const { id: ruleId } = (await rule.json()) as { id: string };
    await page.goto(`/projects/${dash.projectId}/alerts`);
    await page.getByRole("link", { name: "Error logs" }).click();
    await page.getByRole("heading", { name: "Error logs" }).waitFor();
    for (const name of ["Mute…", "Delete", "Save changes", "Preview"])
      expect(await page.getByRole("button", { name, exact: true }).count()).toBe(0);
    expect(await page.getByLabel("Threshold").isDisabled()).toBe(true);
    expect(page.url()).toContain(ruleId);
    await page.goto(`/projects/${dash.projectId}/alerts`);
    await page.getByRole("link", { name: "Error logs" }).waitFor();
    expect(await page.getByRole("link", { name: "New alert rule" }).count()).toBe(0);
    const deleted = await dash.owner.delete(
      `/api/projects/${dash.projectId}/alert-rules/${ruleId}`,
    );
    expect(deleted.status).toBe(204);
    await deleted.arrayBuffer();
    expect(console.errors).toEqual([]);
  });
});
