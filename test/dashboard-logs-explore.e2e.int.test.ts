import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { logsBody, sendOtlp } from "./helpers/otlp.js";
import { addKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/** The logs explorer in Chromium over the demo dataset: facets, histogram, highlights, context. */
describe.skipIf(!chromiumAvailable)("dashboard logs explorer", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let logsPath: string;

  beforeAll(async () => {
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
    });
    await dash.seedDemo();
    // A message with markup in it: shown as text, its search term marked.
    const key = await addKey(dash.service, dash.projectId, { name: "markup", role: "full" });
    await sendOtlp(
      dash.service,
      key,
      "logs",
      logsBody("markup-test", [
        {
          timeMs: Date.now() - 60_000,
          severityNumber: 17,
          body: "<img src=x onerror=alert(1)> failed hard",
        },
      ]),
    );
    logsPath = `/projects/${dash.projectId}/logs`;
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    dir.remove();
  });

  /** The first number of a text ("1,234 records · 200 loaded" → 1234). */
  const number = (text: string | null) => Number(/[\d,]+/.exec(text ?? "")?.[0].replace(/,/g, ""));
  /** The histogram's total and the list's, once neither is refreshing. */
  const totals = async (page: Page) => {
    const settled = await page.locator(".volume.refreshing, .facets.refreshing").count();
    const histogram = number(await page.locator(".volume-total").textContent());
    const list = number(await page.locator(".logs-count").textContent());
    return { settled: settled === 0, histogram, list };
  };
  /** Waits until the histogram has settled on the list's total, other than `before`; returns it. */
  async function agreedTotal(page: Page, before?: number): Promise<number> {
    let last = { settled: false, histogram: 0, list: 0 };
    const deadline = Date.now() + 15_000;
    for (;;) {
      last = await totals(page);
      if (last.settled && last.histogram === last.list && last.list > 0 && last.list !== before)
        break;
      if (Date.now() > deadline) {
        await dash.screenshot(page, "logs-explore-failed");
        throw new Error(`totals ${JSON.stringify(last)}, before ${before}`);
      }
      await page.waitForTimeout(100);
    }
    return last.list;
  }
  const facet = (page: Page, heading: string) =>
    page
      .locator(".facet")
      .filter({ has: page.getByRole("heading", { name: heading, exact: true }) });
  const filtersOf = (page: Page) =>
    JSON.parse(new URL(page.url()).searchParams.get("filters") ?? "[]") as {
      field: string;
      op: string;
    }[];

  it("narrows with two facets, the histogram following the list; search terms marked", async () => {
    const { page, console } = await dash.newPage({ width: 1440, height: 900 });
    await dash.signIn(page);
    await page.goto(`${logsPath}?range=6h`);
    await page.locator(".logs-row").first().waitFor();
    const all = await agreedTotal(page);
    expect(await page.locator(".volume-plot svg rect").count()).toBeGreaterThan(0);
    await facet(page, "service").locator(".facet-value", { hasText: "orders-service" }).waitFor();
    await dash.screenshot(page, "logs-explore");

    // First facet: only errors.
    await facet(page, "level").locator(".facet-value", { hasText: "error" }).click();
    await page.waitForURL((url) => url.searchParams.has("filters"));
    expect(filtersOf(page)).toEqual([{ field: "level", op: "=", value: "error" }]);
    const errors = await agreedTotal(page, all);
    expect(errors).toBeLessThan(all);
    expect(await facet(page, "level").locator(".facet-value").allTextContents()).toEqual([
      expect.stringMatching(/^error/),
    ]);

    // Second facet: leave out the errors' most frequent country.
    const country = facet(page, "client.geo.country.iso_code");
    const top = ((await country.locator(".facet-text").first().textContent()) ?? "").trim();
    await country.getByRole("button", { name: `Exclude “${top}”` }).click();
    await page.waitForURL(() => filtersOf(page).length === 2);
    expect(filtersOf(page)[1]).toEqual({
      field: "attributes.client.geo.country.iso_code",
      op: "!=",
      value: top,
    });
    const narrowed = await agreedTotal(page, errors);
    expect(narrowed).toBeLessThan(errors);
    expect(await page.locator(".chip").allTextContents()).toEqual([
      expect.stringContaining("level = error"),
      expect.stringContaining(`client.geo.country.iso_code ≠ ${top}`),
    ]);

    // The search's terms are marked in the messages; markup in a message stays text.
    await page.getByLabel("Search").fill("FAILED");
    await page.getByLabel("Search").press("Enter");
    await page.waitForURL((url) => url.searchParams.get("q") === "FAILED");
    // Every error logged here failed: the same records.
    expect(await agreedTotal(page)).toBe(narrowed);
    const marks = await page.locator(".logs-message mark").allTextContents();
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.every((m) => m.toLowerCase() === "failed")).toBe(true);
    expect(await page.locator(".logs-message img").count()).toBe(0);
    await page.locator(".logs-message", { hasText: "<img src=x" }).first().waitFor();

    // A chip's × takes its filter away; the filters survive a reload.
    await page.getByRole("button", { name: /^Remove filter level = error/ }).click();
    await page.waitForURL(() => filtersOf(page).length === 1);
    await page.reload();
    await page.locator(".chip").first().waitFor();
    expect(await page.locator(".chip").count()).toBe(1);
    await agreedTotal(page);
    expect(console.errors).toEqual([]);
  }, 90_000);

  it("zooms the range with a click on a bar; shows a record's context", async () => {
    const { page, console } = await dash.newPage({ width: 1440, height: 900 });
    await dash.signIn(page);
    await page.goto(`${logsPath}?range=6h&q=answered`);
    const all = await agreedTotal(page);

    // A drag across the last tenth of the histogram: an absolute range, the figures follow.
    const box = await page.locator(".volume-plot").boundingBox();
    if (!box) throw new Error("no histogram");
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.88, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.99, y, { steps: 5 });
    await page.mouse.up();
    await page.waitForURL((url) => url.searchParams.has("from") && url.searchParams.has("to"));
    const zoomed = await agreedTotal(page, all);
    expect(zoomed).toBeLessThan(all);
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get("range") === "6h");

    await page.locator(".logs-row").first().click();
    const drawer = page.getByRole("dialog", { name: "Log record" });
    await drawer.getByRole("button", { name: "Show context" }).click();
    const rows = drawer.locator(".log-context-list li");
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(5);
    const current = drawer.locator(".log-context-list li.current");
    expect(await current.count()).toBe(1);
    expect(await current.locator("[aria-current=true]").count()).toBe(1);
    expect(await drawer.getByText(/orders-service, host\.name orders-service-1/).count()).toBe(1);
    // Times run oldest first.
    const times = await rows
      .locator("time")
      .evaluateAll((els) => els.map((el) => Date.parse(el.getAttribute("datetime") ?? "")));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    await dash.screenshot(page, "logs-context");

    // Another record of the context opens in the drawer, centred in its own context.
    const selected = new URL(page.url()).searchParams.get("log");
    await rows.first().locator("button").click();
    await page.waitForURL((url) => url.searchParams.get("log") !== selected);
    await drawer.locator(".log-context-list li.current").waitFor();
    expect(console.errors).toEqual([]);
  }, 90_000);
});
