import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { until } from "./helpers/page-poll.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/** The demo's hosts (src/demo/host-metrics.ts), each its own `host.name`. */
const HOSTS = ["api-gateway-1", "assistant-1", "db-1", "orders-service-1"];
const LOAD = "system.cpu.load_average.1m";

/**
 * The Metrics area in Chromium on the demo's host metrics: a host metric charted by host
 * without typing SQL (search, choose, group by a resource attribute), then added to a new
 * dashboard whose panel draws the same series; a counter read as a rate.
 */
describe.skipIf(!chromiumAvailable)("dashboard metrics explorer", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let base: string;

  beforeAll(async () => {
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
    });
    await dash.seedDemo(300);
    base = `/projects/${dash.projectId}`;
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    dir.remove();
  });

  const search = (page: Page) => new URL(page.url()).searchParams;
  const legend = (page: Page, scope: string) =>
    page.locator(`${scope} .panel-legend-name`).allTextContents();
  /** Each series' latest value as the legend shows it (`17,828`), by series name. */
  const latest = async (page: Page, scope: string) => {
    const names = await legend(page, scope);
    const values = await page.locator(`${scope} .panel-legend-value`).allTextContents();
    return Object.fromEntries(names.map((n, i) => [n, Number(values[i]?.replace(/,/g, ""))]));
  };

  it("charts a host metric by host, then adds it to a dashboard", async () => {
    const { page, console } = await dash.newPage({ width: 1440, height: 1000 });
    await dash.signIn(page);
    await page.goto(`${base}/metrics?range=1h`);
    await page.getByRole("heading", { name: "Metrics", level: 1 }).waitFor();
    await page.locator(".metrics-name").first().waitFor();

    // The search narrows the list (on the server) and goes to the URL.
    await page.getByLabel("Search metrics").fill("load_average");
    await page.waitForURL((url) => url.searchParams.get("search") === "load_average");
    await until(
      page,
      `[...document.querySelectorAll(".metrics-name-text")].every((e) => e.textContent.includes("load_average"))`,
    );
    const names = await page.locator(".metrics-name-text").allTextContents();
    expect(names).toEqual(expect.arrayContaining([LOAD, "system.cpu.load_average.5m"]));
    expect(await page.locator(".metrics-name", { hasText: LOAD }).textContent()).toContain("gauge");

    await page.locator(".metrics-name", { hasText: LOAD }).click();
    await page.waitForURL((url) => url.searchParams.get("metric") === LOAD);
    expect(search(page).get("type")).toBe("gauge");
    // A gauge starts as an average, one series for the whole project.
    const aggregation = page.getByLabel("Aggregation");
    expect(await aggregation.locator("option:checked").textContent()).toBe("Average (default)");
    await until(
      page,
      `document.querySelectorAll(".metrics-chart .panel-legend-item").length === 1`,
    );

    // Group by the resource's host.name: one series per host.
    await page.getByRole("checkbox", { name: "host.name" }).check();
    await page.waitForURL((url) => url.searchParams.get("by") === "resource.host.name");
    await until(
      page,
      `document.querySelectorAll(".metrics-chart .panel-legend-item").length === 4`,
    );
    expect((await legend(page, ".metrics-chart")).sort()).toEqual(HOSTS);
    expect(await page.locator(".metrics-chart canvas").count()).toBeGreaterThan(0);
    const tql = await page.locator(".metrics-tql-text").textContent();
    expect(tql).toContain("resource_attributes['host.name'] AS host_name");
    expect(tql).toContain(`metric_name = '${LOAD}'`);
    await dash.screenshot(page, "metrics-explorer");

    // Create alert: the rule form on the same aggregation over the last five minutes.
    const alertHref =
      (await page.getByRole("link", { name: "Create alert" }).getAttribute("href")) ?? "";
    const alertQuery = new URL(alertHref, dash.baseUrl).searchParams.get("query") ?? "";
    expect(alertQuery).toContain("timestamp >= now() - INTERVAL 5 MINUTE");
    expect(alertQuery).toMatch(/^SELECT host_name, avg\(v\) AS value/);

    // Add to dashboard: a new dashboard whose time series panel draws the same four hosts.
    await page.getByRole("button", { name: "Add to dashboard" }).click();
    const drawer = page.getByRole("dialog", { name: "Add to dashboard" });
    await drawer.getByLabel("New dashboard's title").fill("Hosts");
    expect(await drawer.getByLabel("Panel title").inputValue()).toBe(`${LOAD} · avg by host.name`);
    expect(await drawer.getByLabel("Panel type").inputValue()).toBe("timeseries");
    await drawer.getByRole("button", { name: "Add panel" }).click();
    await drawer.getByRole("link", { name: "Open the dashboard" }).click();
    await page.waitForURL(/\/dashboards\/dsh_[^/?]+/);
    await page.locator(".dsh-panel[data-state=done] canvas").first().waitFor();
    await until(page, `document.querySelectorAll(".dsh-panel .panel-legend-item").length === 4`);
    expect((await legend(page, ".dsh-panel")).sort()).toEqual(HOSTS);
    await dash.screenshot(page, "metrics-explorer-dashboard");
    expect(console.errors).toEqual([]);
  });

  it("reads a counter as a rate per second, filtered from the form, and reopens from its link", async () => {
    const { page, console } = await dash.newPage({ width: 1440, height: 1000 });
    await dash.signIn(page);
    const by = encodeURIComponent("resource.host.name");
    await page.goto(
      `${base}/metrics?range=1h&metric=system.network.io&type=sum&monotonic=1&by=${by}`,
    );
    const aggregation = page.getByLabel("Aggregation");
    await aggregation.waitFor();
    expect(await aggregation.locator("option:checked").textContent()).toBe(
      "Rate per second (default)",
    );
    expect(await page.getByRole("checkbox", { name: "host.name" }).isChecked()).toBe(true);

    // Only what the hosts receive: a filter on the point attribute `direction`.
    const form = page.getByRole("form", { name: "Add a filter" });
    await form.getByLabel("Filter field").selectOption("attributes.direction");
    await form.getByLabel("Filter value").fill("receive");
    await form.getByRole("button", { name: "Add filter" }).click();
    await page.waitForURL((url) => (url.searchParams.get("filters") ?? "").includes("receive"));
    expect(JSON.parse(search(page).get("filters") ?? "[]")).toEqual([
      { field: "attributes.direction", op: "=", value: "receive" },
    ]);
    // The link opens the same chart.
    await page.reload();
    await page.getByText("attributes.direction = receive").waitFor();
    await until(
      page,
      `document.querySelectorAll(".metrics-chart .panel-legend-item").length === 4`,
    );
    expect((await legend(page, ".metrics-chart")).sort()).toEqual(HOSTS);
    // The demo's hosts receive 1 and 4 MB a minute, ±20 % each minute: bytes per second.
    const rates = await latest(page, ".metrics-chart");
    expect(rates["api-gateway-1"]).toBeGreaterThanOrEqual((0.8 * 1_000_000) / 60 - 1);
    expect(rates["api-gateway-1"]).toBeLessThanOrEqual((1.2 * 1_000_000) / 60 + 1);
    expect(rates["db-1"]).toBeGreaterThanOrEqual((0.8 * 4_000_000) / 60 - 1);
    expect(rates["db-1"]).toBeLessThanOrEqual((1.2 * 4_000_000) / 60 + 1);
    const tql = (await page.locator(".metrics-tql-text").textContent()) ?? "";
    expect(tql).toContain("sum(inc_value) / (sum(dt) / 1000)");
    expect(tql).toContain("attributes['direction'] = 'receive'");
    expect(console.errors).toEqual([]);
  });
});
