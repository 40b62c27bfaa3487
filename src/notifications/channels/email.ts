import { z } from "zod";
import type { Notification } from "../notification-payloads.js";
import { defineChannelType, type MailMessage } from "./channel-type.js";
import { isProblem, notificationDetails, notificationIds, notificationTitle } from "./format.js";

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

/** Subject, plain text and a simple HTML body; every user-supplied value is escaped in the HTML. */
export function emailMessage(notification: Notification, to: readonly string[]): MailMessage {
  const title = notificationTitle(notification);
  const details = notificationDetails(notification);
  const ids = notificationIds(notification).join(" · ");
  const footer = `${ids.charAt(0).toUpperCase()}${ids.slice(1)}`;
  const text = [
    title,
    "",
    ...details.map((d) => `${d.label}: ${d.value}`),
    "",
    footer,
    "— Vigil",
  ].join("\n");
  const color = isProblem(notification) ? "#c62828" : "#2e7d32";
  const rows = details
    .map(
      (d) =>
        `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeHtml(d.label)}</th>` +
        `<td style="padding:2px 0">${escapeHtml(d.value)}</td></tr>`,
    )
    .join("");
  const html =
    `<!doctype html><html><body style="font-family:sans-serif">` +
    `<h2 style="color:${color}">${escapeHtml(title)}</h2>` +
    `<table>${rows}</table>` +
    `<p style="color:#666;font-size:12px">${escapeHtml(footer)} — Vigil</p>` +
    `</body></html>`;
  return { to, subject: `[Vigil] ${title}`, text, html };
}

const Address = z.string().trim().pipe(z.email("must be a valid email address"));

/** Emails the notification to 1–20 addresses through the server's SMTP transport. */
export const emailChannel = defineChannelType({
  label: "Email",
  description: "Emails each notification to a list of addresses through the server's SMTP server.",
  config: z
    .object({
      to: z
        .array(Address, { error: "must be a list of email addresses" })
        .min(1, "needs at least one address")
        .max(20, "allows at most 20 addresses")
        .meta({ title: "Recipients", description: "1 to 20 email addresses" }),
    })
    .strict(),
  secret: z.object({}).strict(),
  unavailable: (deps) => (deps.mailer ? undefined : "email channels need SMTP: set VIGIL_SMTP_URL"),
  describe: (settings) => ({ to: settings.to }),
  async send(notification, settings, deps) {
    if (!deps.mailer) throw new Error("SMTP is not configured on this server (VIGIL_SMTP_URL)");
    await deps.mailer.send(emailMessage(notification, settings.to));
  },
});
