import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { VIEWER } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";

interface IncidentDetail {
  id: string;
  status: string;
  severity: string;
  timeline: { type: string; message: string | null; public: boolean; phase: string | null }[];
}
interface StatusPageConfig {
  page: { id: string; slug: string; title: string };
  groups: { id: string; name: string }[];
  components: { id: string; name: string; groupId: string | null; monitors: { id: string }[] }[];
  maintenances: { title: string; phase: string; componentIds: string[] }[];
}

/** The dashboard's Incidents and Status pages screens in Chromium, against the real service. */
describe.skipIf(!chromiumAvailable)("dashboard incidents and status pages", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let monitorId: string;

  const json = async <T>(response: Response, status = 200): Promise<T> => {
    const body = (await response.json()) as T;
    expect(response.status, JSON.stringify(body)).toBe(status);
    return body;
  };
  const incidentsPath = () => `/projects/${dash.projectId}/incidents`;
  const pagesPath = () => `/projects/${dash.projectId}/status-pages`;
  /** How many controls of that role and exact name the page shows (0 for a viewer). */
  const count = async (page: Page, role: "button" | "link" | "form", name: string) =>
    page.getByRole(role, { name, exact: true }).count();

  beforeAll(async () => {
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
    });
    const monitor = await json<{ id: string }>(
      await dash.owner.post(`/api/projects/${dash.projectId}/monitors`, {
        name: "Homepage",
        type: "api",
        frequency: "1h",
        steps: [{ url: "https://example.com/" }],
      }),
      201,
    );
    monitorId = monitor.id;
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    dir.remove();
  });

  it("declares an incident, posts public and private updates, and resolves it", async () => {
    const { page, console } = await dash.newPage();
    page.setDefaultTimeout(10_000);
    await dash.signIn(page);
    await page.goto(incidentsPath());
    await page.getByText("No incidents", { exact: true }).waitFor();

    await page.getByRole("button", { name: "Declare incident" }).click();
    const declare = page.getByRole("form", { name: "Declare an incident" });
    await declare.getByLabel("Title").fill("Checkout payments failing");
    await declare.getByLabel("Severity").selectOption("critical");
    await declare.getByLabel("First update").fill("Card payments fail for some customers.");
    await dash.screenshot(page, "incidents-declare");
    await declare.getByRole("button", { name: "Declare incident" }).click();
    await page.waitForURL(/\/incidents\/inc_[^/?]+$/);
    const incidentId = page.url().split("/incidents/")[1] ?? "";

    const timeline = page.getByRole("list", { name: "Timeline" });
    await timeline.getByText("Card payments fail for some customers.").waitFor();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
      "Checkout payments failing",
    );

    // A public update with a new phase.
    const form = page.getByRole("form", { name: "Post an update" });
    await form.getByLabel("Phase").selectOption("identified");
    await form.getByLabel("Message").fill("The card processor times out; failing over.");
    await form.getByRole("button", { name: "Post public update" }).click();
    const update = timeline
      .getByRole("listitem")
      .filter({ hasText: "The card processor times out; failing over." });
    await update.waitFor();
    expect(await update.textContent()).toContain("Public");
    expect(await update.textContent()).toContain("identified");

    // A private note for the team.
    await form.getByLabel("Private note").check();
    await form.getByLabel("Message").fill("Paging the payments team.");
    await form.getByRole("button", { name: "Add private note" }).click();
    const note = timeline.getByRole("listitem").filter({ hasText: "Paging the payments team." });
    await note.waitFor();
    expect(await note.textContent()).toContain("Private");
    await dash.screenshot(page, "incidents-detail");

    await page.getByRole("button", { name: "Resolve incident" }).click();
    await page.getByRole("button", { name: "Reopen" }).waitFor();
    await timeline.getByRole("listitem").filter({ hasText: "Resolved" }).first().waitFor();

    const detail = await json<IncidentDetail>(
      await dash.owner.get(`/api/projects/${dash.projectId}/incidents/${incidentId}`),
    );
    expect(detail.status).toBe("resolved");
    expect(detail.severity).toBe("critical");
    expect(detail.timeline.map((e) => e.type)).toEqual([
      "opened",
      "update",
      "update",
      "comment",
      "resolved",
    ]);
    expect(detail.timeline.filter((e) => e.public).map((e) => e.phase)).toEqual([
      "investigating",
      "identified",
    ]);

    // The list, filtered in the URL.
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link").click();
    await page.waitForURL((url) => url.pathname.endsWith("/incidents"));
    await page.getByLabel("Status", { exact: true }).selectOption("resolved");
    await page.waitForURL(/status=resolved/);
    const row = page.getByRole("row").filter({ hasText: "Checkout payments failing" });
    await row.waitFor();
    expect(await row.textContent()).toContain("Manual");
    await page.getByLabel("Status", { exact: true }).selectOption("active");
    await page.getByText("No incidents match these filters").waitFor();
    await page.getByLabel("Status", { exact: true }).selectOption("");
    await row.waitFor();
    await dash.screenshot(page, "incidents-list");
    expect(console.errors).toEqual([]);
  });

  it("builds a status page with a group, a component on a monitor and a maintenance window", async () => {
    const { page, console } = await dash.newPage();
    page.setDefaultTimeout(10_000);
    await dash.signIn(page);
    await page.goto(pagesPath());
    await page.getByText("No status pages yet").waitFor();

    await page.getByRole("button", { name: "New status page" }).click();
    const create = page.getByRole("form", { name: "Create a status page" });
    await create.getByLabel("Title").fill("Acme status");
    expect(await create.getByLabel("Slug").inputValue()).toBe("acme-status");
    await create.getByLabel("Description").fill("Live status of Acme's services");
    await create.getByRole("button", { name: "Create status page" }).click();
    await page.waitForURL(/\/status-pages\/stp_[^/?]+/);
    const pageId = new URL(page.url()).pathname.split("/").at(-1) ?? "";

    // A group, then a component in it fed by the monitor.
    const addGroup = page.getByRole("form", { name: "Add a group" });
    await addGroup.getByLabel("New group").fill("Core services");
    await addGroup.getByRole("button", { name: "Add group" }).click();
    await page.getByRole("button", { name: "Rename group Core services" }).waitFor();

    await page.getByRole("button", { name: "Add component" }).click();
    const component = page.getByRole("form", { name: "Add a component" });
    await component.getByLabel("Name").fill("Checkout");
    await component.getByLabel("Group").selectOption({ label: "Core services" });
    await component.getByRole("checkbox", { name: "Homepage" }).check();
    await dash.screenshot(page, "status-pages-component-form");
    await component.getByRole("button", { name: "Add component" }).click();
    const row = page.getByRole("row").filter({ hasText: "Checkout" });
    await row.waitFor();
    expect(await row.textContent()).toContain("Homepage");

    // The preview is the public page in a frame, reloaded after the save: the public page must
    // keep allowing same-origin framing (no X-Frame-Options, no restrictive frame-ancestors).
    const publicHeaders = await fetch(`${dash.baseUrl}/status/acme-status`);
    await publicHeaders.arrayBuffer();
    expect(publicHeaders.headers.get("x-frame-options")).toBeNull();
    expect(publicHeaders.headers.get("content-security-policy")).not.toContain("frame-ancestors");
    const preview = page.frameLocator('iframe[title^="Preview of the public page"]');
    await preview.getByText("Checkout").first().waitFor();
    await dash.screenshot(page, "status-pages-editor-components");

    await page.getByRole("tab", { name: "Maintenance" }).click();
    await page.waitForURL(/tab=maintenance/);
    await page.getByRole("button", { name: "Schedule maintenance" }).click();
    const window = page.getByRole("form", { name: "Schedule maintenance" });
    await window.getByLabel("Title").fill("Database upgrade");
    await window.getByLabel("Message").fill("Checkout may be slow for a few minutes.");
    await window.getByRole("checkbox", { name: "Checkout" }).check();
    await window.getByRole("button", { name: "Schedule maintenance" }).click();
    const scheduled = page.getByRole("row").filter({ hasText: "Database upgrade" });
    await scheduled.waitFor();
    expect(await scheduled.textContent()).toContain("scheduled");
    await preview.getByText("Database upgrade").first().waitFor();
    await dash.screenshot(page, "status-pages-editor");

    const config = await json<StatusPageConfig>(
      await dash.owner.get(`/api/orgs/${dash.orgId}/status-pages/${pageId}`),
    );
    expect(config.page.slug).toBe("acme-status");
    expect(config.groups.map((g) => g.name)).toEqual(["Core services"]);
    expect(config.components).toMatchObject([
      { name: "Checkout", groupId: config.groups[0]?.id, monitors: [{ id: monitorId }] },
    ]);
    expect(config.maintenances).toMatchObject([
      { title: "Database upgrade", phase: "scheduled", componentIds: [config.components[0]?.id] },
    ]);

    // The public page opens in a new tab and shows the component.
    const [publicPage] = await Promise.all([
      page.context().waitForEvent("page"),
      page.getByRole("link", { name: /Open public page/ }).click(),
    ]);
    await publicPage.waitForLoadState();
    expect(new URL(publicPage.url()).pathname).toBe("/status/acme-status");
    await publicPage.getByText("Checkout").first().waitFor();
    expect(await publicPage.title()).toContain("Acme status");

    // An incident declared on the component shows on the page, which turns degraded.
    await page.goto(`${incidentsPath()}?declare=1`);
    const declare = page.getByRole("form", { name: "Declare an incident" });
    await declare.getByLabel("Title").fill("Checkout is slow");
    await declare.getByLabel("Severity").selectOption("medium");
    await declare.getByRole("checkbox", { name: "Checkout" }).check();
    await declare.getByRole("button", { name: "Declare incident" }).click();
    await page.waitForURL(/\/incidents\/inc_/);
    await page.getByText("Acme status: Checkout").waitFor();
    await publicPage.reload();
    await publicPage.getByText("Checkout is slow").first().waitFor();
    await publicPage.close();

    // A taken slug is refused beside the field.
    await page.getByRole("link", { name: "Status pages", exact: true }).first().click();
    await page.waitForURL((url) => url.pathname.endsWith("/status-pages"));
    const listed = page.getByRole("row").filter({ hasText: "Acme status" });
    await listed.waitFor();
    expect(await listed.getByRole("cell").nth(1).textContent()).toBe("Degraded performance");
    expect(await listed.getByRole("cell").nth(2).textContent()).toBe("1");
    expect(await listed.getByRole("cell").nth(3).textContent()).toBe("1");
    expect(
      await listed.getByRole("link", { name: /Open the public page/ }).getAttribute("href"),
    ).toBe("/status/acme-status");
    await dash.screenshot(page, "status-pages-list");
    await page.getByRole("button", { name: "New status page" }).click();
    const again = page.getByRole("form", { name: "Create a status page" });
    await again.getByLabel("Title").fill("Acme status");
    await again.getByRole("button", { name: "Create status page" }).click();
    await again.getByText("'acme-status' is taken by another status page").waitFor();
    expect(console.errors).toEqual([]);
  });

  it("a viewer reads incidents and status pages without any write control", async () => {
    const incident = await json<IncidentDetail>(
      await dash.owner.post(`/api/projects/${dash.projectId}/incidents`, {
        title: "Search is slow",
        severity: "medium",
        message: "Looking into slow searches.",
      }),
      201,
    );
    const created = await json<StatusPageConfig>(
      await dash.owner.post(`/api/orgs/${dash.orgId}/status-pages`, {
        slug: "viewer-visible",
        title: "Viewer visible",
      }),
      201,
    );
    const { page, console } = await dash.newPage();
    page.setDefaultTimeout(10_000);
    await dash.signIn(page, VIEWER);

    await page.goto(incidentsPath());
    await page.getByRole("row").filter({ hasText: "Search is slow" }).waitFor();
    expect(await count(page, "button", "Declare incident")).toBe(0);
    await page.goto(`${incidentsPath()}/${incident.id}`);
    await page
      .getByRole("list", { name: "Timeline" })
      .getByText("Looking into slow searches.")
      .waitFor();
    expect(await count(page, "button", "Resolve incident")).toBe(0);
    expect(await count(page, "form", "Post an update")).toBe(0);
    expect(await count(page, "form", "Edit title and severity")).toBe(0);
    expect(await count(page, "button", "Change components")).toBe(0);

    await page.goto(pagesPath());
    await page.getByRole("row").filter({ hasText: "Viewer visible" }).waitFor();
    expect(await count(page, "button", "New status page")).toBe(0);
    await page.goto(`${pagesPath()}/${created.page.id}`);
    await page.getByRole("heading", { name: "Viewer visible", level: 1 }).waitFor();
    await page
      .frameLocator('iframe[title^="Preview of the public page"]')
      .getByText("Viewer visible")
      .first()
      .waitFor();
    expect(await count(page, "button", "Add component")).toBe(0);
    expect(await count(page, "form", "Add a group")).toBe(0);
    await page.getByRole("tab", { name: "Maintenance" }).click();
    await page.getByText("No maintenance scheduled").waitFor();
    expect(await count(page, "button", "Schedule maintenance")).toBe(0);
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByText("viewer-visible", { exact: true }).waitFor();
    expect(await count(page, "form", "Page settings")).toBe(0);
    expect(await count(page, "button", "Delete page")).toBe(0);

    // The server refuses them anyway.
    const refused = await dash.viewer.post(
      `/api/projects/${dash.projectId}/incidents/${incident.id}/resolve`,
      {},
    );
    expect(refused.status).toBe(403);
    await refused.arrayBuffer();
    expect(console.errors).toEqual([]);
  });
});
