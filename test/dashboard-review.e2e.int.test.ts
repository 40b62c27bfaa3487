import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { logsBody, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { addKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/** Every area of the navigation (web/src/screens/registry.ts), in order. */
const AREAS = [
  { key: "overview", label: "Overview" },
  { key: "dashboards", label: "Dashboards" },
  { key: "services", label: "Services" },
  { key: "traces", label: "Traces" },
  { key: "logs", label: "Logs" },
  { key: "metrics", label: "Metrics" },
  { key: "errors", label: "Errors" },
  { key: "tql", label: "TQL" },
  { key: "ai", label: "AI" },
  { key: "sessions", label: "Sessions" },
  { key: "monitors", label: "Monitors" },
  { key: "alerts", label: "Alerts" },
  { key: "incidents", label: "Incidents" },
  { key: "status-pages", label: "Status pages" },
  { key: "settings", label: "Settings" },
] as const;

/**
 * The dashboard as a brand-new user and as an attacker meet it: every area of an empty project
 * and then of one with data, hostile names, cross-origin writes, framing, session expiry and the
 * keyboard.
 */
describe.skipIf(!chromiumAvailable)("dashboard review", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;

  beforeAll(async () => {
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
    });
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    dir.remove();
  });

  /** Opens each area through its navigation link; returns each one's main heading. */
  async function tour(page: Page): Promise<Record<string, string>> {
    const headings: Record<string, string> = {};
    for (const area of AREAS) {
      await page
        .getByRole("navigation", { name: "Screens" })
        .getByRole("link", { name: area.label, exact: true })
        .click();
      await page.waitForURL(`**/projects/${dash.projectId}/${area.key}**`);
      const heading = page.locator("#content h1").first();
      await heading.waitFor();
      // Settle: the screen's queries answer (no loading placeholder left), and none failed.
      await page
        .locator("#content .loading")
        .first()
        .waitFor({ state: "detached", timeout: 30_000 });
      expect(await page.locator("#content .problem").allTextContents(), area.key).toEqual([]);
      headings[area.key] = (await heading.textContent())?.trim() ?? "";
    }
    return headings;
  }

  it("every area of an empty project, then of one with data, shows its heading without errors", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.waitForURL(/\/overview/);
    const nav = page.getByRole("navigation", { name: "Screens" }).locator("li a");
    expect(await nav.allTextContents()).toEqual(AREAS.map((a) => a.label));
    const empty = await tour(page);
    for (const area of AREAS) expect(empty[area.key], area.key).not.toBe("");
    await dash.screenshot(page, "review-empty-settings");
    expect(console.errors).toEqual([]);
    expect(console.failedRequests).toEqual([]);

    await dash.seedDemo(1_000);
    await page.reload();
    const seeded = await tour(page);
    for (const area of AREAS) expect(seeded[area.key], area.key).not.toBe("");
    expect(console.errors).toEqual([]);
    expect(console.failedRequests).toEqual([]);
  }, 180_000);

  it("refuses cross-origin writes with the session cookie and keeps projects apart", async () => {
    const tql = `/api/projects/${dash.projectId}/v1/tql`;
    const body = JSON.stringify({ query: "SELECT 1" });
    for (const origin of ["https://evil.example", "null", undefined]) {
      const response = await fetch(`${dash.baseUrl}${tql}`, {
        method: "POST",
        headers: {
          cookie: dash.owner.cookie,
          "content-type": "application/json",
          ...(origin ? { origin } : {}),
        },
        body,
      });
      expect(response.status, String(origin)).toBe(403);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/CSRF/);
    }
    // Reads carry no CORS grant: another site's script cannot read the answer.
    const me = await fetch(`${dash.baseUrl}/api/auth/me`, {
      headers: { cookie: dash.owner.cookie, origin: "https://evil.example" },
    });
    expect(me.headers.get("access-control-allow-origin")).toBeNull();
    await me.arrayBuffer();
    // The document may only be framed by its own origin.
    const html = await fetch(`${dash.baseUrl}/signin`);
    expect(html.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
    await html.arrayBuffer();

    // Another organization's project, a malformed id, path tricks: not found, never data.
    const other = `/api/projects/${dash.projectId}`;
    for (const path of [
      `${other}/v1/logs`,
      `/api/projects/nope/v1/logs`,
      `/api/projects/%2E%2E/v1/logs`,
      `${other}%2F..%2F/v1/logs`,
      `${other}/v1/%2e%2e/%2e%2e/projects`,
      `/api/projects/%00/v1/logs`,
    ]) {
      const response = await dash.outsider.get(path);
      expect(response.status, path).toBe(404);
      await response.arrayBuffer();
    }
    expect((await dash.outsider.post(tql, { query: "SELECT 1" })).status).toBe(404);
    // A viewer runs TQL (read-only) but cannot write through it.
    const read = await dash.viewer.post(tql, { query: "SELECT 1 AS one" });
    expect(read.status).toBe(200);
    await read.arrayBuffer();
    for (const query of ["INSERT INTO logs VALUES (1)", "DROP TABLE logs"]) {
      const response = await dash.viewer.post(tql, { query });
      expect(response.status, query).toBe(400);
      await response.arrayBuffer();
    }
  });

  it("shows hostile names and telemetry as text, never as markup", async () => {
    const payload = (where: string) =>
      `<img src=x onerror="window.__xss='${where}'"><script>window.__xss='${where}'</script>`;
    const key = await addKey(dash.service, dash.projectId, { name: "xss", role: "ingest" });
    const now = Date.now();
    const traceId = "a1".repeat(16);
    await sendOtlp(
      dash.service,
      key,
      "traces",
      tracesBody(payload("service"), [
        {
          traceId,
          spanId: "b2".repeat(8),
          name: payload("span"),
          startMs: now - 60_000,
          durationMs: 120,
          kind: 2,
          error: true,
          attributes: { "http.route": payload("route"), "user.note": payload("attribute") },
          events: [
            {
              name: "exception",
              timeMs: now - 59_990,
              attributes: {
                "exception.type": payload("type"),
                "exception.message": payload("message"),
                "exception.stacktrace": `Error: ${payload("stack")}\n    at x (${payload("frame")}:1:1)`,
              },
            },
          ],
        },
      ]),
    );
    await sendOtlp(
      dash.service,
      key,
      "logs",
      logsBody(payload("log-service"), [
        {
          timeMs: now - 30_000,
          severityNumber: 17,
          body: payload("log"),
          traceId,
          spanId: "b2".repeat(8),
          attributes: { note: payload("log-attribute") },
        },
      ]),
    );
    const base = `/api/projects/${dash.projectId}`;
    const created = await Promise.all([
      dash.owner.post(`${base}/incidents`, { title: payload("incident"), severity: "low" }),
      dash.owner.post(`${base}/saved-queries`, { name: payload("saved"), query: "SELECT 1" }),
      dash.owner.post(`/api/orgs/${dash.orgId}/status-pages`, {
        slug: "hostile",
        title: payload("status-page"),
      }),
    ]);
    for (const response of created) expect(response.status, await response.text()).toBe(201);

    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    const visit = async (path: string, text: RegExp | string) => {
      await page.goto(`/projects/${dash.projectId}/${path}`);
      await page.getByText(text).locator("visible=true").first().waitFor({ timeout: 20_000 });
    };
    await visit("traces?range=1h", /<img src=x/);
    await visit(`traces/${traceId}`, /<img src=x/);
    await visit("logs?range=1h", /<img src=x/);
    await visit("errors", /<img src=x/);
    await visit("incidents", /<img src=x/);
    await visit("status-pages", /<img src=x/);
    // The saved query's name, and a TQL result value (a shared link runs its query).
    await visit("tql", /<img src=x/);
    await visit(`tql?q=${encodeURIComponent(`SELECT '${payload("tql")}' AS v`)}`, /tql'/);
    expect(await page.evaluate("window.__xss")).toBeUndefined();
    expect(await page.locator("#content img[src='x'], #content script").count()).toBe(0);
    expect(console.errors).toEqual([]);
  });

  it("a session that ends while the app is open leads to sign in, and back to the same view", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`/projects/${dash.projectId}/logs?range=6h`);
    await page.locator("#content h1").waitFor();
    // The session ends elsewhere (signed out in another tab, or expired).
    const [cookie] = await page.context().cookies();
    const logout = await fetch(`${dash.baseUrl}/api/auth/logout`, {
      method: "POST",
      headers: { cookie: `${cookie?.name}=${cookie?.value}`, origin: dash.baseUrl },
    });
    expect(logout.status).toBeLessThan(300);
    await logout.arrayBuffer();
    // The next request the app makes is a 401.
    await page
      .getByRole("navigation", { name: "Screens" })
      .getByRole("link", { name: "Traces", exact: true })
      .click();
    await page.waitForURL(/\/signin\?next=/);
    // The navigation carried the time range along, and signing in comes back to it.
    expect(new URL(page.url()).searchParams.get("next")).toBe(
      `/projects/${dash.projectId}/traces?range=6h`,
    );
    await page.getByLabel("Email").fill("owner@example.com");
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`**/projects/${dash.projectId}/traces?range=6h`);
    await page.locator("#content h1", { hasText: "Traces" }).waitFor();
    expect(console.errors).toEqual([]);
  });

  it("after signing in, follows only paths of the dashboard itself", async () => {
    for (const next of [
      "/\\evil.example/x",
      "/\t/evil.example",
      "//evil.example",
      "https://evil.example",
    ]) {
      const { page, console } = await dash.newPage();
      await page.goto(`/signin?next=${encodeURIComponent(next)}`);
      await page.getByLabel("Email").fill("owner@example.com");
      await page.getByLabel("Password").fill("correct horse battery");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/projects\/[^/]+\/overview/, { timeout: 5_000 }).catch(() => {
        throw new Error(`${JSON.stringify(next)}: stuck at ${page.url()}, ${console.errors}`);
      });
      expect(new URL(page.url()).origin, next).toBe(dash.baseUrl);
      expect(console.errors, next).toEqual([]);
    }
  });

  it("a keyboard alone signs in, skips to the content and reaches every area", async () => {
    const { page, console } = await dash.newPage();
    await page.goto("/signin");
    await page.getByLabel("Email").waitFor();
    // The email field has the focus when the page opens.
    expect(await page.evaluate("document.activeElement?.id")).toBe("email");
    await page.keyboard.type("owner@example.com");
    await page.keyboard.press("Tab");
    await page.keyboard.type("correct horse battery");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/overview/);
    await page.locator("#content h1").waitFor();

    // The first Tab shows the skip link; Enter moves focus to the content.
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    expect(await page.locator(".skip-link:focus").count()).toBe(1);
    const box = await skip.boundingBox();
    expect(box && box.y >= 0 && box.width > 1).toBe(true);
    await page.keyboard.press("Enter");
    expect(await page.evaluate("document.activeElement?.id")).toBe("content");

    // Every area's link is reached by Tab from the top, with a visible focus ring, and Enter opens it.
    for (const area of AREAS) {
      await page.goto(`/projects/${dash.projectId}/overview`);
      await page.locator("#content h1").waitFor();
      let reached = false;
      for (let presses = 0; presses < 30 && !reached; presses++) {
        await page.keyboard.press("Tab");
        const focused = page.locator("nav :focus");
        reached = (await focused.count()) === 1 && (await focused.textContent()) === area.label;
      }
      expect(reached, area.label).toBe(true);
      const outline = await page.evaluate(
        "(s => s.outlineStyle + ' ' + s.outlineWidth)(getComputedStyle(document.activeElement))",
      );
      expect(outline, area.label).not.toMatch(/^none|0px$/);
      await page.keyboard.press("Enter");
      await page.waitForURL(`**/projects/${dash.projectId}/${area.key}**`);
      await page.locator("#content h1").waitFor();
    }
    expect(console.errors).toEqual([]);
  }, 90_000);

  it("exports a TQL result as CSV whose text cells cannot run as spreadsheet formulas", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    const query = `SELECT '=HYPERLINK("https://evil.example","x")' AS body, toInt64(-5) AS delta UNION ALL SELECT '@SUM(A1)', 3`;
    await page.goto(`/projects/${dash.projectId}/tql?q=${encodeURIComponent(query)}`);
    const button = page.getByRole("button", { name: "Download CSV" });
    await button.waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
    const csv = await readFile(await download.path(), "utf8");
    expect(csv.split("\r\n").sort()).toEqual(
      ["body,delta", `"'=HYPERLINK(""https://evil.example"",""x"")",-5`, "'@SUM(A1),3", ""].sort(),
    );
    expect(console.errors).toEqual([]);
  });
});
