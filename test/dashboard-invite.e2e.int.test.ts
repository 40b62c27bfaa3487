import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { linksIn, useSmtpSink } from "./helpers/smtp-sink.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/**
 * Inviting a member in Chromium: the owner invites from the members screen, the invitation
 * arrives by email (the local SMTP sink), and a new browser opens its link, sets a password and
 * lands in the organization signed in. A revoked link then opens nothing.
 */
describe.skipIf(!chromiumAvailable)("inviting a member (Chromium)", () => {
  const dir = makeTempDir();
  const sink = useSmtpSink();
  let dash: DashboardHarness;
  let base: string;

  beforeAll(async () => {
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_SMTP_URL: sink.url,
      VIGIL_SMTP_FROM: "vigil@example.com",
    });
    base = `/projects/${dash.projectId}`;
  }, 180_000);
  afterAll(async () => {
    await dash?.close();
    dir.remove();
  });

  it("owner invites by email; the invitee accepts from the emailed link and lands signed in", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/settings/members`);
    await page.getByLabel("Email to invite").fill("nina@example.com");
    await page.getByLabel("Invite as").selectOption("member");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await page.getByText("Invitation emailed to nina@example.com").waitFor();
    // Emailed, the link is the invitee's alone: the owner is not shown it.
    expect(await page.locator(".invite-link").textContent()).toContain("only they can accept");
    expect(await page.locator(".invite-link .secret-value").count()).toBe(0);
    const pending = page.locator('tr[data-invite="nina@example.com"]');
    await pending.waitFor();
    expect(await pending.textContent()).toContain("member");
    await dash.screenshot(page, "members-invite");

    // The link as the invitee receives it: by email.
    const mail = await sink.waitFor((m) => m.recipients.includes("nina@example.com"));
    const [link] = linksIn(mail);
    expect(link).toMatch(/\/invite\/[0-9A-Za-z]{43}$/);

    // A browser with no session (a new context: its own cookies).
    const invitee = await dash.newPage();
    await invitee.page.goto(link ?? "");
    await invitee.page.getByRole("heading", { name: "Join Default" }).waitFor();
    expect(await invitee.page.locator("main").textContent()).toContain("nina@example.com");
    await invitee.page.getByLabel("Your name").fill("Nina");
    await invitee.page.getByLabel("Password").fill("short");
    await invitee.page.getByRole("button", { name: "Join Default" }).click();
    await invitee.page.getByText("must be at least 8 characters").waitFor();
    await invitee.page.getByLabel("Password").fill("nina's long secret");
    await invitee.page.getByRole("button", { name: "Join Default" }).click();
    await invitee.page.waitForURL((url) => url.pathname === `${base}/overview`);
    await dash.screenshot(invitee.page, "invite-accepted");

    // Signed in as Nina, a member of the organization.
    const me = await invitee.page.evaluate(() =>
      fetch("/api/auth/me").then((r) => r.json() as Promise<{ user: { email: string } }>),
    );
    expect(me.user.email).toBe("nina@example.com");
    await page.reload();
    const member = page.locator('tr[data-member="nina@example.com"]');
    await member.waitFor();
    expect(await member.getByRole("combobox").inputValue()).toBe("member");
    expect(await page.locator('tr[data-invite="nina@example.com"]').count()).toBe(0);

    // The link worked once: opened again, it says so.
    const again = await dash.newPage();
    await again.page.goto(link ?? "");
    await again.page.getByText("Invitation not valid").waitFor();
    expect(console.errors).toEqual([]);
    expect(invitee.console.errors).toEqual([]);
  }, 120_000);

  it("revokes a pending invitation from the members screen; its link then opens nothing", async () => {
    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/settings/members`);
    await page.getByLabel("Email to invite").fill("omar@example.com");
    await page.getByLabel("Invite as").selectOption("viewer");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await page.getByText("Invitation emailed to omar@example.com").waitFor();
    // The link as Omar received it (the owner is not shown an emailed one).
    const mail = await sink.waitFor((m) => m.recipients.includes("omar@example.com"));
    const [link = ""] = linksIn(mail);
    await page.getByRole("button", { name: "Done" }).click();
    expect(await page.locator(".invite-link").count()).toBe(0);

    await page.getByRole("button", { name: "Revoke the invitation of omar@example.com" }).click();
    await page.getByRole("button", { name: "Revoke invitation" }).click();
    await page.locator('tr[data-invite="omar@example.com"]').waitFor({ state: "detached" });

    const visitor = await dash.newPage();
    await visitor.page.goto(link);
    await visitor.page.getByText("Invitation not valid").waitFor();
    expect(await visitor.page.getByRole("link", { name: "Sign in" }).count()).toBe(1);
    await dash.screenshot(visitor.page, "invite-invalid");
    expect(console.errors).toEqual([]);
  }, 90_000);
});
