import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DashboardExport, DashboardView } from "../src/contracts/dashboards.js";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { VIEWER } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/** Each panel frame's name and state, in the page (the root type check has no DOM). */
const PANEL_STATES = `[...document.querySelectorAll(".dsh-panel")].map((p) => [
  p.getAttribute("aria-label") ?? "",
  p.getAttribute("data-state") ?? "",
])`;

/** Every panel on the page has answered (or failed): what each one's frame says. */
async function settledPanels(page: Page): Promise<Record<string, string>> {
  // Polled from here: the page's CSP refuses the string functions waitForFunction would run.
  const states = async () => (await page.evaluate(PANEL_STATES)) as [string, string][];
  await expect
    .poll(
      async () => {
        const now = await states();
        return now.length > 0 && now.every(([, state]) => state !== "loading");
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  return Object.fromEntries(await states());
}

/** The dashboard list, the template gallery and view mode, in Chromium, as an owner and a viewer. */
describe.skipIf(!chromiumAvailable)("dashboards in view mode", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let base: string;
  let installed = "";

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

  it("installs Service overview from the gallery and paints every panel with data", async () => {
    const { page, console } = await dash.newPage({ width: 1400, height: 1000 });
    await dash.signIn(page);
    await page.goto(`${base}/dashboards`);
    const card = page.getByRole("listitem", { name: "Service overview" });
    await card.getByText("has data").waitFor();
    await card.getByRole("button", { name: "Install Service overview" }).click();
    await page.waitForURL(/\/dashboards\/dsh_[^/?]+$/);
    installed = /\/dashboards\/(dsh_[^/?]+)/.exec(page.url())?.[1] ?? "";

    const states = await settledPanels(page);
    expect(Object.keys(states).length).toBeGreaterThanOrEqual(10);
    expect(Object.entries(states).filter(([, s]) => s !== "done")).toEqual([]);
    // Drawn, not "no data": the time series and the table have something in them.
    expect(await page.locator(".dsh-panel[data-state=done] canvas").count()).toBeGreaterThan(0);
    expect(await page.getByRole("button", { name: "Service", exact: true }).textContent()).toBe(
      "All",
    );
    await dash.screenshot(page, "dashboards-view-service-overview");
    expect(console.errors).toEqual([]);
  });

  it("keeps variables, the range and auto refresh in the URL, and the panels follow", async () => {
    const { page, console } = await dash.newPage({ width: 1400, height: 1000 });
    await dash.signIn(page);
    await page.goto(`${base}/dashboards/${installed}`);
    await settledPanels(page);

    await page.getByRole("button", { name: "Service", exact: true }).click();
    const asked = page.waitForResponse(
      (r) =>
        r.url().includes("/v1/dashboards/query") &&
        /"service":\["[^"]+"\]/.test(r.request().postData() ?? ""),
    );
    const options = page.locator(".dsh-multi-list input[type=checkbox]");
    // The first is All: pick the first service alone.
    await options.nth(1).check();
    expect((await asked).status()).toBe(200);
    const url = new URL(page.url());
    expect(url.searchParams.getAll("var-service")).toHaveLength(1);
    await page.keyboard.press("Escape");
    expect(Object.values(await settledPanels(page)).every((s) => s === "done")).toBe(true);

    await page.getByLabel("Time range").selectOption("6h");
    await expect.poll(() => new URL(page.url()).searchParams.get("range")).toBe("6h");
    await page.getByLabel("Auto refresh").selectOption("30s");
    await expect.poll(() => new URL(page.url()).searchParams.get("refresh")).toBe("30s");

    // A reload shows the same choices.
    await page.reload();
    await settledPanels(page);
    expect(await page.getByLabel("Time range").inputValue()).toBe("6h");
    expect(await page.getByLabel("Auto refresh").inputValue()).toBe("30s");
    expect(await page.getByRole("button", { name: "Service", exact: true }).textContent()).not.toBe(
      "All",
    );
    expect(console.errors).toEqual([]);
  });

  it("zooms the whole dashboard by dragging across a time series", async () => {
    const { page, console } = await dash.newPage({ width: 1400, height: 1000 });
    await dash.signIn(page);
    await page.goto(`${base}/dashboards/${installed}?range=1h`);
    await settledPanels(page);
    const plot = page
      .locator(".dsh-panel[data-state=done]", { has: page.locator(".u-over") })
      .first()
      .locator(".u-over");
    const box = await plot.boundingBox();
    if (!box) throw new Error("no time series drawn");
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.3, y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + box.width * (0.3 + 0.03 * i), y);
    await page.mouse.up();
    await expect.poll(() => new URL(page.url()).searchParams.get("from")).not.toBeNull();
    const url = new URL(page.url());
    expect(url.searchParams.get("range")).toBeNull();
    const from = Date.parse(url.searchParams.get("from") ?? "");
    const to = Date.parse(url.searchParams.get("to") ?? "");
    expect(to - from).toBeGreaterThan(0);
    expect(to - from).toBeLessThan(60 * 60_000);
    expect(Object.values(await settledPanels(page)).every((s) => s === "done")).toBe(true);
    expect(console.errors).toEqual([]);
  });

  it("keeps a failing panel's error inside it, folds rows, and stacks panels on a phone", async () => {
    const spans =
      "SELECT $__timeInterval(timestamp) AS t, count() AS spans FROM traces WHERE $__timeFilter(timestamp) GROUP BY t ORDER BY t";
    const created = await dash.owner.post(`/api/projects/${dash.projectId}/dashboards`, {
      title: "Rows and errors",
      rows: [{ id: "more", title: "More", y: 8 }],
      panels: [
        {
          id: "good",
          title: "Spans",
          type: "timeseries",
          gridPos: { x: 0, y: 0, w: 6, h: 8 },
          queries: [{ tql: spans }],
        },
        {
          id: "bad",
          title: "Broken",
          type: "stat",
          gridPos: { x: 6, y: 0, w: 6, h: 8 },
          queries: [{ tql: "SELECT nope FROM nowhere" }],
        },
        {
          id: "under",
          title: "Under the row",
          type: "text",
          gridPos: { x: 0, y: 9, w: 12, h: 3 },
          content: "**below**",
        },
      ],
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as DashboardView;
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/dashboards/${id}`);
    expect(await settledPanels(page)).toEqual({
      Spans: "done",
      Broken: "error",
      "Under the row": "done",
    });
    const broken = page.getByRole("region", { name: "Broken" });
    await broken.getByRole("alert").waitFor();
    expect(
      await page.getByRole("region", { name: "Spans" }).locator("canvas").count(),
    ).toBeGreaterThan(0);

    const row = page.getByRole("button", { name: "More" });
    expect(await row.getAttribute("aria-expanded")).toBe("true");
    await row.click();
    await page.getByRole("region", { name: "Under the row" }).waitFor({ state: "detached" });
    expect(await row.textContent()).toContain("(1 panel)");
    await row.click();
    await page.getByRole("region", { name: "Under the row" }).waitFor();

    await page.setViewportSize({ width: 420, height: 900 });
    await expect
      .poll(async () => {
        const a = await page.getByRole("region", { name: "Spans" }).boundingBox();
        const b = await page.getByRole("region", { name: "Broken" }).boundingBox();
        return a && b ? b.y > a.y + a.height - 1 && Math.abs(a.width - b.width) < 2 : false;
      })
      .toBe(true);
    await dash.screenshot(page, "dashboards-view-narrow");
    expect(console.errors).toEqual([]);
  });

  it("opens a panel full screen (Escape closes it) and explores its query", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/dashboards/${installed}`);
    await settledPanels(page);
    await page.getByRole("button", { name: "Panel menu: Error rate by service" }).click();
    await page.getByRole("button", { name: "View" }).click();
    const full = page.getByRole("dialog", { name: "Error rate by service" });
    await full.waitFor();
    expect(new URL(page.url()).searchParams.get("view")).not.toBeNull();
    await page.keyboard.press("Escape");
    await full.waitFor({ state: "detached" });

    await page.getByRole("button", { name: "Panel menu: Error rate by service" }).click();
    const explore = page.getByRole("link", { name: "Explore" });
    const href = new URL((await explore.getAttribute("href")) ?? "", dash.baseUrl);
    expect(href.pathname).toBe(`${base}/tql`);
    expect(href.searchParams.get("q")).toContain("http_requests");
    expect(href.searchParams.get("range")).toBe("1h");
    await explore.click();
    await page.waitForURL(/\/tql\?/);
    expect(console.errors).toEqual([]);
  });

  it("lists dashboards: search, star first, export, duplicate, delete, and import with errors named", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/dashboards`);
    await page.getByRole("button", { name: "New dashboard" }).click();
    await page.getByLabel("Title").fill("Zeta board");
    await page.getByRole("button", { name: "Create and edit" }).click();
    await page.waitForURL(/\/dashboards\/dsh_[^/]+\/edit/);

    await page.goto(`${base}/dashboards`);
    const titles = () => page.locator(".dsh-table tbody tr td:nth-child(2) > a").allTextContents();
    await expect.poll(titles).toEqual(["Rows and errors", "Service overview", "Zeta board"]);
    await page.getByRole("button", { name: "Star Zeta board" }).click();
    await expect.poll(titles).toEqual(["Zeta board", "Rows and errors", "Service overview"]);
    await page.getByLabel("Search").fill("zeta");
    await expect.poll(titles).toEqual(["Zeta board"]);
    await page.getByLabel("Search").fill("");

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export Service overview" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("service-overview.dashboard.json");
    const exported = JSON.parse(
      await (await file.createReadStream()).toArray().then((c) => Buffer.concat(c).toString()),
    ) as DashboardExport;
    expect(exported.schemaVersion).toBe(1);

    await page.getByRole("button", { name: "Duplicate Zeta board" }).click();
    await expect.poll(titles).toContain("Zeta board (copy)");
    await page.getByRole("button", { name: "Delete Zeta board (copy)" }).click();
    await page.getByRole("button", { name: "Delete dashboard" }).click();
    await expect.poll(titles).not.toContain("Zeta board (copy)");

    await page.getByRole("button", { name: "Import" }).click();
    await page
      .getByLabel("Or paste its JSON")
      .fill(JSON.stringify({ ...exported, schemaVersion: 9 }));
    await page.getByRole("button", { name: "Import", exact: true }).last().click();
    await page.getByRole("alert").filter({ hasText: "schemaVersion" }).waitFor();
    await page
      .getByLabel("Or paste its JSON")
      .fill(JSON.stringify({ ...exported, title: "Imported overview" }));
    await page.getByRole("button", { name: "Import", exact: true }).last().click();
    await page.waitForURL(/\/dashboards\/dsh_[^/?]+$/);
    await page.getByRole("heading", { name: "Imported overview" }).waitFor();
    expect(console.errors).toEqual([]);
  });

  it("shows a viewer no control that writes, but lets them star", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page, VIEWER);
    await page.goto(`${base}/dashboards`);
    await page.getByRole("link", { name: "Service overview" }).first().waitFor();
    for (const name of [
      "New dashboard",
      "Import",
      "Install Service overview",
      "Delete Service overview",
      "Duplicate Service overview",
    ])
      expect(await page.getByRole("button", { name, exact: true }).count()).toBe(0);
    await page.getByRole("button", { name: "Star Service overview" }).click();
    await page.getByRole("button", { name: "Unstar Service overview" }).waitFor();

    await page.goto(`${base}/dashboards/${installed}`);
    await settledPanels(page);
    expect(await page.getByRole("link", { name: "Edit" }).count()).toBe(0);
    await page.getByRole("button", { name: "Panel menu: Requests", exact: true }).click();
    await page.getByRole("link", { name: "Explore" }).waitFor();
    expect(await page.getByRole("link", { name: "Create alert" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Edit" }).count()).toBe(0);
    // The edit URL shows the dashboard instead.
    await page.goto(`${base}/dashboards/${installed}/edit`);
    await page.waitForURL(new RegExp(`/dashboards/${installed}$`));
    const view = (await (
      await dash.owner.get(`/api/projects/${dash.projectId}/dashboards/${installed}`)
    ).json()) as DashboardView;
    expect(view.title).toBe("Service overview");
    expect(console.errors).toEqual([]);
  });
});
