import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/**
 * The query builder in Chromium over the demo dataset: on the TQL screen's Builder tab, a filter
 * and a group-by write the TQL shown beside them; it runs into a table; "Create alert" opens the
 * rule form in its builder with the alert's form of the query, which is saved and listed.
 * Edit as TQL takes the builder's text to the editor. (The evaluator is off.)
 */
describe.skipIf(!chromiumAvailable)("dashboard: query builder", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;

  beforeAll(async () => {
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
    });
    await dash.seedDemo(600);
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    dir.remove();
  });

  it("builds a query, shows its TQL, runs it, and turns it into an alert rule", async () => {
    const { page, console } = await dash.newPage({ height: 1100 });
    await dash.signIn(page);
    await page.goto(`/projects/${dash.projectId}/tql`);
    await page.getByRole("tab", { name: "Builder" }).click();
    const builder = page.getByTestId("query-builder");
    await builder.waitFor();
    const tql = builder.getByTestId("builder-tql");
    // It starts as a count of spans per auto bucket.
    expect(await tql.textContent()).toContain("count() AS count");

    await builder.getByRole("button", { name: "Add filter" }).click();
    await builder.getByLabel("Filter 1 field").fill("span_kind");
    await builder.getByLabel("Filter 1 operator").selectOption("=");
    await builder.getByLabel("Filter 1 value").fill("server");
    await builder.getByRole("button", { name: "Add group by" }).click();
    await builder.getByLabel("Group by 1", { exact: true }).fill("service_name");
    await builder.getByLabel("Time bucket").selectOption("none");
    await builder.getByLabel("Aggregation 1", { exact: true }).selectOption("p95");
    await builder.getByLabel("Aggregation 1 field").fill("duration_ms");
    await page.keyboard.press("Escape");
    await tql.filter({ hasText: "LIMIT 100" }).waitFor();
    expect(await tql.textContent()).toBe(
      [
        "SELECT service_name, quantile(0.95)(`duration_ms`) AS p95_duration_ms",
        "FROM traces",
        "WHERE $__timeFilter(timestamp)",
        "  AND `span_kind` = 'server'",
        "GROUP BY service_name",
        "ORDER BY p95_duration_ms DESC",
        "LIMIT 100",
      ].join("\n"),
    );
    // The state is in the URL, so the view can be shared or saved.
    await page.waitForURL(/[?&]builder=/);
    expect(new URL(page.url()).searchParams.get("mode")).toBe("builder");
    await dash.screenshot(page, "query-builder");

    await builder.getByRole("button", { name: "Run", exact: true }).click();
    const result = page.getByRole("region", { name: "Query result" });
    await result.waitFor();
    const text = (await result.textContent()) ?? "";
    expect(text).toMatch(/2 rows/);
    expect(text).toContain("api-gateway");
    expect(text).toContain("orders-service");

    await result.getByRole("link", { name: "Create alert" }).click();
    await page.waitForURL(/\/alerts\/new\?/);
    const form = page.getByRole("form", { name: "Alert rule" });
    expect(await form.getByLabel("With the query builder").isChecked()).toBe(true);
    expect(await form.getByLabel("Name", { exact: true }).inputValue()).toBe(
      "p95(duration_ms) of traces by service_name",
    );
    const alertTql = form.getByTestId("builder-tql");
    expect(await alertTql.textContent()).toBe(
      [
        "SELECT service_name, quantile(0.95)(`duration_ms`) AS value",
        "FROM traces",
        "WHERE timestamp >= now() - INTERVAL 300 SECOND",
        "  AND `span_kind` = 'server'",
        "GROUP BY service_name",
      ].join("\n"),
    );
    await form.getByLabel("Look back over").selectOption("3600");
    expect(await alertTql.textContent()).toContain("INTERVAL 3600 SECOND");
    await form.getByLabel("Threshold").fill("500");
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByTestId("alert-preview");
    await preview
      .getByText(/service_name=/)
      .first()
      .waitFor();
    await dash.screenshot(page, "query-builder-alert");
    await page.getByRole("button", { name: "Create rule" }).click();
    await page.waitForURL(/\/alerts\/alr_[^/]+$/);
    const ruleId = page.url().split("/alerts/")[1] ?? "";
    const saved = await dash.owner.get(`/api/projects/${dash.projectId}/alert-rules/${ruleId}`);
    expect(await saved.json()).toMatchObject({
      name: "p95(duration_ms) of traces by service_name",
      query: expect.stringContaining("INTERVAL 3600 SECOND"),
      condition: { op: ">", threshold: 500 },
    });

    await page.getByRole("link", { name: "← Alerts" }).click();
    await page.getByRole("row", { name: /p95\(duration_ms\) of traces by service_name/ }).waitFor();
    expect(console.errors).toEqual([]);
  });

  it("takes the builder's TQL to the editor with Edit as TQL, and opens its saved view again", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    const state = {
      source: "logs",
      aggregations: [{ fn: "count" }],
      groupBy: ["level"],
      bucket: "none",
    };
    await page.goto(
      `/projects/${dash.projectId}/tql?mode=builder&builder=${encodeURIComponent(JSON.stringify(state))}`,
    );
    // A link with the builder's state opens with it run.
    const result = page.getByRole("region", { name: "Query result" });
    await result.waitFor();
    expect(await result.textContent()).toMatch(/info/);
    await page.getByRole("button", { name: "Saved views" }).click();
    await page.getByLabel("Save this view as").fill("Levels");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("button", { name: "View: Levels" }).waitFor();
    await page.getByRole("button", { name: "View: Levels" }).click();
    await page.getByRole("button", { name: "Edit as TQL" }).click();
    await page.locator(".cm-content").waitFor();
    const lines = await page.locator(".cm-content .cm-line").allTextContents();
    expect(lines).toEqual([
      "SELECT level, count() AS count",
      "FROM logs",
      "WHERE $__timeFilter(timestamp)",
      "GROUP BY level",
      "ORDER BY count DESC",
      "LIMIT 100",
    ]);
    expect(new URL(page.url()).searchParams.get("mode")).toBeNull();

    // The builder's view, saved before, opens on this screen as it was.
    await page.getByRole("button", { name: "Saved views" }).click();
    await page.getByRole("link", { name: "Levels" }).click();
    await page.getByRole("tab", { name: "Builder", selected: true }).waitFor();
    await page.getByTestId("builder-tql").filter({ hasText: "GROUP BY level" }).waitFor();
    expect(console.errors).toEqual([]);
  });

  it("builds a dashboard panel's query in the panel editor", async () => {
    const created = await dash.owner.post(`/api/projects/${dash.projectId}/dashboards`, {
      title: "Built",
    });
    const { id } = (await created.json()) as { id: string };
    const { page, console } = await dash.newPage({ height: 1100 });
    await dash.signIn(page);
    await page.goto(`/projects/${dash.projectId}/dashboards/${id}/edit`);
    await page.getByRole("button", { name: "Add panel" }).click();
    const editor = page.getByRole("dialog", { name: /^New panel/ });
    await editor.getByLabel("Title").fill("Logs by level");
    await editor.getByRole("button", { name: "Query builder" }).click();
    const builder = editor.getByTestId("query-builder");
    await builder.getByLabel("Source").selectOption("logs");
    await builder.getByRole("button", { name: "Add group by" }).click();
    await builder.getByLabel("Group by 1", { exact: true }).fill("level");
    await page.keyboard.press("Escape");
    const tql = builder.getByTestId("builder-tql");
    await tql.filter({ hasText: "GROUP BY t, level" }).waitFor();
    // A time series panel's query is over time: the preview draws it.
    await editor.locator(".dse-preview canvas, .dse-preview .u-over").first().waitFor();
    const text = (await tql.textContent()) ?? "";
    expect(text).toMatch(
      /^SELECT \$__timeInterval\(timestamp\) AS t, level, count\(\) AS count\nFROM logs/,
    );
    await editor.getByRole("button", { name: "Add to dashboard" }).click();
    await editor.waitFor({ state: "detached" });
    const patch = page.waitForResponse((r) => r.request().method() === "PATCH");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    expect((await patch).status()).toBe(200);
    const saved = (await (
      await dash.owner.get(`/api/projects/${dash.projectId}/dashboards/${id}`)
    ).json()) as { panels: { title: string; queries: { tql: string }[] }[] };
    expect(saved.panels).toMatchObject([{ title: "Logs by level", queries: [{ tql: text }] }]);
    expect(console.errors).toEqual([]);
  });
});
