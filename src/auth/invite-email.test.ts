import { describe, expect, it } from "vitest";
import { inviteEmail } from "./invite-email.js";

describe("the invitation email", () => {
  const base = {
    to: "dana@example.com",
    orgName: "Acme & <Co>",
    inviterName: `Olive "O" <script>`,
    role: "admin" as const,
    link: "https://vigil.example.com/invite/abc123",
    expiresAt: "2026-12-06T11:00:00.000Z",
  };

  it("says who invites whom into what, with the link and its expiry, in text and HTML", () => {
    const mail = inviteEmail(base);
    expect(mail.to).toEqual(["dana@example.com"]);
    expect(mail.subject).toBe(`Olive "O" <script> invited you to Acme & <Co> on Vigil`);
    expect(mail.text).toContain("join Acme & <Co> on Vigil as an admin.");
    expect(mail.text).toContain(`\n${base.link}\n`);
    expect(mail.text).toContain("6 December 2026 at 11:00 UTC");
    expect(mail.html).toContain(`href="${base.link}"`);
    expect(mail.html).toContain("as an <b>admin</b>");
  });

  it("escapes every name in the HTML", () => {
    const { html } = inviteEmail(base);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<Co>");
    expect(html).toContain("Acme &amp; &lt;Co&gt;");
    expect(html).toContain("Olive &quot;O&quot; &lt;script&gt;");
  });

  it("reads well without an inviter, and for members and viewers", () => {
    const mail = inviteEmail({ ...base, inviterName: null, role: "viewer" });
    expect(mail.subject).toBe("Someone invited you to Acme & <Co> on Vigil");
    expect(mail.text).toContain("as a viewer.");
  });
});
