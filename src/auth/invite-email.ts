import type { MemberRole } from "../contracts/auth.js";

/** One email to send; structurally the notification channels' MailMessage. */
export interface InviteMail {
  to: readonly string[];
  subject: string;
  text: string;
  html: string;
}

/** Sends email; the composition root passes the server's SMTP mailer (undefined without SMTP). */
export interface InviteMailer {
  send(message: InviteMail): Promise<void>;
}

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

const DATE = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "long",
  timeStyle: "short",
  timeZone: "UTC",
});

/**
 * The invitation email, text and HTML: who invites whom into which organization, the link and
 * when it expires. Every name is escaped in the HTML (they are user input).
 */
export function inviteEmail(invite: {
  to: string;
  orgName: string;
  inviterName: string | null;
  role: MemberRole;
  link: string;
  expiresAt: string;
}): InviteMail {
  const who = invite.inviterName ?? "Someone";
  const expires = `${DATE.format(new Date(invite.expiresAt))} UTC`;
  const subject = `${who} invited you to ${invite.orgName} on Vigil`;
  const text = [
    `${who} invited you to join ${invite.orgName} on Vigil as ${article(invite.role)} ${invite.role}.`,
    "",
    "Accept the invitation (the link works once):",
    invite.link,
    "",
    `It expires on ${expires}. If you did not expect it, ignore this email.`,
    "— Vigil",
  ].join("\n");
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">` +
    `<h2>Join ${escapeHtml(invite.orgName)} on Vigil</h2>` +
    `<p>${escapeHtml(who)} invited you to join <b>${escapeHtml(invite.orgName)}</b> as ` +
    `${article(invite.role)} <b>${escapeHtml(invite.role)}</b>.</p>` +
    `<p><a href="${escapeHtml(invite.link)}" style="display:inline-block;padding:8px 16px;` +
    `background:#1565c0;color:#fff;text-decoration:none;border-radius:4px">Accept the invitation</a></p>` +
    `<p style="font-size:13px">Or open this link (it works once): ` +
    `<a href="${escapeHtml(invite.link)}">${escapeHtml(invite.link)}</a></p>` +
    `<p style="color:#666;font-size:12px">It expires on ${escapeHtml(expires)}. ` +
    `If you did not expect it, ignore this email. — Vigil</p>` +
    `</body></html>`;
  return { to: [invite.to], subject, text, html };
}

const article = (role: MemberRole) => (role === "owner" || role === "admin" ? "an" : "a");
