import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { until } from "./helpers/page-poll.js";
import { VIEWER } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/** The Traces area in Chromium: the filtered list, the waterfall, span details, links out. */
describe.skipIf(!chromiumAvailable)("dashboard traces", () => {
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
  const search = (page: Page) => new URL(page.url()).searchParams;

  it("filters the list by service, status and duration, in the URL and across a reload", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${tracesPath}?range=6h`);
    await rows(page).first().waitFor();
    expect(await rows(page).count()).toBe(50);
    expect(await page.getByText(/Page 1 of \d+ · [\d,]+ traces/).count()).toBe(1);
    await dash.screenshot(page, "traces-list");

    await page.getByLabel("Service").selectOption("assistant");
    await page.waitForURL((url) => url.searchParams.get("service") === "assistant");
    await until(
      page,
      `[...document.querySelectorAll(".trace-table tbody tr")].every((tr) => tr.textContent.includes("assistant"))`,
    );
    // Errors happen in the orders service (the demo's bugs), never in the assistant.
    await page.getByLabel("Service").selectOption("orders-service");
    await page.getByLabel("Status").selectOption("error");
    await page.waitForURL(
      (url) =>
        url.searchParams.get("status") === "error" &&
        url.searchParams.get("service") === "orders-service",
    );
    await until(
      page,
      `!document.querySelector(".trace-table.refreshing") &&
       [...document.querySelectorAll(".trace-table tbody tr")].every((tr) => tr.classList.contains("trace-error"))`,
    );

    await page.reload();
    await rows(page).first().waitFor();
    expect(await page.getByLabel("Service").inputValue()).toBe("orders-service");
    expect(await page.getByLabel("Status").inputValue()).toBe("error");
    expect(search(page).get("range")).toBe("6h");
    const errorRows = await rows(page).count();
    expect(errorRows).toBeGreaterThan(0);
    for (let i = 0; i < errorRows; i++) {
      const text = (await rows(page).nth(i).textContent()) ?? "";
      expect(text).toContain("orders-service");
      expect(text).toMatch(/\d+ errors?/);
    }

    // The server's message for a rejected field shows beside it.
    await page.getByLabel("Min duration (ms)").fill("99999999999");
    await page.waitForURL((url) => url.searchParams.get("min_duration") === "99999999999");
    await page.locator(".field-error").first().waitFor();
    expect(await page.locator(".field.invalid").textContent()).toMatch(/Min duration/);

    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.waitForURL(
      (url) => !url.searchParams.has("service") && !url.searchParams.has("status"),
    );
    await page.getByLabel("Min duration (ms)").fill("1000");
    await page.waitForURL((url) => url.searchParams.get("min_duration") === "1000");
    // Every trace left lasts a second or more ("1.23 s").
    await until(
      page,
      `!document.querySelector(".trace-table.refreshing") &&
       [...document.querySelectorAll(".trace-table tbody tr td:nth-child(3)")].every((td) => / s$/.test(td.textContent)) &&
       document.querySelectorAll(".trace-table tbody tr").length > 0`,
    );
    expect(console.errors).toEqual([]);
  });

  it("shows a trace as a waterfall: collapse, keyboard, span details, errors and its logs", async () => {
    const { page, console } = await dash.newPage({ width: 1440, height: 900 });
    await dash.signIn(page);
    await page.goto(`${tracesPath}?range=6h&status=error&service=orders-service`);
    await rows(page).first().waitFor();
    await rows(page).first().locator("a.trace-link").click();
    await page.waitForURL(/\/traces\/[0-9a-f]{32}$/);
    const traceId = new URL(page.url()).pathname.split("/").pop() ?? "";
    const spanRows = page.locator(".wf-rows > li");
    await spanRows.first().waitFor();
    const total = await spanRows.count();
    expect(total).toBeGreaterThan(2);

    // Errors are marked in red and in words.
    const errorRow = page.locator(".wf-rows > li.wf-error-row").first();
    expect(await errorRow.locator(".wf-error").textContent()).toBe("error");
    await dash.screenshot(page, "traces-waterfall");

    // Collapse and expand the root with its button.
    const rootToggle = spanRows.first().locator("button.wf-toggle");
    expect(await rootToggle.getAttribute("aria-expanded")).toBe("true");
    await rootToggle.click();
    expect(await rootToggle.getAttribute("aria-expanded")).toBe("false");
    expect(await spanRows.count()).toBe(1);
    await rootToggle.click();
    expect(await spanRows.count()).toBe(total);

    // The keyboard: ← collapses, → expands, ↓ moves to the next span.
    const rootName = spanRows.first().locator("button.wf-name");
    await rootName.focus();
    await page.keyboard.press("ArrowLeft");
    expect(await rootToggle.getAttribute("aria-expanded")).toBe("false");
    await page.keyboard.press("ArrowRight");
    expect(await rootToggle.getAttribute("aria-expanded")).toBe("true");
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(`document.activeElement?.closest("li")?.dataset.index`)).toBe("1");
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.searchParams.has("span"));

    // The error span's details: exception with its stack trace, its error group.
    await page.getByRole("button", { name: /Next error/ }).click();
    const details = page.locator("aside.span-details");
    await details.getByRole("heading", { name: /^Exceptions?$/ }).waitFor();
    expect(await details.locator("pre").first().textContent()).toMatch(/\n\s+at /);
    expect(await details.locator(".badge-bad").first().textContent()).toBe("error");
    const groupLink = details.getByRole("link", { name: /Error group/ });
    expect(await groupLink.getAttribute("href")).toMatch(
      new RegExp(`/projects/${dash.projectId}/errors/[0-9a-f]+$`),
    );
    const selectedSpan = search(page).get("span");
    expect(selectedSpan).toMatch(/^[0-9a-f]{16}$/);
    expect(await page.locator(".wf-rows > li.wf-selected").getAttribute("class")).toContain(
      "wf-error-row",
    );
    // The demo also logs the exception in its span: one occurrence beside its one event, not
    // "2 occurrences in this span".
    await details.getByRole("heading", { name: "Events (1)" }).waitFor();
    expect(await details.getByRole("link", { name: /Error group/ }).count()).toBe(1);
    expect(await details.getByText(/occurrences in this span/).count()).toBe(0);
    await dash.screenshot(page, "traces-span-details");

    // A shared link with the span opens on it.
    await page.reload();
    await details.waitFor();
    expect(await page.locator(".wf-rows > li.wf-selected").count()).toBe(1);
    await page.keyboard.press("Escape");
    await details.waitFor({ state: "detached" });

    await page.getByRole("link", { name: "Logs of this trace" }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/logs"));
    expect(search(page).get("traceId")).toBe(traceId);
    expect(console.errors).toEqual([]);
  });

  it("a viewer reads traces too; an unknown trace says so", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page, VIEWER);
    await page.goto(`${tracesPath}?range=6h`);
    await rows(page).first().waitFor();
    await page.goto(`${tracesPath}/${"0".repeat(31)}1`);
    await page.getByText("This trace cannot be shown").waitFor();
    expect(await page.getByRole("alert").textContent()).toMatch(/not found/i);
    expect(console.errors).toEqual([]);
  });
});
