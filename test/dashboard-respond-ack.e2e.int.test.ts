import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IncidentEscalationView } from "../src/contracts/escalation.js";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { linksIn, type SmtpSink, startSmtpSink } from "./helpers/smtp-sink.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/**
 * Acknowledge and escalate end to end (docs/escalation.md): a monitor with a two-step policy of
 * email channels goes down; step 1's email arrives at the local SMTP sink with its acknowledge
 * link; Chromium opens the link and acknowledges; the incident shows acknowledged, and step 2's
 * email never goes out, even once its time has long passed.
 */
describe.skipIf(!chromiumAvailable)("acknowledge from an escalation email", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let sink: SmtpSink;
  let target: Server;
  /** How far the service's clock runs ahead of the real one. */
  let shiftMs = 0;
  const clock = { now: () => new Date(Date.now() + shiftMs) };

  const json = async <T>(response: Response, status = 200): Promise<T> => {
    const body = (await response.json()) as T;
    expect(response.status, JSON.stringify(body)).toBe(status);
    return body;
  };
  const api = (path: string) => `/api/projects/${dash.projectId}${path}`;

  beforeAll(async () => {
    sink = await startSmtpSink();
    target = createServer((_request, response) => response.writeHead(503).end("down"));
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    dash = await startDashboard(
      dir.path,
      {
        VIGIL_ALERTS_ENABLED: "false",
        VIGIL_SMTP_URL: sink.url,
        VIGIL_SMTP_FROM: "vigil@example.com",
        VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
      },
      { clock },
    );
  }, 180_000);
  afterAll(async () => {
    await dash?.close();
    await sink?.close();
    await new Promise((resolve) => target?.close(resolve));
    dir.remove();
  });

  it("acknowledges from the emailed link, and step 2 never sends", async () => {
    const channel = async (name: string, to: string) =>
      (
        await json<{ id: string }>(
          await dash.owner.post(api("/channels"), { name, type: "email", settings: { to: [to] } }),
          201,
        )
      ).id;
    const oncall = await channel("On call", "oncall@example.com");
    const lead = await channel("Team lead", "lead@example.com");
    const policy = await json<{ id: string }>(
      await dash.owner.post(api("/escalation-policies"), {
        name: "Checkout on call",
        steps: [
          { delayMinutes: 0, channelIds: [oncall] },
          { delayMinutes: 10, channelIds: [lead] },
        ],
      }),
      201,
    );
    const { port } = target.address() as AddressInfo;
    const monitor = await json<{ id: string; escalationPolicyId: string | null }>(
      await dash.owner.post(api("/monitors"), {
        name: "Checkout",
        type: "api",
        frequency: "1h",
        alertAfter: 1,
        escalationPolicyId: policy.id,
        steps: [{ url: `http://127.0.0.1:${port}/health` }],
      }),
      201,
    );
    expect(monitor.escalationPolicyId).toBe(policy.id);

    // The check fails: the outage opens the incident, and its escalation starts.
    await dash.owner.post(api(`/monitors/${monitor.id}/run`));
    const mail = await sink.waitFor((m) => m.recipients.includes("oncall@example.com"), 20_000);
    expect(mail.text).toMatch(/Escalation step 1 of 2/);
    const ack = linksIn(mail).find((link) => new URL(link).pathname.startsWith("/ack/"));
    expect(ack, mail.text).toBeDefined();
    const incidents = await json<{ data: { id: string }[] }>(
      await dash.owner.get(api(`/monitors/${monitor.id}/incidents`)),
    );
    const incidentId = incidents.data[0]?.id ?? "";

    // Chromium opens the emailed link: a page with one button; pressing it acknowledges.
    const { page, console } = await dash.newPage();
    await page.goto(ack ?? "");
    await page.getByRole("button", { name: "Acknowledge" }).click();
    await page.getByRole("heading", { name: "Acknowledged", exact: true }).waitFor();
    await dash.screenshot(page, "respond-ack-link");

    // The dashboard shows the incident acknowledged, with the link's channel as who did it.
    const signedIn = await dash.newPage();
    await dash.signIn(signedIn.page);
    await signedIn.page.goto(`/projects/${dash.projectId}/incidents/${incidentId}`);
    await signedIn.page
      .getByText(/Acknowledged/)
      .first()
      .waitFor();
    await dash.screenshot(signedIn.page, "respond-ack-incident");

    // Long past step 2's time, the escalation has stopped and nothing more was sent.
    shiftMs = 15 * 60_000;
    await dash.service.deps.escalation.worker.runOnce();
    const escalation = await json<IncidentEscalationView>(
      await dash.owner.get(api(`/incidents/${incidentId}/escalation`)),
    );
    expect(escalation).toMatchObject({
      status: "stopped",
      stopReason: "acknowledged",
      stepsSent: 1,
    });
    await dash.service.deps.notifier.deliverDue();
    expect(sink.to("lead@example.com")).toEqual([]);
    expect(sink.to("oncall@example.com")).toHaveLength(1);
    const detail = await json<{ timeline: { type: string; message: string | null }[] }>(
      await dash.owner.get(api(`/incidents/${incidentId}`)),
    );
    expect(detail.timeline.map((e) => e.type)).toEqual(
      expect.arrayContaining(["escalated", "acknowledged", "escalation_stopped"]),
    );
    expect(console.errors).toEqual([]);
    expect(signedIn.console.errors).toEqual([]);
  });
});
