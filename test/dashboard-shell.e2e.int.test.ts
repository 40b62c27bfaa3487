import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoRequests } from "../src/demo/generator.js";
import { sendAll } from "../src/demo/sender.js";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { addKey } from "./helpers/projects.js";
import { OUTSIDER } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/**
 * The dashboard's shell in Chromium: serving, signing in and out, switching and creating
 * projects, and the one time range every screen shares.
 */
describe.skipIf(!chromiumAvailable)("dashboard shell", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  /** When the older demo data (another seed, so other traces) ends: 45 days ago. */
  const OLD_END = Date.now() - 45 * 86_400_000;

  beforeAll(async () => {
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      // Kept for 90 days, so the data of 45 days ago is there to find.
      VIGIL_RETENTION_DAYS: "90",
    });
    await dash.seedDemo(600);
    const key = await addKey(dash.service, dash.projectId, { name: "old demo", role: "full" });
    await sendAll(
      demoRequests({ spans: 300, batchSpans: 500, windowMs: 3_600_000, nowMs: OLD_END, seed: 7 }),
      { url: dash.service.url, key, concurrency: 2 },
    );
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    dir.remove();
  });

  it("serves the app shell with a strict CSP and hashed assets cached for a year", async () => {
    const index = await fetch(`${dash.baseUrl}/projects/anything/traces`);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toContain("text/html");
    expect(index.headers.get("cache-control")).toBe("no-cache");
    expect(index.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await index.text();
    const script = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${dash.baseUrl}${script}`, { headers: { "accept-encoding": "br" } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect(asset.headers.get("content-encoding")).toBe("br");
    await asset.arrayBuffer();
    const missing = await fetch(`${dash.baseUrl}/assets/missing.js`);
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
    // API paths keep answering problems, never the app's HTML.
    const api = await fetch(`${dash.baseUrl}/api/nothing`);
    expect(api.headers.get("content-type")).toContain("problem+json");
    await api.arrayBuffer();
  });

  it("keeps the JavaScript a first visit loads within 300 KB gzip (the screens load on demand)", async () => {
    const html = await (await fetch(`${dash.baseUrl}/signin`)).text();
    const initial = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(initial.length).toBeGreaterThan(0);
    let gzipBytes = 0;
    for (const path of initial) {
      const response = await fetch(`${dash.baseUrl}${path}`, {
        headers: { "accept-encoding": "gzip" },
      });
      // fetch decodes the body; the served gzip size is what the network carries.
      const raw = await response.arrayBuffer();
      gzipBytes += gzipSync(Buffer.from(raw), { level: 9 }).length;
    }
    process.stdout.write(`dashboard initial JS: ${(gzipBytes / 1024).toFixed(1)} KB gzip\n`);
    expect(gzipBytes).toBeLessThan(300 * 1024);
  });

  it("the session-mounted read verbs need a session and a project of the user's organizations", async () => {
    const path = `/api/projects/${dash.projectId}/v1/logs`;
    const anonymous = await fetch(`${dash.baseUrl}${path}`);
    expect(anonymous.status).toBe(401);
    await anonymous.arrayBuffer();
    expect((await dash.owner.get(path)).status).toBe(200);
    expect((await dash.viewer.get(path)).status).toBe(200);
    expect((await dash.outsider.get(path)).status).toBe(404);
    const tql = await dash.outsider.post(`/api/projects/${dash.projectId}/v1/tql`, {
      query: "SELECT 1",
    });
    expect(tql.status).toBe(404);
  });

  it("sends a signed-out visitor to sign in and back to the page asked for", async () => {
    const { page, console } = await dash.newPage();
    await page.goto(`/projects/${dash.projectId}/logs?q=timeout`);
    await page.waitForURL(/\/signin\?next=/);
    await dash.screenshot(page, "sign-in");
    await page.getByLabel("Email").fill("owner@example.com");
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: "Sign in" }).click();
    expect(await page.getByRole("alert").textContent()).toMatch(/invalid|incorrect|wrong/i);
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(
      (url) => url.pathname.endsWith(`/${dash.projectId}/logs`) && url.search === "?q=timeout",
    );
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/signin/);
    expect(console.errors).toEqual([]);
  });

  it("creates a project and switches between projects", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.waitForURL(/\/projects\/[^/]+\/overview/);
    await page.getByRole("link", { name: "All projects" }).click();
    await page.getByLabel("Name").fill("Checkout");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.waitForURL(/\/projects\/[^/]+\/overview/);
    const created = page.url().split("/projects/")[1]?.split("/")[0] ?? "";
    expect(created).not.toBe(dash.projectId);
    await page.getByRole("link", { name: "Logs", exact: true }).click();
    await page.getByLabel("Project").selectOption(dash.projectId);
    // The other project opens on the same screen and the same time range.
    await page.waitForURL(
      (url) =>
        url.pathname === `/projects/${dash.projectId}/logs` &&
        url.searchParams.get("range") === "1h",
    );
    await dash.screenshot(page, "projects");
    expect(console.errors).toEqual([]);
  });

  it("an outsider opening another organization's project sees not found", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page, OUTSIDER);
    await page.goto(`/projects/${dash.projectId}/overview`);
    await page.getByText("Project not found").waitFor();
    expect(console.errors).toEqual([]);
  });

  /** The screens whose figures cover a time range, as the navigation names them. */
  const TIMED = ["Overview", "Traces", "Logs", "Errors", "AI", "Sessions"] as const;
  const nav = (page: Page, name: string) =>
    page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name, exact: true });
  const picked = (page: Page) => page.getByLabel("Time range").inputValue();
  const query = (page: Page) => new URL(page.url()).searchParams;

  it("every screen with a time range opens on the same default, the last hour", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    for (const area of ["overview", "traces", "logs", "errors", "ai", "sessions"]) {
      await page.goto(`/projects/${dash.projectId}/${area}`);
      await page.getByLabel("Time range").waitFor();
      expect(await picked(page), area).toBe("1h");
    }
    expect(console.errors).toEqual([]);
  });

  it("a range chosen on one screen goes along to every other, in the URL and for the session", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`/projects/${dash.projectId}/traces`);
    await page.getByLabel("Time range").selectOption("6h");
    await page.waitForURL((url) => url.searchParams.get("range") === "6h");
    for (const name of [...TIMED, "Settings", "Monitors", "Traces"]) {
      await nav(page, name).click();
      await page.waitForURL((url) => url.pathname.includes(`/${name.toLowerCase()}`));
      expect(query(page).get("range"), name).toBe("6h");
      if (TIMED.includes(name as (typeof TIMED)[number])) {
        await page.getByLabel("Time range").waitFor();
        expect(await picked(page), name).toBe("6h");
      }
    }
    // A screen opened without a range (a bookmark, a link) shows the session's.
    await page.goto(`/projects/${dash.projectId}/errors`);
    await page.getByLabel("Time range").waitFor();
    expect(await picked(page)).toBe("6h");
    expect(await nav(page, "Logs").getAttribute("href")).toBe(
      `/projects/${dash.projectId}/logs?range=6h`,
    );
    expect(console.errors).toEqual([]);
  }, 90_000);

  it("an absolute start and end go to the URL and to the API as from and to", async () => {
    const { page, console } = await dash.newPage();
    page.setDefaultTimeout(20_000);
    await dash.signIn(page);
    await page.goto(`/projects/${dash.projectId}/traces?range=6h`);
    await page.locator(".trace-link").first().waitFor();
    // A window of the seeded data, in the browser's time zone as the inputs take it.
    const window = await page.evaluate(() => {
      const at = (minutesAgo: number) => {
        const d = new Date(Date.now() - minutesAgo * 60_000);
        d.setSeconds(0, 0);
        return d;
      };
      const pad = (n: number) => String(n).padStart(2, "0");
      const local = (d: Date) =>
        `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:00`;
      const from = at(90);
      const to = at(30);
      return {
        startInput: local(from),
        endInput: local(to),
        from: from.toISOString(),
        to: to.toISOString(),
      };
    });
    await page.getByRole("button", { name: "Absolute…" }).click();
    // The end before the start is refused, saying which.
    await page.getByLabel("Range start").fill(window.endInput);
    await page.getByLabel("Range end").fill(window.startInput);
    await page.getByRole("button", { name: "Apply" }).click();
    expect(await page.getByRole("alert").textContent()).toContain("start must be before the end");
    expect(query(page).get("range")).toBe("6h");

    await page.getByLabel("Range start").fill(window.startInput);
    await page.getByLabel("Range end").fill(window.endInput);
    const asked = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return (
        url.pathname.endsWith("/v1/traces") &&
        url.searchParams.get("from") === window.from &&
        url.searchParams.get("to") === window.to
      );
    });
    await page.getByRole("button", { name: "Apply" }).click();
    await asked;
    await page.waitForURL((url) => url.searchParams.get("from") === window.from);
    expect(query(page).get("to")).toBe(window.to);
    expect(query(page).has("range")).toBe(false);
    expect(await picked(page)).toBe("custom");
    await page.getByRole("button", { name: "Absolute…" }).click();
    await dash.screenshot(page, "time-range-absolute");
    await page.getByRole("button", { name: "Absolute…" }).click();

    // The window goes along to the next screen, and that screen asks for it as it is.
    const overview = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return (
        url.pathname.endsWith("/v1/http-metrics") &&
        url.searchParams.get("from") === window.from &&
        url.searchParams.get("to") === window.to
      );
    });
    await nav(page, "Overview").click();
    await overview;
    expect(query(page).get("from")).toBe(window.from);

    // Back returns to the range before.
    await page.goBack();
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get("range") === "6h");
    expect(console.errors).toEqual([]);
  }, 90_000);

  it("dragging across a chart zooms every figure to that window; Back returns", async () => {
    const { page, console } = await dash.newPage();
    page.setDefaultTimeout(20_000);
    await dash.signIn(page);
    await page.goto(`/projects/${dash.projectId}/overview?range=6h`);
    const chart = page.locator("figure.chart").first();
    const over = chart.locator(".u-over");
    await over.waitFor();
    const box = await over.boundingBox();
    if (!box) throw new Error("the chart has no plotting area");
    const before = { from: Date.now() - 6 * 3_600_000, to: Date.now() + 60_000 };
    const zoomed = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return (
        url.pathname.endsWith("/v1/http-metrics") &&
        url.searchParams.has("from") &&
        !url.searchParams.has("range") &&
        url.searchParams.get("time_range") !== "6h"
      );
    });
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.55, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.7, y, { steps: 8 });
    await page.mouse.move(box.x + box.width * 0.85, y, { steps: 8 });
    await page.mouse.up();
    await page.waitForURL((url) => url.searchParams.has("from"));
    const from = Date.parse(query(page).get("from") ?? "");
    const to = Date.parse(query(page).get("to") ?? "");
    expect(query(page).has("range")).toBe(false);
    // About the middle third of the six hours dragged across, inside them.
    expect(from).toBeGreaterThan(before.from);
    expect(to).toBeLessThanOrEqual(before.to);
    expect(to - from).toBeGreaterThan(0.2 * 6 * 3_600_000);
    expect(to - from).toBeLessThan(0.4 * 6 * 3_600_000);
    const request = new URL((await zoomed).url());
    expect(request.searchParams.get("from")).toBe(new Date(from).toISOString());
    expect(request.searchParams.get("to")).toBe(new Date(to).toISOString());
    expect(await picked(page)).toBe("custom");
    await page.locator("figure.chart canvas").first().waitFor();
    await dash.screenshot(page, "chart-zoomed");

    // Zoom out doubles the window; Back returns to the zoomed one, and then to the six hours.
    await page.getByRole("button", { name: "Zoom out" }).click();
    await page.waitForURL((url) => Date.parse(url.searchParams.get("from") ?? "") < from);
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get("from") === new Date(from).toISOString());
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get("range") === "6h");
    expect(await picked(page)).toBe("6h");
    expect(console.errors).toEqual([]);
  }, 90_000);

  it("Back undoes a zoom on a screen opened without a range in its URL", async () => {
    const { page, console } = await dash.newPage();
    page.setDefaultTimeout(20_000);
    await dash.signIn(page);
    // A fresh tab: the session has no range yet, so the screen shows the default, the last hour.
    await page.goto(`/projects/${dash.projectId}/overview`);
    const over = page.locator("figure.chart").first().locator(".u-over");
    await over.waitFor();
    expect(query(page).has("range")).toBe(false);
    expect(await picked(page)).toBe("1h");
    const box = await over.boundingBox();
    if (!box) throw new Error("the chart has no plotting area");
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.3, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, y, { steps: 8 });
    await page.mouse.move(box.x + box.width * 0.7, y, { steps: 8 });
    await page.mouse.up();
    await page.waitForURL((url) => url.searchParams.has("from"));
    expect(await picked(page)).toBe("custom");
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has("from"));
    await page.getByLabel("Time range").waitFor();
    expect(await picked(page)).toBe("1h");
    expect(query(page).get("range")).toBe("1h");

    // The same for Zoom out: Back returns to the hour, not to the six hours it moved to.
    await page.goto(`/projects/${dash.projectId}/traces`);
    await page.getByLabel("Time range").waitFor();
    expect(await picked(page)).toBe("1h");
    await page.getByRole("button", { name: "Zoom out" }).click();
    await page.waitForURL((url) => url.searchParams.get("range") === "6h");
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get("range") === "1h");
    expect(await picked(page)).toBe("1h");
    expect(console.errors).toEqual([]);
  }, 90_000);

  it("a trace's logs link looks around when the trace ran, however long ago, and the session keeps that window", async () => {
    const { page, console } = await dash.newPage();
    page.setDefaultTimeout(20_000);
    await dash.signIn(page);
    // A log of a trace of 45 days ago, older than any preset reaches.
    const logs = (await (
      await dash.owner.get(
        `/api/projects/${dash.projectId}/v1/logs?from=${new Date(OLD_END - 2 * 3_600_000).toISOString()}&to=${new Date(OLD_END + 60_000).toISOString()}&limit=200`,
      )
    ).json()) as { data: { traceId: string | null; timestamp: string }[] };
    const old = logs.data.find((l) => l.traceId !== null);
    if (!old?.traceId) throw new Error("the older demo data has no log of a trace");
    const traceId = old.traceId;

    await page.goto(`/projects/${dash.projectId}/traces/${traceId}`);
    const link = page.getByRole("link", { name: "Logs of this trace" });
    await link.waitFor();
    const listed = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname.endsWith("/v1/logs") && url.searchParams.get("trace_id") === traceId;
    });
    // Awaited below; a failure before then is the test's, not an unhandled rejection.
    listed.catch(() => undefined);
    await link.click();
    await page.waitForURL((url) => url.searchParams.get("traceId") === traceId);
    expect(query(page).has("range")).toBe(false);
    const from = Date.parse(query(page).get("from") ?? "");
    const to = Date.parse(query(page).get("to") ?? "");
    // A window of minutes around the trace, holding its log.
    expect(from).toBeLessThanOrEqual(Date.parse(old.timestamp));
    expect(to).toBeGreaterThan(Date.parse(old.timestamp));
    expect(to - from).toBeLessThan(2 * 3_600_000);
    const response = (await (await listed).json()) as { data: { traceId: string }[] };
    expect(response.data.length).toBeGreaterThan(0);
    expect(response.data.every((l) => l.traceId === traceId)).toBe(true);
    await page.locator(".logs-row").first().waitFor();
    expect(await picked(page)).toBe("custom");

    // That window is the session's now: the next screen opens on it, not on the last 30 days.
    await nav(page, "Traces").click();
    await page.waitForURL((url) => url.pathname.endsWith("/traces"));
    expect(query(page).get("from")).toBe(new Date(from).toISOString());
    expect(query(page).get("to")).toBe(new Date(to).toISOString());
    expect(query(page).has("range")).toBe(false);
    expect(console.errors).toEqual([]);
  }, 90_000);
});
