import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/**
 * The status page editor and its live preview in Chromium: the editor's badges, the preview
 * (the public page in a frame) and the public page itself name every state the same way, from
 * the one rule; publishing a component's source incidents is a checkbox of the component.
 */
describe.skipIf(!chromiumAvailable)("dashboard: status page editor and preview", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let target: Server;
  let pageId: string;

  beforeAll(async () => {
    target = createServer((req, res) => {
      res.writeHead(req.url === "/a" ? 503 : 200);
      res.end("ok");
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
    });
    const { owner, projectId, orgId } = dash;
    const monitor = async (name: string, path: string) =>
      (
        (await (
          await owner.post(`/api/projects/${projectId}/monitors`, {
            name,
            type: "api",
            frequency: "1m",
            alertAfter: 1,
            steps: [{ url: `${url}${path}` }],
          })
        ).json()) as { id: string }
      ).id;
    const a = await monitor("Payments A", "/a");
    const b = await monitor("Payments B", "/b");
    const base = `/api/orgs/${orgId}/status-pages`;
    pageId = (
      (await (await owner.post(base, { slug: "acme", title: "Acme status" })).json()) as {
        page: { id: string };
      }
    ).page.id;
    await owner.post(`${base}/${pageId}/components`, { name: "Checkout", monitorIds: [a, b] });
    await owner.post(`${base}/${pageId}/components`, {
      name: "Docs",
      monitorIds: [a, b],
      publishIncidents: false,
    });
    await owner.post(`/api/projects/${projectId}/monitors/${b}/run`);
    // One of the two monitors goes down: its outage opens a high-severity incident.
    await owner.post(`/api/projects/${projectId}/monitors/${a}/run`);
  }, 180_000);

  afterAll(async () => {
    await dash?.close();
    await new Promise<void>((resolve) => target?.close(() => resolve()));
    dir.remove();
  });

  it("the editor, its preview and the public page show the same states in the same words", async () => {
    const { page, console } = await dash.newPage({ width: 1440, height: 1000 });
    await dash.signIn(page);
    await page.goto(`/projects/${dash.projectId}/status-pages/${pageId}`);
    const main = page.locator("#content");
    await main.getByRole("heading", { name: "Acme status" }).waitFor();
    const row = (name: string) => main.getByRole("row").filter({ hasText: name });
    // Checkout publishes the outage's incident (high): an outage. Docs does not: degraded.
    await row("Checkout").getByText("Outage", { exact: true }).waitFor();
    await row("Docs").getByText("Degraded performance", { exact: true }).waitFor();
    expect(await row("Docs").textContent()).toContain("Source incidents not shown");
    expect(await main.locator(".sp-facts .badge").first().textContent()).toBe("Outage");

    const preview = page.frameLocator('iframe[title^="Preview of the public page"]');
    await preview.locator("#overall").waitFor();
    expect(await preview.locator("#overall").textContent()).toBe("Outage");
    expect(await preview.locator("article.incident .pill").first().textContent()).toBe("Outage");
    expect(await preview.locator(".component h3").allTextContents()).toEqual(["Checkout", "Docs"]);
    expect(
      await preview
        .locator(".component")
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-status"))),
    ).toEqual(["down", "degraded"]);
    await dash.screenshot(page, "status-page-editor");

    // Docs starts showing its sources' incidents: an outage too, in the table and the preview.
    await main.getByRole("button", { name: "Edit component Docs" }).click();
    const form = page.getByRole("form", { name: "Edit component Docs" });
    const publish = form.getByRole("checkbox", {
      name: "Show its monitors' and alert rules' incidents on the public page",
    });
    expect(await publish.isChecked()).toBe(false);
    await publish.check();
    await form.getByRole("button", { name: "Save component" }).click();
    await row("Docs").getByText("Outage", { exact: true }).waitFor();
    await preview.locator('.component[data-status="degraded"]').waitFor({ state: "detached" });
    expect(
      await preview
        .locator(".component")
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-status"))),
    ).toEqual(["down", "down"]);
    expect(await preview.locator("article.incident .meta").last().textContent()).toBe(
      "Affected: Checkout, Docs",
    );
    await dash.screenshot(page, "status-page-editor-published");

    await page.goto("/status/acme");
    expect(await page.locator("#overall").textContent()).toBe("Outage");
    await dash.screenshot(page, "status-page-public");
    expect(console.errors).toEqual([]);
  });
});
