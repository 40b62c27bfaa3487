import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { logsBody, sendOtlp } from "./helpers/otlp.js";
import { addKey } from "./helpers/projects.js";
import { VIEWER } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/** Overview, Logs and Errors in Chromium over the demo dataset. */
describe.skipIf(!chromiumAvailable)("dashboard overview, logs and errors", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let base: string;

  beforeAll(async () => {
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

  const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);
  const logRows = (page: Page) => page.locator(".logs-row");
  /** Waits until every rendered log row's text passes `test` (the list has refreshed). */
  async function everyRow(page: Page, test: (text: string) => boolean) {
    await expect
      .poll(
        async () => {
          const texts = await logRows(page).allTextContents();
          return texts.length > 0 && texts.every(test);
        },
        { timeout: 15_000 },
      )
      .toBe(true);
  }

  it("overview: key figures that link to their screens, and traffic charts", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/overview?range=6h`);
    const tile = (label: string) =>
      page.locator(".overview-tiles").getByRole("link", { name: new RegExp(`^${label}`) });
    const requests = tile("Requests");
    await requests.locator(".value").filter({ hasText: /[1-9]/ }).waitFor();
    // Figures over the range open their screen on the same range.
    expect(await requests.getAttribute("href")).toBe(`${base}/traces?range=6h`);
    await tile("p95 latency").locator(".value").filter({ hasText: /\d/ }).waitFor();
    for (const [label, area] of [
      ["Active alerts", "alerts"],
      ["Open incidents", "incidents"],
      ["Monitors down", "monitors"],
    ] as const) {
      await tile(label).locator(".value").filter({ hasText: "0" }).waitFor();
      expect(await tile(label).getAttribute("href")).toBe(`${base}/${area}`);
    }
    await page.getByRole("heading", { name: "Requests and errors" }).waitFor();
    await page.locator("figure.chart canvas").first().waitFor();
    expect(await page.locator("figure.chart").count()).toBe(2);
    await page.getByRole("heading", { name: "Top errors" }).waitFor();
    await page.locator(".overview-errors li").first().waitFor();
    await dash.screenshot(page, "overview");

    await page.getByLabel("Time range").selectOption("15m");
    await page.waitForURL((url) => url.searchParams.get("range") === "15m");
    await tile("Errors").click();
    await page.waitForURL(`**${base}/errors?range=15m`);
    expect(console.errors).toEqual([]);
  });

  it("logs: words and phrases, level filter, detail drawer, jump to the trace", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/logs?range=6h`);
    await logRows(page).first().waitFor();
    expect(await page.getByText(/[\d,]+ records/).count()).toBe(1);
    await dash.screenshot(page, "logs");

    await page.getByLabel("Search").fill("answered");
    await page.getByLabel("Search").press("Enter");
    await page.waitForURL((url) => url.searchParams.get("q") === "answered");
    await everyRow(page, (text) => text.includes("answered"));

    // A phrase matches its words together, in order.
    await page.getByLabel("Search").fill('"Cannot read properties"');
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get("q") === '"Cannot read properties"');
    await everyRow(page, (text) => text.includes("Cannot read properties"));

    await page.getByLabel("Search").fill("");
    await page.getByLabel("Search").press("Enter");
    await page.getByLabel("Level").selectOption("error");
    await page.waitForURL((url) => url.searchParams.get("level") === "error" && !param(page, "q"));
    await everyRow(page, (text) => text.includes("error") && text.includes("request failed"));

    // The filters survive a reload.
    await page.reload();
    await logRows(page).first().waitFor();
    expect(await page.getByLabel("Level").inputValue()).toBe("error");

    await logRows(page).first().click();
    const drawer = page.getByRole("dialog", { name: "Log record" });
    await drawer.getByRole("heading", { name: "Attributes" }).waitFor();
    await drawer.getByText("exception.stacktrace", { exact: true }).waitFor();
    await drawer.getByRole("heading", { name: "Resource" }).waitFor();
    await drawer.getByText("service.name", { exact: true }).waitFor();
    const logId = param(page, "log");
    expect(logId).toMatch(/^log_/);
    await dash.screenshot(page, "logs-drawer");
    // Escape closes it; the record stays linkable.
    await page.keyboard.press("Escape");
    await page.waitForURL((url) => !url.searchParams.has("log"));
    await page.goto(`${base}/logs?range=6h&level=error&log=${logId}`);
    const open = drawer.getByRole("link", { name: "Open trace" });
    await open.waitFor();
    const traceHref = (await open.getAttribute("href")) ?? "";
    const traceId = traceHref.split("/").at(-1) ?? "";
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);

    // The trace's logs, as the traces screen links to them.
    await drawer.getByRole("button", { name: "All logs of this trace" }).click();
    await page.waitForURL((url) => url.searchParams.get("traceId") === traceId);
    await page.getByText(`Logs of trace ${traceId}`).waitFor();
    await everyRow(page, (text) => text.includes("request failed"));

    await page.goto(`${base}/logs?range=6h&level=error&log=${logId}`);
    await drawer.getByRole("link", { name: "Open trace" }).click();
    await page.waitForURL(`**${base}/traces/${traceId}`);
    expect(console.errors).toEqual([]);
  });

  it("logs: live tail picks up a record sent after the page opened", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/logs?range=1h`);
    await page.getByRole("list", { name: "Log records, newest first" }).waitFor();
    await page.getByRole("button", { name: "Live tail" }).click();
    await page.waitForURL((url) => url.searchParams.get("live") === "1");
    await page.getByText(/Live: checked at/).waitFor();

    // The reader scrolled down: what they look at stays in place as records arrive on top.
    const scroller = page.locator(".logs-scroll");
    const scrollTop = () => scroller.evaluate((element) => element.scrollTop);
    await scroller.evaluate((element) => element.scrollTo({ top: 300 }));
    await expect.poll(scrollTop).toBe(300);

    const marker = `tail-marker-${Date.now()}`;
    const key = await addKey(dash.service, dash.projectId, { name: "tail", role: "ingest" });
    await sendOtlp(
      dash.service,
      key,
      "logs",
      logsBody("tail-test", [{ timeMs: Date.now(), severityNumber: 13, body: marker }]),
    );
    const row = logRows(page).filter({ hasText: marker });
    await row.waitFor({ timeout: 20_000 });
    expect(await scrollTop()).toBe(330);
    await scroller.evaluate((element) => element.scrollTo({ top: 0 }));
    expect(await logRows(page).first().textContent()).toContain(marker);
    expect(await row.textContent()).toContain("warn");
    await page.getByText(/from live tail/).waitFor();

    // Turned off, it stops asking; what it brought stays.
    await page.getByRole("button", { name: "Live tail" }).click();
    await page.waitForURL((url) => !url.searchParams.has("live"));
    expect(await row.count()).toBe(1);
    expect(console.errors).toEqual([]);
  });

  it("logs: a list the busy telemetry store refused twice (503) fills in when it answers", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    // The first two asks for the list are refused as a saturated store refuses them; the
    // dashboard asks again 1 and then 2 s later (its queries' retry), showing it as loading.
    let asked = 0;
    await page.route(
      (url) => url.pathname.endsWith("/v1/logs"),
      async (route) => {
        if (++asked > 2) return route.continue();
        await route.fulfill({
          status: 503,
          headers: { "retry-after": "1", "content-type": "application/problem+json" },
          body: JSON.stringify({
            status: 503,
            title: "Service Unavailable",
            detail: "The telemetry store is busy: this read waited 1000 ms for it; retry in 1 s",
          }),
        });
      },
    );
    const started = Date.now();
    await page.goto(`${base}/logs?range=6h`);
    await logRows(page).first().waitFor({ timeout: 10_000 });
    expect(asked).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
    expect(await page.getByText(/telemetry store is busy/).count()).toBe(0);
    expect(console.failedRequests).toHaveLength(2);
    expect(console.errors).toEqual([]);
  });

  it("errors: groups with sparklines, stack trace with in-app frames, resolve and reopen", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/errors?range=6h`);
    const rows = page.locator(".errors-table tbody tr");
    await rows.first().waitFor();
    await page.locator(".errors-table svg.sparkline").first().waitFor();
    await dash.screenshot(page, "errors-list");

    await page.getByRole("link", { name: "TypeError" }).first().click();
    await page.waitForURL(new RegExp(`${base}/errors/[0-9a-f]{32}$`));
    const errorId = page.url().split("/").at(-1) ?? "";
    await page.getByRole("heading", { name: "TypeError", level: 1 }).waitFor();
    const inApp = page.locator(".stack-frame.in-app");
    await inApp.first().waitFor();
    expect(await inApp.first().textContent()).toContain("computeTotals");
    expect(await inApp.count()).toBe(3);
    // The framework frame is folded away until asked for.
    const library = page.locator(".stack-library details");
    expect(await library.count()).toBe(1);
    expect(await library.getAttribute("open")).toBeNull();
    await page.getByRole("button", { name: "Show all frames" }).click();
    expect(await library.getAttribute("open")).not.toBeNull();
    await page.locator("figure.chart canvas").first().waitFor();
    await page.locator(".errors-samples a[href*='/traces/']").first().waitFor();
    // The demo logs each exception in its span: the occurrence links its log record too.
    const errorLog = page.locator(".errors-samples").getByRole("link", { name: "Its error log" });
    expect(await errorLog.count()).toBeGreaterThan(0);
    expect(await errorLog.first().getAttribute("href")).toMatch(/[?&]log=log_[0-9a-z]+/);
    await dash.screenshot(page, "errors-detail");

    await page.getByRole("button", { name: "Resolve" }).click();
    await page.getByRole("button", { name: "Reopen" }).waitFor();
    await page.locator(".page-header .badge", { hasText: "resolved" }).waitFor();
    const resolved = await dash.owner.get(`/api/projects/${dash.projectId}/v1/errors/${errorId}`);
    expect(((await resolved.json()) as { status: string }).status).toBe("resolved");

    await page.getByLabel("Severity").selectOption("critical");
    await page.locator(".page-header .badge", { hasText: "critical" }).waitFor();

    await page.getByRole("button", { name: "Reopen" }).click();
    await page.getByRole("button", { name: "Resolve" }).waitFor();
    await page.locator(".page-header .badge", { hasText: "open" }).waitFor();

    // The list shows the resolved filter's (now empty) state, then the group again under All.
    await page.getByRole("link", { name: "← All errors" }).click();
    await page.getByRole("button", { name: "Resolved" }).click();
    await page.waitForURL((url) => url.searchParams.get("status") === "resolved");
    await page.getByText("No resolved errors").waitFor();
    expect(console.errors).toEqual([]);
  });

  it("errors: a viewer sees the group but no triage controls", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page, VIEWER);
    await page.goto(`${base}/errors?range=6h`);
    await page.getByRole("link", { name: "TypeError" }).first().click();
    await page.locator(".stack-frame.in-app").first().waitFor();
    expect(await page.getByRole("button", { name: "Resolve" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Reopen" }).count()).toBe(0);
    expect(await page.getByLabel("Severity").count()).toBe(0);
    expect(console.errors).toEqual([]);
  });
});
