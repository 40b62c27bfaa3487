import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Panel } from "../src/contracts/dashboards.js";
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable, SCREENSHOTS } from "./helpers/browser.js";
import { FIXTURES, WINDOW } from "./helpers/panel-fixtures.js";
import { bundleForBrowser, webSource } from "./helpers/web-bundle.js";

const URL = "http://vigil.test/projects/p1/dashboards/d1";

/** The page: the app's styles and PanelBody in frames on a grid, inside project p1. */
const ENTRY = `
import { createElement as h } from "react";
import { createRoot } from "react-dom/client";
import { PanelBody } from ${webSource("screens/dashboards/panels/index.tsx")};
import { ProjectContext } from ${webSource("screens/project-context.tsx")};
import { ApiError } from ${webSource("api/client.ts")};
import ${webSource("styles/tokens.css")};
import ${webSource("styles/layout.css")};
import ${webSource("styles/controls.css")};
import ${webSource("styles/states.css")};
window.__zooms = [];
export function mount(fixtures, window_) {
  const cells = fixtures.map((f) =>
    h("section", { className: "cell", "data-panel": f.panel.id, key: f.panel.id },
      h("h3", null, f.panel.title),
      h("div", { className: "frame" },
        h(PanelBody, {
          panel: f.panel,
          results: f.results,
          error: f.error ? new ApiError(f.error) : undefined,
          window: window_,
          onZoom: (from, to) => window.__zooms.push([from, to]),
        }))));
  const scope = { project: { id: "p1", orgId: "o1" }, role: "owner" };
  createRoot(document.getElementById("root")).render(
    h(ProjectContext.Provider, { value: scope }, h("main", { className: "grid" }, cells)));
}`;

const GRID_CSS = `.grid { display: grid; grid-template-columns: repeat(3, 1fr); gap: 12px; padding: 12px; }
.cell { background: var(--panel); border: 1px solid var(--border); border-radius: 6px; padding: 8px;
  height: 300px; display: flex; flex-direction: column; min-width: 0; }
.frame { flex: 1; min-height: 0; }`;

/**
 * Every panel type drawn by PanelBody in Chromium from results shaped as their queries answer:
 * what each shows, the states (no rows, a failed query, rows it cannot draw, a renderer that
 * throws), links, sorting, the tooltip and drag-to-zoom, on the light and the dark theme.
 */
describe.skipIf(!chromiumAvailable)("dashboard panel bodies", () => {
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    const { js, css } = await bundleForBrowser(ENTRY);
    const panels = FIXTURES.map((f) => {
      const panel: Record<string, unknown> = Panel.parse(f.panel);
      if (f.panel.id === "broken") panel.thresholds = 42;
      return { ...f, panel };
    });
    // The script is served, not inlined, and the fixtures are handed over by evaluate: their
    // hostile text ("</script>") never meets the HTML parser.
    const html = `<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="/app.css">
</head><body><div id="root"></div><script src="/app.js"></script></body></html>`;
    const files: Record<string, { type: string; body: string }> = {
      "/app.js": { type: "text/javascript", body: js },
      "/app.css": { type: "text/css", body: `${css}\n${GRID_CSS}` },
    };
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1400, height: 1700 } });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.route("http://vigil.test/**", (route) => {
      const file = files[new globalThis.URL(route.request().url()).pathname];
      return route.fulfill(
        file
          ? { contentType: file.type, body: file.body }
          : { contentType: "text/html", body: html },
      );
    });
    await page.goto(URL);
    await page.evaluate(`VigilTest.mount(${JSON.stringify(panels)}, ${JSON.stringify(WINDOW)})`);
    await page.locator("[data-panel=heatmap] canvas").first().waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  const cell = (id: string) => page.locator(`[data-panel=${id}]`);

  it("draws every type, on the light and the dark theme, with nothing thrown", async () => {
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(SCREENSHOTS, `panels-${scheme}.png`), fullPage: true });
    }
    await page.emulateMedia({ colorScheme: "light" });
    expect(pageErrors).toEqual([]);
    for (const id of ["ts", "bars", "heatmap"])
      expect(await cell(id).locator("canvas").count(), id).toBeGreaterThan(0);
    expect(await cell("ts").locator(".panel-legend-name").allTextContents()).toEqual([
      "checkout",
      "gateway",
      "search",
    ]);
    expect(await cell("pie").locator("svg path").count()).toBe(4);
    expect(await cell("pie").locator(".panel-legend-share").first().textContent()).toMatch(/%/);
    expect(await cell("bargauge").locator(".panel-bar").count()).toBe(4);
  });

  it("shows a stat in its unit and threshold colour", async () => {
    const value = cell("stat").locator(".panel-stat-value").first();
    expect(await value.textContent()).toMatch(/^\d+(\.\d+)? ms$/);
    const [color, orange] = (await page.evaluate(`(() => {
      const style = getComputedStyle(document.querySelector("[data-panel=stat] .panel-stat-value"));
      return [style.color, style.getPropertyValue("--panel-orange")];
    })()`)) as [string, string];
    const hex = orange.trim().replace("#", "");
    const rgb = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(", ");
    expect(color).toBe(`rgb(${rgb})`);
  });

  it("keeps every failure inside its panel, and says why", async () => {
    expect(await cell("empty").textContent()).toContain("No data in this window");
    expect(await cell("failed").getByRole("alert").textContent()).toContain(
      "Unknown column 'durration_ms'",
    );
    expect(await cell("shape").textContent()).toContain("needs a Date or DateTime column");
    expect(await cell("broken").getByRole("alert").textContent()).toContain(
      "This panel failed to draw",
    );
  });

  it("links logs and traces to their screens, and panel links with the row's values", async () => {
    const logLinks = cell("logs").locator(".panel-log").first().locator("a");
    expect(await logLinks.allTextContents()).toEqual(["Log", "Trace"]);
    const log = new globalThis.URL((await logLinks.first().getAttribute("href")) ?? "", "http://x");
    expect(log.pathname).toBe("/projects/p1/logs");
    expect(log.searchParams.get("log")).toBe("log1");
    expect(await logLinks.nth(1).getAttribute("href")).toBe("/projects/p1/traces/aa11");
    // The message is text: markup in a log line stays inert.
    expect(await cell("logs").locator(".panel-log-message b").count()).toBe(0);
    const trace = cell("traces").locator("a").first();
    expect(await trace.getAttribute("href")).toBe("/projects/p1/traces/bb22");
    expect(await cell("traces").locator("tbody tr").first().textContent()).toContain("1.53 s");
    const bar = cell("bargauge").locator("a", { hasText: "Traces" }).first();
    const href = new globalThis.URL((await bar.getAttribute("href")) ?? "", "http://x");
    expect(href.pathname).toBe("/projects/p1/traces");
    expect(href.searchParams.get("service")).toBe("checkout");
    expect(href.searchParams.get("status")).toBe("error");
    expect(href.searchParams.get("from")).toBe(WINDOW.from);
  });

  it("renders a text panel's Markdown with its script and handler gone", async () => {
    expect(await cell("text").locator("h1").textContent()).toBe("Runbook");
    expect(await cell("text").locator("script, img").count()).toBe(0);
    expect(await page.evaluate("window.__xss")).toBeUndefined();
  });

  it("sorts a table by a column's heading: ascending, descending, then as returned", async () => {
    const first = () =>
      cell("table").locator("tbody tr").first().locator("td").first().textContent();
    const heading = cell("table").getByRole("button", { name: "requests" });
    expect(await first()).toBe("checkout");
    await heading.click();
    expect(await first()).toBe("billing");
    await heading.click();
    expect(await first()).toBe("checkout");
    expect(await cell("table").locator("tbody tr").first().textContent()).toContain("1.84K");
  });

  it("hides and shows a series from its legend", async () => {
    const gateway = cell("ts").getByRole("button", { name: /gateway/ });
    await gateway.click();
    expect(await gateway.getAttribute("aria-pressed")).toBe("false");
    await gateway.click();
    expect(await gateway.getAttribute("aria-pressed")).toBe("true");
  });

  it("shows the values under the cursor, and zooms the window by a drag", async () => {
    const over = cell("ts").locator(".u-over");
    const box = await over.boundingBox();
    if (!box) throw new Error("no plot");
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    const tip = cell("ts").locator(".panel-tooltip");
    await tip.waitFor();
    expect(await tip.textContent()).toMatch(/checkout.*\d+ ms/);
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 6 });
    await page.mouse.up();
    const zooms = (await page.evaluate("window.__zooms")) as [string, string][];
    expect(zooms).toHaveLength(1);
    const [from, to] = (zooms[0] ?? []).map((t) => Date.parse(t));
    expect(from).toBeGreaterThan(Date.parse(WINDOW.from));
    expect(to).toBeGreaterThan(from ?? 0);
    expect(to).toBeLessThan(Date.parse(WINDOW.to));
  });
});
