import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { VIEWER } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/** The editor's text, as CodeMirror holds it (one .cm-line per line). */
async function editorText(page: Page): Promise<string> {
  // An empty editor shows its placeholder inside the first line.
  if ((await page.locator(".cm-content .cm-placeholder").count()) > 0) return "";
  const lines = await page.locator(".cm-content .cm-line").allTextContents();
  return lines.join("\n");
}

/** Replaces the editor's text without key events (no completion popup on the way). */
async function replaceText(page: Page, text: string): Promise<void> {
  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+a");
  await page.keyboard.insertText(text);
  // Inserted text is input too: close the completions it may have opened.
  await page.keyboard.press("Escape");
}

/**
 * Waits for the completion popup to offer an option, then accepts the selected one with Enter.
 * CodeMirror ignores Enter for its first 75 ms (interactionDelay, so fast typists do not accept by
 * accident), which the pause covers.
 */
async function acceptCompletion(page: Page, offered: string): Promise<void> {
  await page.locator(".cm-tooltip-autocomplete li", { hasText: offered }).first().waitFor();
  await page.waitForTimeout(150);
  await page.keyboard.press("Enter");
}

/** The TQL editor in Chromium over the demo dataset. */
describe.skipIf(!chromiumAvailable)("dashboard TQL editor", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let tqlPath: string;

  beforeAll(async () => {
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
    });
    await dash.seedDemo(1_500);
    tqlPath = `/projects/${dash.projectId}/tql`;
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    dir.remove();
  });

  /** Signs in and opens the editor once its schema (completion) has arrived. */
  async function openEditor(user?: { email: string; password: string }) {
    const opened = await dash.newPage();
    await dash.signIn(opened.page, user);
    const schema = opened.page.waitForResponse((r) => r.url().includes("/v1/tql/schema"));
    await opened.page.goto(tqlPath);
    expect((await schema).status()).toBe(200);
    await opened.page.locator(".cm-content").waitFor();
    return opened;
  }

  it("completes a table and a column, runs with Ctrl+Enter and shows typed columns, then a chart", async () => {
    const { page, console } = await openEditor();
    await page.locator(".cm-content").click();
    await page.keyboard.type("SELECT service_name, count() AS spans FROM tra");
    await acceptCompletion(page, "traces");
    await page.keyboard.type(" GROUP BY service_na");
    // After FROM traces, the columns offered are traces' own, with their types.
    await acceptCompletion(page, "LowCardinality(String)");
    await page.keyboard.type(" ORDER BY spans DESC");
    await page.keyboard.press("Escape");
    expect(await editorText(page)).toBe(
      "SELECT service_name, count() AS spans FROM traces GROUP BY service_name ORDER BY spans DESC",
    );

    await page.keyboard.press("Control+Enter");
    const table = page.locator("table.tql-results");
    await table.waitFor();
    const headers = await table.locator("thead th").allTextContents();
    expect(headers).toEqual(["Row#", "service_nameLowCardinality(String)", "spansUInt64"]);
    const firstRow = table.locator("tbody tr").first();
    expect(await firstRow.locator("td").nth(1).textContent()).toMatch(/\w/);
    expect(await firstRow.locator("td").nth(2).getAttribute("class")).toContain("num");
    expect(Number(await firstRow.locator("td").nth(2).textContent())).toBeGreaterThan(0);
    expect(await page.locator(".tql-result-meta").textContent()).toMatch(/rows? · 2 columns ·/);
    expect(new URL(page.url()).searchParams.get("q")).toBe(await editorText(page));
    await dash.screenshot(page, "tql-results");

    // A time series: minutes on x, one line per service.
    await replaceText(
      page,
      "SELECT toStartOfMinute(timestamp) AS minute, service_name, count() AS spans\nFROM traces\nGROUP BY minute, service_name\nORDER BY minute",
    );
    await page.keyboard.press("Control+Enter");
    await page.locator("th", { hasText: "minute" }).waitFor();
    await page.getByRole("tab", { name: "Chart" }).click();
    await page.locator("figure.chart canvas").waitFor();
    expect(await page.getByLabel("X axis").inputValue()).toBe("minute");
    expect(await page.getByLabel("Split by").inputValue()).toBe("service_name");
    expect(await page.locator(".u-legend .u-series").count()).toBeGreaterThan(1);
    expect(new URL(page.url()).searchParams.get("view")).toBe("chart");
    await dash.screenshot(page, "tql-chart");
    await page.getByLabel("Bar").check();
    await page.getByLabel("Split by").selectOption("");
    await page.locator("figure.chart canvas").waitFor();
    expect(new URL(page.url()).searchParams.get("kind")).toBe("bar");

    // The history lists both runs, newest first, and loads one back.
    await page.getByRole("tab", { name: "History" }).click();
    const history = page.getByRole("list", { name: "Query history" }).locator("li");
    expect(await history.count()).toBe(2);
    expect(await history.first().textContent()).toContain("toStartOfMinute");
    await history.nth(1).getByRole("button").click();
    await page.locator("th", { hasText: "spans" }).waitFor();
    expect(await editorText(page)).toContain("GROUP BY service_name ORDER BY spans DESC");
    expect(console.errors).toEqual([]);
  });

  it("shows 10,000 rows without putting them all in the page, and says the result was cut", async () => {
    const { page, console } = await openEditor();
    await replaceText(page, "SELECT arrayJoin(range(12000)) AS n, toString(n) AS label");
    await page.keyboard.press("Control+Enter");
    const notice = page.getByText("Only the first 10,000 rows came back");
    await notice.waitFor();
    expect(await page.locator(".tql-result-meta").textContent()).toContain("10,000 rows");
    const rendered = await page.locator("table.tql-results tbody tr").count();
    expect(rendered).toBeGreaterThan(10);
    expect(rendered).toBeLessThan(100);
    // Scrolling to the end brings the last rows in.
    await page.locator(".tql-results-scroll").evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await page.getByRole("button", { name: "Row 10000: show all values" }).click();
    const drawer = page.getByRole("dialog", { name: "Row 10000" });
    expect(await drawer.textContent()).toContain("n (UInt16)");
    expect(await drawer.textContent()).toContain("9999");
    await page.keyboard.press("Escape");
    expect(console.errors).toEqual([]);
  });

  it("underlines a syntax error where the server located it and shows its detail", async () => {
    const { page, console } = await openEditor();
    await replaceText(page, "SELECT service_name\nFROM traces\nWHERE AND status = 'error'");
    await page.getByRole("button", { name: "Run" }).click();
    const problem = page.locator(".tql-problem [role=alert]");
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/Query error at line 3, column 7/);
    const underline = page.locator(".cm-lintRange-error");
    await underline.waitFor();
    expect(await underline.textContent()).toBe("AND");
    await dash.screenshot(page, "tql-error");
    // Editing clears the underline (it would point at other text) but keeps the message.
    await page.getByRole("button", { name: "Show in editor" }).click();
    await page.keyboard.press("Delete");
    expect(await underline.count()).toBe(0);
    expect(await page.getByText("The query has changed since it ran.").count()).toBe(1);
    expect(console.errors).toEqual([]);
  });

  it("saves a query, refuses a duplicate name beside the field, and loads it after a reload", async () => {
    const { page, console } = await openEditor();
    const query = "SELECT level, count() AS records FROM logs GROUP BY level ORDER BY records DESC";
    await replaceText(page, query);
    await page.getByRole("button", { name: "Save…" }).click();
    await page.getByLabel("Name").fill("Logs by level");
    await page.getByLabel("Description").fill("Record count per level");
    await page.getByRole("button", { name: "Save query" }).click();
    const saved = page.getByRole("list", { name: "Saved queries" });
    await saved.locator("strong", { hasText: "Logs by level" }).waitFor();
    expect(new URL(page.url()).searchParams.get("saved")).toMatch(/^sqr_/);
    expect(await page.getByRole("button", { name: "Save changes" }).isDisabled()).toBe(true);
    await dash.screenshot(page, "tql-saved");

    await page.getByRole("button", { name: "Save as new…" }).click();
    await page.getByLabel("Name").fill("Logs by level");
    await page.getByRole("button", { name: "Save query" }).click();
    const fieldError = page.locator(".drawer .field-error");
    await fieldError.waitFor();
    expect(await fieldError.textContent()).toContain("already exists");
    await page.getByRole("button", { name: "Cancel" }).click();

    await page.goto(tqlPath);
    await page.locator(".cm-content").waitFor();
    expect(await editorText(page)).toBe("");
    await saved.locator("strong", { hasText: "Logs by level" }).click();
    await page.locator("th", { hasText: "records" }).waitFor();
    expect(await editorText(page)).toBe(query);
    expect(new URL(page.url()).searchParams.get("saved")).toMatch(/^sqr_/);
    expect(await page.locator("tbody tr").count()).toBeGreaterThan(0);

    // Changing the text of the loaded query and saving it updates it in place.
    await page.locator(".cm-content").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.insertText(" LIMIT 3");
    await page.getByText("(edited)").waitFor();
    await page.getByRole("button", { name: "Save changes" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    await saved.getByText(`${query} LIMIT 3`).waitFor();

    // Rename, then delete after confirming.
    await page.getByRole("button", { name: "Rename Logs by level" }).click();
    await page.getByLabel("New name").fill("Levels");
    await page.getByRole("button", { name: "Rename", exact: true }).click();
    await saved.locator("strong", { hasText: "Levels" }).waitFor();
    await page.getByRole("button", { name: "Delete Levels" }).click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await page.getByText("No saved queries yet").waitFor();
    expect(new URL(page.url()).searchParams.get("saved")).toBeNull();
    expect(console.errors).toEqual([]);
  });

  it("lets a viewer run and load saved queries without write controls; a link runs its query", async () => {
    const created = await dash.owner.post(`/api/projects/${dash.projectId}/saved-queries`, {
      name: "Error spans",
      query: "SELECT count() AS errors FROM traces WHERE status = 'error'",
    });
    expect(created.status).toBe(201);
    await created.arrayBuffer();
    const { page, console } = await openEditor(VIEWER);
    await page.getByRole("list", { name: "Saved queries" }).getByText("Error spans").waitFor();
    // Saved views open for viewers too (they list and share); saving a query does not.
    expect(await page.getByRole("button", { name: /^Save(?!d views)/ }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^(Rename|Delete)/ }).count()).toBe(0);
    await page.getByRole("list", { name: "Saved queries" }).getByText("Error spans").click();
    await page.locator("th", { hasText: "errors" }).waitFor();

    // A shared link opens with its query in the editor, already run.
    const link = page.url();
    const { page: other } = await dash.newPage();
    await dash.signIn(other, VIEWER);
    await other.goto(link);
    await other.locator("th", { hasText: "errors" }).waitFor();
    expect(await editorText(other)).toBe(
      "SELECT count() AS errors FROM traces WHERE status = 'error'",
    );

    // The schema browser lists tables and columns with types; a click inserts a name.
    await other.getByRole("tab", { name: "Schema" }).click();
    await other.getByLabel("Search columns and functions").fill("duration");
    const column = other.locator(".tql-schema button", { hasText: "duration_ms" }).first();
    await column.waitFor();
    expect(await column.textContent()).toContain("Float64");
    await other.locator(".cm-content").click();
    await other.keyboard.press("Control+End");
    await other.keyboard.insertText(" AND ");
    await column.click();
    expect(await editorText(other)).toBe(
      "SELECT count() AS errors FROM traces WHERE status = 'error' AND duration_ms",
    );
    await dash.screenshot(other, "tql-schema");
    expect(console.errors).toEqual([]);
  });
});

/** The editor's answers to limits: a query stopped at the time limit (422), one too many (429). */
describe.skipIf(!chromiumAvailable)("dashboard TQL editor at the limits", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  /**
   * A billion generated rows, hashed: far past a two-second limit, with little memory (the
   * inner arrays hold 100 values; with 25,000 per row a block of rows could pass the memory
   * limit first, and the query ended at once instead of holding its slot).
   */
  const SLOW =
    "SELECT sum(cityHash64(a, b)) AS h FROM (SELECT arrayJoin(range(10000000)) AS a, arrayJoin(range(100)) AS b)";

  beforeAll(async () => {
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_TQL_MAX_EXECUTION_SECONDS: "2",
      VIGIL_TQL_MAX_CONCURRENT_PER_PROJECT: "1",
    });
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    dir.remove();
  });

  it("says a query was stopped at a limit, and that too many run at once", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`/projects/${dash.projectId}/tql`);
    await replaceText(page, SLOW);
    await page.keyboard.press("Control+Enter");
    const stopped = page.getByRole("alert").filter({ hasText: "The query was stopped at a limit" });
    // The engine checks its time limit between blocks: late on a busy machine, so wait longer.
    await stopped.waitFor({ timeout: 60_000 });
    expect(await stopped.textContent()).toMatch(/time|second/i);

    // Stop waiting for a slow run.
    await page.getByRole("button", { name: "Run" }).click();
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByText("Stopped waiting for the query.").waitFor();

    // A slow query from a script takes the project's only slot; the editor's run then is one
    // too many. On a busy machine the engine may end a slow query early (on another limit), so
    // the slot is taken again until one run is refused.
    const tql = `/api/projects/${dash.projectId}/v1/tql`;
    await replaceText(page, "SELECT 1 AS one");
    const busy = page.getByRole("alert").filter({ hasText: "Too many queries at once" });
    for (let attempt = 1; ; attempt++) {
      const holder = dash.owner.post(tql, { query: SLOW });
      await new Promise((resolve) => setTimeout(resolve, 200));
      await page.keyboard.press("Control+Enter");
      const refused = await busy.waitFor({ timeout: 10_000 }).then(
        () => true,
        () => false,
      );
      await (await holder).arrayBuffer();
      if (refused) break;
      if (attempt === 5) throw new Error("No run was refused: each slow query ended first");
    }
    expect(await busy.textContent()).toContain("at most 1 at once");
    await dash.screenshot(page, "tql-limits");
    expect(console.errors).toEqual([]);
  }, 90_000);
});
