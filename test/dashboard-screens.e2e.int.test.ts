import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/** A text a chart drew on its canvas, where, and how wide it came out. */
interface Drawn {
  chart: string;
  text: string;
  x: number;
  y: number;
  width: number;
  align: string;
}

/**
 * Records every text drawn on a canvas (chart axes are canvas text, not DOM), with its chart's
 * accessible name, so the test reads the tick labels as a person sees them.
 */
const RECORD_CANVAS_TEXT = `(() => {
  // The texts of each canvas's last drawing: a redraw (a resize) starts with a full clear.
  const byCanvas = new Map();
  window.__drawn = () => [...byCanvas.values()].flat();
  const proto = CanvasRenderingContext2D.prototype;
  const clearRect = proto.clearRect;
  proto.clearRect = function (x, y, w, h) {
    if (x <= 0 && y <= 0 && w >= this.canvas.width && h >= this.canvas.height)
      byCanvas.set(this.canvas, []);
    return clearRect.call(this, x, y, w, h);
  };
  const fillText = proto.fillText;
  proto.fillText = function (text, x, y, ...rest) {
    const t = this.getTransform();
    if (!byCanvas.has(this.canvas)) byCanvas.set(this.canvas, []);
    byCanvas.get(this.canvas).push({
      chart: this.canvas.closest("figure")?.getAttribute("aria-label") ?? "",
      text: String(text),
      x: t.a * x + t.c * y + t.e,
      y: t.b * x + t.d * y + t.f,
      width: this.measureText(String(text)).width,
      align: this.textAlign,
    });
    return fillText.call(this, text, x, y, ...rest);
  };
})()`;

const drawnTexts = (page: Page) => page.evaluate(`window.__drawn()`) as Promise<Drawn[]>;

/** [left, right] of a text as drawn with its alignment. */
const extent = (d: Drawn): [number, number] =>
  d.align === "center"
    ? [d.x - d.width / 2, d.x + d.width / 2]
    : d.align === "right" || d.align === "end"
      ? [d.x - d.width, d.x]
      : [d.x, d.x + d.width];

/**
 * The screens of issue 32 item 6 in Chromium, over the demo dataset: what each shows must be
 * true without a hover, laid out without overlaps, and the same everywhere it appears.
 */
describe.skipIf(!chromiumAvailable)(
  "dashboard screens: numbers and layout a user can trust",
  // A shared machine: a page and its service may take a while under load.
  { timeout: 60_000 },
  () => {
    const dir = makeTempDir();
    let dash: DashboardHarness;
    let base: string;

    beforeAll(async () => {
      // The SSRF guard stays on (the default): the monitor form meets its refusal.
      dash = await startDashboard(dir.path, {
        VIGIL_MONITORS_ENABLED: "false",
        VIGIL_ALERTS_ENABLED: "false",
      });
      await dash.seedDemo();
      base = `/projects/${dash.projectId}`;
    }, 120_000);
    afterAll(async () => {
      await dash?.close();
      dir.remove();
    });

    it("overview: legends read the latest full minute unhovered, latency ticks share a unit, the filling minute is left out, each route once", async () => {
      const { page, console } = await dash.newPage();
      await page.addInitScript(RECORD_CANVAS_TEXT);
      await dash.signIn(page);
      await page.goto(`${base}/overview?range=1h`);
      const charts = page.locator("figure.chart");
      await charts.nth(1).locator("canvas").waitFor();
      expect(await charts.count()).toBe(2);

      // Without a hover, every legend value is a figure, not "--" or "—".
      const values = await page.locator("figure.chart .u-legend .u-value").allTextContents();
      expect(values.length).toBe(2 + 3 + 2); // a time and each series, on both charts
      for (const value of values) expect(value).toMatch(/\d/);

      // The latency axis: one unit over all its ticks, and no "0 µs" at the bottom.
      const latency = (await drawnTexts(page)).filter((d) => d.chart.startsWith("Latency"));
      const ticks = latency.filter((d) => d.align === "right" || d.align === "end");
      expect(ticks.length).toBeGreaterThan(1);
      expect(ticks.map((d) => d.text)).not.toContain("0 µs");
      const units = new Set(ticks.map((d) => d.text.replace(/^[\d.,\s]+/, "")));
      expect(units.size).toBe(1);

      // The current minute is still filling: the chart says it leaves it out.
      for (const figure of await charts.all())
        expect(await figure.locator("figcaption").textContent()).toMatch(/still filling/);

      // Busiest routes: a route once, its services beside it.
      const routes = page.locator("table.overview-routes tbody th[scope=rowgroup]");
      await routes.first().waitFor();
      const names = await routes.allTextContents();
      expect(names.length).toBeGreaterThan(1);
      expect(new Set(names).size).toBe(names.length);
      const orders = page.locator("table.overview-routes tbody", { hasText: "GET /api/orders" });
      expect(await orders.first().textContent()).toContain("api-gateway");
      expect(await orders.first().textContent()).toContain("orders-service");
      await dash.screenshot(page, "screens-overview");
      expect(console.errors).toEqual([]);
    });

    it("logs: a stack trace in the drawer keeps its lines and whole words", async () => {
      const { page, console } = await dash.newPage();
      await dash.signIn(page);
      await page.goto(`${base}/logs?range=6h&level=error`);
      await page.locator(".logs-row").first().click();
      const drawer = page.getByRole("dialog", { name: "Log record" });
      const key = drawer.getByText("exception.stacktrace", { exact: true });
      await key.waitFor();
      const value = key.locator("xpath=following-sibling::dd[1]");
      const text = (await value.textContent()) ?? "";
      expect(text).toMatch(/\n\s+at /);
      const style = (await page.evaluate(`(() => {
        const key = [...document.querySelectorAll("[role=dialog] dt")].find(
          (dt) => dt.textContent === "exception.stacktrace",
        );
        const css = getComputedStyle(key.nextElementSibling);
        return { whiteSpace: css.whiteSpace, wordBreak: css.wordBreak };
      })()`)) as { whiteSpace: string; wordBreak: string };
      expect(["pre", "pre-wrap", "pre-line", "break-spaces"]).toContain(style.whiteSpace);
      expect(style.wordBreak).not.toBe("break-all");
      // As many lines shown as the trace has, at least.
      const lines = text.split("\n").length;
      const box = await value.boundingBox();
      expect(box?.height ?? 0).toBeGreaterThanOrEqual(lines * 12);
      await dash.screenshot(page, "screens-logs-stack");
      expect(console.errors).toEqual([]);
    });

    it("traces: with the span panel open, no duration sits over the span names or the error label", async () => {
      const { page, console } = await dash.newPage({ width: 1440, height: 900 });
      await dash.signIn(page);
      await page.goto(`${base}/traces?range=6h&status=error&service=orders-service`);
      await page.locator(".trace-table tbody tr a.trace-link").first().click();
      await page.waitForURL(/\/traces\/[0-9a-f]{32}$/);
      await page.locator(".wf-rows > li").first().waitFor();
      await page.getByRole("button", { name: /Next error/ }).click();
      await page.locator("aside.span-details").waitFor();
      // Rows whose duration reaches left of the timeline (over the names) or over the error label.
      const overlaps =
        (await page.evaluate(`[...document.querySelectorAll(".wf-rows > li")].flatMap((row) => {
      const label = row.querySelector(".wf-label")?.getBoundingClientRect();
      const error = row.querySelector(".wf-error")?.getBoundingClientRect();
      const duration = row.querySelector(".wf-duration")?.getBoundingClientRect();
      if (!label || !duration) return [];
      const intoLabel = duration.left < label.right;
      const overError = error !== undefined && duration.left < error.right && error.left < duration.right;
      return intoLabel || overError ? [row.textContent] : [];
    })`)) as string[];
      expect(overlaps).toEqual([]);
      await dash.screenshot(page, "screens-waterfall-panel");
      expect(console.errors).toEqual([]);
    });

    it("alerts: the preview's x-axis labels do not overlap", async () => {
      const { page, console } = await dash.newPage({ height: 1000 });
      await page.addInitScript(RECORD_CANVAS_TEXT);
      await dash.signIn(page);
      await page.goto(`${base}/alerts/new`);
      const form = page.getByRole("form", { name: "Alert rule" });
      await form.getByLabel("Name", { exact: true }).fill("Logs by message");
      // Eight series with long labels (log messages) over a narrow preview.
      await form.getByLabel("From a TQL query").check();
      await form
        .getByLabel("TQL query", { exact: true })
        .fill(
          "SELECT message, count() AS value FROM logs GROUP BY message ORDER BY value DESC, message LIMIT 8",
        );
      await form.getByLabel("Threshold").fill("5");
      await page.getByRole("button", { name: "Preview" }).click();
      const preview = page.getByTestId("alert-preview");
      await preview.locator("canvas").first().waitFor();
      const rows = await preview.locator("tbody tr").count();
      expect(rows).toBeGreaterThanOrEqual(8);
      const drawn = (await drawnTexts(page)).filter((d) => d.chart.startsWith("Value of each"));
      // The x axis: the labels drawn centred, lowest on the canvas.
      const centred = drawn.filter((d) => d.align === "center" && d.text !== "");
      const bottom = Math.max(...centred.map((d) => d.y));
      const labels = centred.filter((d) => d.y === bottom).map(extent);
      expect(labels.length).toBeGreaterThan(0);
      labels.sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < labels.length; i++)
        expect(labels[i]?.[0] ?? 0).toBeGreaterThanOrEqual(labels[i - 1]?.[1] ?? 0);
      await dash.screenshot(page, "screens-alert-preview");
      expect(console.errors).toEqual([]);
    });

    it("monitors: the SSRF refusal once, beside the URL", async () => {
      const { page, console } = await dash.newPage({ height: 1000 });
      await dash.signIn(page);
      await page.goto(`${base}/monitors/new`);
      await page.getByLabel("Name", { exact: true }).first().fill("Private target");
      await page
        .getByRole("region", { name: "Request" })
        .getByLabel("URL")
        .fill("http://10.0.0.1/");
      await page.getByRole("button", { name: "Create monitor" }).click();
      const url = page.getByRole("region", { name: "Request" }).getByLabel("URL");
      await url.and(page.locator("[aria-invalid=true]")).waitFor();
      await page.getByText("The monitor was not saved").waitFor();
      expect(await page.getByText(/SSRF guard refuses/).count()).toBe(1);
      const describedBy = (await url.getAttribute("aria-describedby")) ?? "";
      expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/SSRF guard/);
      await dash.screenshot(page, "screens-monitor-ssrf");
      expect(console.failedRequests.length).toBeGreaterThan(0);
      expect(console.errors).toEqual([]);
    });

    /** A monitor whose every check fails at once (the name does not resolve), one failure an outage. */
    async function failingMonitor(name: string): Promise<string> {
      const response = await dash.owner.post(`/api/projects/${dash.projectId}/monitors`, {
        name,
        type: "api",
        frequency: "1h",
        alertAfter: 1,
        steps: [{ url: "https://vigil-unresolvable.invalid/" }],
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: string }).id;
    }
    const runCheck = async (monitorId: string) => {
      const run = await dash.owner.post(
        `/api/projects/${dash.projectId}/monitors/${monitorId}/run`,
        {},
      );
      expect(run.status).toBe(200);
      expect(((await run.json()) as { passed: boolean }).passed).toBe(false);
    };

    it("monitors: once the results show a check, the state and the open incident agree with them", async () => {
      const monitorId = await failingMonitor("Fresh monitor");
      const { page, console } = await dash.newPage();
      await dash.signIn(page);
      await page.goto(`${base}/monitors/${monitorId}`);
      const stats = page.locator(".mon-stats");
      await stats.getByText("Not checked yet").waitFor();
      // A check runs behind the page's back (the scheduler, another tab).
      await runCheck(monitorId);
      // The results show it as soon as they are asked again (here: the outcome filter).
      await page.getByLabel("Outcome").selectOption("failed");
      const results = page.getByRole("region", { name: "Results" });
      await results.locator("table.mon-results > tbody > tr").first().waitFor();
      // The state above says the same, well before the 30 s refresh.
      await stats.getByRole("link", { name: "View incident" }).waitFor({ timeout: 5_000 });
      expect(await stats.getByText("Not checked yet").count()).toBe(0);
      expect(await page.locator(".mon-subtitle").textContent()).toContain("Down");
      await dash.screenshot(page, "screens-monitor-fresh");
      expect(console.errors).toEqual([]);
    });

    it("incidents: a monitor's incident names its monitor", async () => {
      const monitorId = await failingMonitor("Checkout API");
      await runCheck(monitorId);
      const { page, console } = await dash.newPage();
      await dash.signIn(page);
      await page.goto(`${base}/incidents`);
      const row = page.getByRole("row", { name: /Checkout API/ });
      await row.first().waitFor();
      // The source column names the monitor (its id is no name for a person).
      const source = row.first().locator("td").nth(3).getByRole("link");
      expect(await source.getAttribute("href")).toBe(`${base}/monitors/${monitorId}`);
      expect(await source.textContent()).toBe("Monitor Checkout API");
      await row.first().getByRole("link").first().click();
      await page.waitForURL(/\/incidents\/inc_/);
      const facts = page.locator(".inc-side");
      await facts.getByRole("link", { name: "Monitor Checkout API" }).waitFor();
      expect(await facts.textContent()).not.toContain(monitorId);
      await dash.screenshot(page, "screens-incident-source");
      expect(console.errors).toEqual([]);
    });
  },
);
