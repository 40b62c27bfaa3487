import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { OUTSIDER } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/** The dashboard's shell in Chromium: serving, signing in and out, switching and creating projects. */
describe.skipIf(!chromiumAvailable)("dashboard shell", () => {
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
    await page.waitForURL(`**/projects/${dash.projectId}/logs`);
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
});
