import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { linksIn, type ReceivedMail, type SmtpSink, startSmtpSink } from "./helpers/smtp-sink.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/**
 * A visitor subscribes to a status page in Chromium with JavaScript off (the form is plain HTML),
 * confirms from the email, receives an incident and its update by email, and unsubscribes from
 * the email's link; the editor's Subscribers tab counts them along the way.
 */
describe.skipIf(!chromiumAvailable)("status page subscribe, confirm, notify, unsubscribe", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let sink: SmtpSink;
  let pageApi = "";
  let componentId = "";

  beforeAll(async () => {
    sink = await startSmtpSink();
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_SMTP_URL: sink.url,
      VIGIL_SMTP_FROM: "status@vigil.test",
    });
    const { owner, orgId } = dash;
    const created = (await (
      await owner.post(`/api/orgs/${orgId}/status-pages`, { slug: "acme", title: "Acme status" })
    ).json()) as { page: { id: string } };
    pageApi = `/api/orgs/${orgId}/status-pages/${created.page.id}`;
    componentId = (
      (await (await owner.post(`${pageApi}/components`, { name: "Checkout" })).json()) as {
        id: string;
      }
    ).id;
  }, 180_000);

  afterAll(async () => {
    await dash?.close();
    await sink?.close();
    dir.remove();
  });

  /** The first mail to the visitor whose subject matches, nudging the worker meanwhile. */
  const mail = async (subject: RegExp): Promise<ReceivedMail> => {
    const match = (m: ReceivedMail) =>
      m.recipients.includes("visitor@example.com") && subject.test(m.subject);
    for (let i = 0; i < 100 && !sink.messages.some(match); i++) {
      await dash.service.deps.statusPages.subscribers.runOnce();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return sink.waitFor(match, 5_000);
  };
  const link = (m: ReceivedMail, part: string) => {
    const found = linksIn(m).find((l) => l.includes(part));
    if (!found) throw new Error(`no ${part} link in: ${m.text}`);
    return found;
  };

  it("subscribes without script, confirms, gets the incident and its update, unsubscribes", async () => {
    const context = await dash.browser.newContext({
      baseURL: dash.baseUrl,
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await page.goto("/status/acme");
    await page.getByLabel("Email address").fill("visitor@example.com");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
    await dash.screenshot(page, "status-subscribe-inbox");

    const confirmation = await mail(/^Confirm your subscription to Acme status$/);
    await page.goto(link(confirmation, "/subscribe/confirm/"));
    await page.getByRole("button", { name: "Confirm subscription" }).click();
    await page.getByRole("heading", { name: "You are subscribed" }).waitFor();

    // The editor counts the confirmed subscriber and lists the address.
    const { page: editor } = await dash.newPage();
    await dash.signIn(editor);
    await editor.goto(
      `/projects/${dash.projectId}/status-pages/${pageApi.split("/").pop()}?tab=subscribers`,
    );
    await editor.getByText("visitor@example.com").waitFor();
    expect(await editor.getByTestId("count-confirmed").textContent()).toBe("1");
    await dash.screenshot(editor, "status-subscribers-tab");

    const incidents = `/api/projects/${dash.projectId}/incidents`;
    const opened = await dash.owner.post(incidents, {
      title: "Checkout is failing",
      severity: "critical",
      message: "Payments fail for some customers.",
      componentIds: [componentId],
    });
    expect(opened.status).toBe(201);
    const incident = (await opened.json()) as { id: string };
    const announced = await mail(/^\[Acme status\] Incident: Checkout is failing$/);
    expect(announced.text).toContain("Payments fail for some customers.");
    await dash.owner.post(`${incidents}/${incident.id}/updates`, {
      message: "The payment provider has recovered.",
      phase: "monitoring",
    });
    const update = await mail(/^\[Acme status\] Update: Checkout is failing$/);
    expect(update.text).toContain("The payment provider has recovered.");
    expect(update.html).toContain("Unsubscribe</a>");

    await page.goto(link(update, "/unsubscribe/"));
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await page.getByRole("heading", { name: "You are unsubscribed" }).waitFor();
    await editor.reload();
    await editor.getByRole("heading", { name: "Subscribers" }).waitFor();
    await expect.poll(() => editor.getByTestId("count-confirmed").textContent()).toBe("0");
    await context.close();
  });
});
