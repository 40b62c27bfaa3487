import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { until } from "./helpers/page-poll.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const REPORTS = "/api/reports/monthly";

/** Exploring traces in Chromium: an attribute filter narrows the list and the chart; group by route. */
describe.skipIf(!chromiumAvailable)("dashboard traces explorer", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let tracesPath: string;

  beforeAll(async () => {
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
    });
    await dash.seedDemo();
    tracesPath = `/projects/${dash.projectId}/traces`;
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    dir.remove();
  });

  const rows = (page: Page) => page.locator(".trace-table tbody tr");
  const filtersOf = (page: Page) => new URL(page.url()).searchParams.get("filters");
  /** The chart's span count, once it has settled. */
  const chartSpans = async (page: Page) => {
    await until(page, `!document.querySelector(".trace-stats.refreshing")`);
    const text = (await page.locator(".trace-stats-totals strong").first().textContent()) ?? "";
    return Number(text.replace(/[^\d]/g, ""));
  };
  const everyRowHas = (text: string) =>
    `!document.querySelector(".trace-table.refreshing") &&
     document.querySelectorAll(".trace-table tbody tr").length > 0 &&
     [...document.querySelectorAll(".trace-table tbody tr")].every((tr) => tr.textContent.includes(${JSON.stringify(text)}))`;

  it("filters traces by a span attribute: the list and the chart narrow, the URL keeps it", async () => {
    const { page, console } = await dash.newPage({ width: 1440, height: 900 });
    await dash.signIn(page);
    await page.goto(`${tracesPath}?range=6h`);
    await rows(page).first().waitFor();
    await page.locator(".trace-stats canvas").first().waitFor();
    const allSpans = await chartSpans(page);
    expect(allSpans).toBeGreaterThan(1000);

    await page.getByRole("button", { name: "+ Filter" }).click();
    const form = page.getByRole("form", { name: "Add a span filter" });
    await form.getByRole("combobox", { name: "Field" }).fill("attributes.http.route");
    await form.getByLabel("Operator").selectOption("=");
    await form.getByRole("combobox", { name: "Value" }).fill(REPORTS);
    await form.getByRole("button", { name: "Add", exact: true }).click();
    await page.waitForURL((url) => url.searchParams.has("filters"));
    expect(JSON.parse(filtersOf(page) ?? "[]")).toEqual([
      { field: "attributes.http.route", op: "=", value: REPORTS },
    ]);
    await until(page, everyRowHas(REPORTS));
    const reportSpans = await chartSpans(page);
    expect(reportSpans).toBeGreaterThan(0);
    expect(reportSpans).toBeLessThan(allSpans / 4);
    await dash.screenshot(page, "traces-explore-filtered");

    // A reload (or a shared link) shows the same chip, list and chart.
    await page.reload();
    await until(page, everyRowHas(REPORTS));
    expect(await page.getByRole("list", { name: "Span filters" }).textContent()).toContain(
      `attributes.http.route = ${REPORTS}`,
    );
    expect(await chartSpans(page)).toBe(reportSpans);

    // Saved under a name, the filtered view opens again from the plain list.
    await page.getByRole("button", { name: "Saved views" }).click();
    await page.getByLabel("Save this view as").fill("Monthly reports");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("button", { name: "View: Monthly reports" }).waitFor();
    await page.goto(`${tracesPath}?range=6h`);
    await rows(page).first().waitFor();
    await page.getByRole("button", { name: "Saved views" }).click();
    await page.getByRole("link", { name: "Monthly reports" }).click();
    await page.waitForURL((url) => url.searchParams.has("filters"));
    await until(page, everyRowHas(REPORTS));

    await page
      .getByRole("button", { name: `Remove filter attributes.http.route = ${REPORTS}` })
      .click();
    await page.waitForURL((url) => !url.searchParams.has("filters"));
    expect(console.errors).toEqual([]);
  });

  it("groups server spans by route, slowest p95 first, and opens a group's traces", async () => {
    const { page, console } = await dash.newPage({ width: 1440, height: 900 });
    await dash.signIn(page);
    await page.goto(`${tracesPath}?range=6h&span_kind=server`);
    await rows(page).first().waitFor();
    await page.getByRole("tab", { name: "Group by" }).click();
    await page.waitForURL((url) => url.searchParams.get("view") === "groups");
    const groupRows = page.locator(".trace-group-table tbody tr");
    await groupRows.first().waitFor();
    await page.locator(".trace-group-table").getByRole("button", { name: "p95" }).click();
    await page.waitForURL((url) => url.searchParams.get("group_sort") === "p95");
    await until(
      page,
      `!document.querySelector(".trace-group-table.refreshing") &&
       document.querySelector(".trace-group-table tbody tr td")?.textContent === ${JSON.stringify(REPORTS)}`,
    );
    // /api/orders (GET and POST), /api/orders/:id, the reports and the assistant.
    expect(await groupRows.count()).toBe(4);
    await dash.screenshot(page, "traces-explore-groups");

    await groupRows.first().getByRole("button", { name: REPORTS }).click();
    await page.waitForURL(
      (url) => !url.searchParams.has("view") && url.searchParams.has("filters"),
    );
    expect(JSON.parse(filtersOf(page) ?? "[]")).toEqual([
      { field: "http_route", op: "=", value: REPORTS },
    ]);
    await until(page, everyRowHas(REPORTS));

    // The waterfall compares each span with its operation's usual p50 (the demo's earlier hours).
    await rows(page).first().locator("a.trace-link").click();
    await page.waitForURL(/\/traces\/[0-9a-f]{32}$/);
    await page.locator(".wf-rows .wf-usual").first().waitFor();
    expect(await page.locator(".wf-rows .wf-usual").first().textContent()).toMatch(
      /^ · \d+(\.\d)?× p50$/,
    );
    await dash.screenshot(page, "traces-explore-baselines");
    expect(console.errors).toEqual([]);
  });
});
