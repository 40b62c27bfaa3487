import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IncidentDetailView } from "../src/contracts/incidents.js";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/** The incident screen's Acknowledge button and assignee picker in Chromium (docs/incidents.md). */
describe.skipIf(!chromiumAvailable)("dashboard: acknowledge and assign an incident", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;

  const json = async <T>(response: Response, status = 200): Promise<T> => {
    const body = (await response.json()) as T;
    expect(response.status, JSON.stringify(body)).toBe(status);
    return body;
  };
  const api = (path: string) => `/api/projects/${dash.projectId}${path}`;

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

  it("acknowledges with the button and assigns from the organization's members", async () => {
    const incident = await json<IncidentDetailView>(
      await dash.owner.post(api("/incidents"), { title: "Search is slow", severity: "medium" }),
      201,
    );
    const { page, console } = await dash.newPage();
    page.setDefaultTimeout(10_000);
    await dash.signIn(page);
    await page.goto(`/projects/${dash.projectId}/incidents/${incident.id}`);
    const response = page.getByRole("region", { name: "Response" });
    await response.getByText("Not acknowledged yet").waitFor();

    await page.getByRole("button", { name: "Acknowledge", exact: true }).click();
    await response.getByText("Acknowledged", { exact: true }).waitFor();
    await response.getByText(/by you/).waitFor();
    expect(await page.getByRole("button", { name: "Acknowledge", exact: true }).count()).toBe(0);
    const timeline = page.getByRole("list", { name: "Timeline" });
    await timeline.getByText("Acknowledged", { exact: true }).waitFor();

    const picker = response.getByLabel("Assignee");
    // The owner and the viewer of the organization; nobody from another organization.
    const options = await picker.locator("option").allTextContents();
    expect(options[0]).toBe("Nobody");
    expect(options.some((o) => o.includes("viewer@example.com"))).toBe(true);
    expect(options.some((o) => o.includes("outsider@example.com"))).toBe(false);
    const viewerOption = options.find((o) => o.includes("viewer@example.com")) ?? "";
    await picker.selectOption({ label: viewerOption });
    const name = viewerOption.replace(/ \(.*\)$/, "");
    await timeline.getByText(`Assigned to ${name}`, { exact: true }).waitFor();
    await dash.screenshot(page, "incident-response");

    const stored = await json<IncidentDetailView>(
      await dash.owner.get(api(`/incidents/${incident.id}`)),
    );
    expect(stored.acknowledgedBy?.kind).toBe("user");
    expect(stored.assigneeId).not.toBeNull();
    // The list marks it acknowledged.
    await page.goto(`/projects/${dash.projectId}/incidents`);
    await page
      .getByRole("row", { name: /Search is slow/ })
      .getByText("Acknowledged")
      .waitFor();
    expect(console.errors).toEqual([]);
  });
});
