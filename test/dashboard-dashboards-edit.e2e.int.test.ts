import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DashboardView } from "../src/contracts/dashboards.js";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const QUERY =
  "SELECT $__timeInterval(timestamp) AS t, count() AS spans FROM traces WHERE $__timeFilter(timestamp) AND service_name = {service:String} GROUP BY t ORDER BY t";

/** Drags `from`'s centre by (dx, dy) in small steps, as a hand would. */
async function drag(page: Page, from: Locator, dx: number, dy: number): Promise<void> {
  const box = await from.boundingBox();
  if (!box) throw new Error("nothing to drag");
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(x + (dx * i) / 10, y + (dy * i) / 10);
  await page.mouse.up();
}

/** Dashboard edit mode, the TQL screen's "Add to dashboard" and the alert pre-fill, in Chromium. */
describe.skipIf(!chromiumAvailable)("dashboard editing", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let base: string;
  let dashboardId = "";

  beforeAll(async () => {
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
    });
    await dash.seedDemo(1_500);
    base = `/projects/${dash.projectId}`;
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    dir.remove();
  });

  const read = async (): Promise<DashboardView> =>
    (await (
      await dash.owner.get(`/api/projects/${dash.projectId}/dashboards/${dashboardId}`)
    ).json()) as DashboardView;

  /** Clicks Save and waits for the PATCH's answer. */
  async function save(page: Page): Promise<number> {
    const patch = page.waitForResponse(
      (r) => r.request().method() === "PATCH" && r.url().includes("/dashboards/"),
    );
    await page.getByRole("button", { name: "Save", exact: true }).click();
    return (await patch).status();
  }

  it("runs a query with its placeholder and window, and adds it to a new dashboard", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    const ran = page.waitForResponse(
      (r) => r.url().endsWith("/v1/tql") && r.request().method() === "POST",
    );
    await page.goto(
      `${base}/tql?q=${encodeURIComponent(QUERY)}&var-service=orders-service&range=6h`,
    );
    const response = await ran;
    expect(response.status()).toBe(200);
    const sent = JSON.parse(response.request().postData() ?? "{}") as {
      parameters: Record<string, unknown>;
    };
    expect(sent.parameters).toMatchObject({ service: "orders-service", bucket_seconds: 72 });
    expect(await page.locator("#var-service").inputValue()).toBe("orders-service");

    await page.getByRole("button", { name: "Add to dashboard" }).click();
    const drawer = page.getByRole("dialog", { name: "Add to dashboard" });
    await drawer.getByLabel("New dashboard's title").fill("Orders");
    await drawer.getByLabel("Panel title").fill("Orders spans");
    expect(await drawer.getByLabel("Panel type").inputValue()).toBe("timeseries");
    await drawer.getByRole("button", { name: "Add panel" }).click();
    await drawer.getByRole("link", { name: "Edit the panel" }).click();
    await page.waitForURL(/\/dashboards\/dsh_[^/]+\/edit\?panel=/);
    dashboardId = /\/dashboards\/(dsh_[^/]+)\//.exec(page.url())?.[1] ?? "";

    const saved = await read();
    expect(saved.panels).toHaveLength(1);
    expect(saved.panels[0]).toMatchObject({
      title: "Orders spans",
      type: "timeseries",
      queries: [{ tql: QUERY }],
    });
    expect(saved.panels[0]?.gridPos).toEqual({ x: 0, y: 0, w: 12, h: 8 });
    // The placeholder became a variable starting at the value typed.
    expect(saved.variables).toEqual([
      { type: "text", name: "service", multi: false, includeAll: false, default: "orders-service" },
    ]);
    // The link opens the editor on that panel, its preview drawn.
    const editor = page.getByRole("dialog", { name: /^Edit panel/ });
    await editor.locator(".dse-preview canvas, .dse-preview .u-over").first().waitFor();
    await dash.screenshot(page, "dashboards-edit-panel-editor");
    expect(console.errors).toEqual([]);
  });

  it("edits the panel with a live preview, resizes and moves panels, and saves on its version", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    const previewed = page.waitForResponse((r) => r.url().includes("/v1/dashboards/query"));
    await page.goto(`${base}/dashboards/${dashboardId}/edit?panel=${(await read()).panels[0]?.id}`);
    const editor = page.getByRole("dialog", { name: /^Edit panel/ });
    await editor.waitFor();
    const answer = await previewed;
    expect(answer.status()).toBe(200);
    expect(JSON.parse(answer.request().postData() ?? "{}")).toMatchObject({
      variables: { service: "orders-service" },
    });
    await editor.getByLabel("Title").fill("Orders spans per bucket");
    await editor.getByLabel("Unit").selectOption("count");
    await editor.getByRole("button", { name: "Apply" }).click();
    await editor.waitFor({ state: "detached" });
    await expect.poll(() => page.getByText("Unsaved changes").count()).toBe(1);

    // A second panel, added under the first.
    await page.getByRole("button", { name: "Add panel" }).click();
    const added = page.getByRole("dialog", { name: /^New panel/ });
    await added.getByLabel("Type").selectOption("stat");
    await added.getByLabel("Title").fill("Spans");
    await added.getByRole("button", { name: "Add to dashboard" }).click();
    await added.waitFor({ state: "detached" });

    // Narrow the first panel from its corner, then drag the second up beside it.
    const items = page.locator(".react-grid-item:has(.dse-panel)");
    await expect.poll(() => items.count()).toBe(2);
    const first = items.nth(0);
    const width = (await first.boundingBox())?.width ?? 0;
    await drag(page, first.locator(".react-resizable-handle"), -width / 2, 0);
    const second = items.filter({ hasText: "Spans" }).filter({ hasNotText: "per bucket" });
    const firstBox = await first.boundingBox();
    const secondBox = await second.boundingBox();
    if (!firstBox || !secondBox) throw new Error("panels not drawn");
    await drag(
      page,
      second.locator(".dse-handle"),
      firstBox.x + firstBox.width + 20 - secondBox.x,
      firstBox.y - secondBox.y,
    );
    expect(await save(page)).toBe(200);
    const saved = await read();
    expect(saved.version).toBe(2);
    const [big, stat] = [
      saved.panels.find((p) => p.type === "timeseries"),
      saved.panels.find((p) => p.type === "stat"),
    ];
    expect(big).toMatchObject({ title: "Orders spans per bucket", unit: "count" });
    expect(big?.gridPos.w).toBeLessThanOrEqual(7);
    expect(stat?.gridPos.y).toBe(0);
    expect(stat?.gridPos.x).toBeGreaterThanOrEqual(big?.gridPos.w ?? 12);
    await dash.screenshot(page, "dashboards-edit-grid");
    expect(console.errors).toEqual([]);
  });

  it("never overwrites another save silently: a stale save offers reload or overwrite", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/dashboards/${dashboardId}/edit`);
    await page.locator(".dse-panel").first().waitFor();
    // Someone else saves meanwhile.
    const theirs = await dash.owner.patch(
      `/api/projects/${dash.projectId}/dashboards/${dashboardId}`,
      {
        title: "Orders (theirs)",
        version: (await read()).version,
      },
    );
    expect(theirs.status).toBe(200);

    await page.getByRole("button", { name: "Settings" }).click();
    const settings = page.getByRole("dialog", { name: "Dashboard settings" });
    await settings.getByLabel("Description").fill("Mine");
    await settings.getByRole("button", { name: "Done" }).click();
    expect(await save(page)).toBe(409);
    await page.getByText("changed by someone else since you opened it").waitFor();
    expect((await read()).title).toBe("Orders (theirs)");

    const overwrite = page.waitForResponse((r) => r.request().method() === "PATCH");
    await page.getByRole("button", { name: "Overwrite with mine" }).click();
    expect((await overwrite).status()).toBe(200);
    await page.getByRole("status").filter({ hasText: "Saved" }).first().waitFor();
    const saved = await read();
    expect(saved).toMatchObject({ title: "Orders", description: "Mine", version: 4 });
    expect(console.errors).toEqual([]);
  });

  it("edits variables, and asks before leaving unsaved changes", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/dashboards/${dashboardId}/edit`);
    await page.getByRole("button", { name: "Variables (1)" }).click();
    const variables = page.getByRole("dialog", { name: "Variables" });
    await variables.getByLabel("Kind").selectOption("custom");
    await variables.getByRole("textbox", { name: "Values" }).fill("orders-service, web-frontend");
    await variables.getByLabel("Several values at once").check();
    await variables.getByRole("button", { name: "Add variable" }).click();
    await variables.getByLabel("Name").fill("from");
    expect(await variables.getByRole("button", { name: "Apply" }).isDisabled()).toBe(true);
    await variables.getByLabel("Name").fill("env");
    await variables.getByRole("button", { name: "Move env up" }).click();
    await variables.getByRole("button", { name: "Apply" }).click();

    // Leaving through a link asks first; staying keeps the edits.
    page.once("dialog", (d) => void d.dismiss());
    await page.getByRole("link", { name: "Overview" }).first().click();
    expect(page.url()).toContain("/edit");
    expect(await save(page)).toBe(200);
    const saved = await read();
    expect(saved.variables.map((v) => v.name)).toEqual(["env", "service"]);
    expect(saved.variables[1]).toMatchObject({
      type: "custom",
      values: ["orders-service", "web-frontend"],
      multi: true,
    });
    expect(console.errors).toEqual([]);
  });

  it("pre-fills a new alert rule from a panel's query, made runnable on its own", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    const params = new URLSearchParams({ query: QUERY, name: "Orders spans" });
    params.append("var-service", "web-frontend");
    await page.goto(`${base}/alerts/new?${params.toString()}`);
    const query = page.getByRole("textbox", { name: "TQL query" });
    await query.waitFor();
    expect(await query.inputValue()).toBe(
      "SELECT toStartOfInterval(timestamp, INTERVAL 1 MINUTE) AS t, count() AS spans FROM traces WHERE timestamp >= now() - INTERVAL 5 MINUTE AND service_name = 'web-frontend' GROUP BY t ORDER BY t",
    );
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("Orders spans");
    expect(console.errors).toEqual([]);
  });
});
