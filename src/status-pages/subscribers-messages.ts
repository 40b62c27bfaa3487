import type { MailMessage } from "../notifications/channels/channel-type.js";
import { escapeHtml } from "./public/html.js";
import type { Announcement } from "./subscribers-changes.js";

// What subscribers receive: the emails (text and HTML, with a one-click unsubscribe link and the
// List-Unsubscribe headers of RFC 2369 / RFC 8058) and the webhooks' JSON data.

/** The page an announcement is about, as messages name and link it. */
export interface MessagePage {
  id: string;
  slug: string;
  title: string;
  /** Absolute link to the public page. */
  url: string;
}

/** A queued announcement as stored in the outbox (the page as it was when queued). */
export type StoredAnnouncement = Announcement & {
  page: { id: string; slug: string; title: string };
};

const SUBJECT: Record<Announcement["event"], string> = {
  "incident.created": "Incident",
  "incident.updated": "Update",
  "incident.resolved": "Resolved",
  "incident.reopened": "Reopened",
  "maintenance.scheduled": "Maintenance scheduled",
  "maintenance.started": "Maintenance started",
  "maintenance.completed": "Maintenance completed",
};

const INTRO: Record<Announcement["event"], string> = {
  "incident.created": "A new incident is under way.",
  "incident.updated": "An incident has a new update.",
  "incident.resolved": "An incident has been resolved.",
  "incident.reopened": "An incident has been reopened.",
  "maintenance.scheduled": "Maintenance has been scheduled.",
  "maintenance.started": "Maintenance has started.",
  "maintenance.completed": "Maintenance has been completed.",
};

const PHASE: Record<string, string> = {
  investigating: "Investigating",
  identified: "Identified",
  monitoring: "Monitoring",
  resolved: "Resolved",
};

/** An ISO time as people read it in an email: "2026-11-29 12:00 UTC". */
const readable = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** The lines of an announcement's body, as [label or "", text] pairs, plain text. */
function detailLines(a: Announcement): string[] {
  if ("incident" in a) {
    const { incident } = a;
    return [
      `Status: ${incident.status === "resolved" ? "resolved" : `ongoing (${incident.impact === "down" ? "outage" : "degraded performance"})`}`,
      `Started: ${readable(incident.startedAt)}`,
      ...(incident.resolvedAt ? [`Resolved: ${readable(incident.resolvedAt)}`] : []),
      ...(incident.components.length > 0
        ? [`Affects: ${incident.components.map((c) => c.name).join(", ")}`]
        : []),
      ...incident.updates.map(
        (u) => `${readable(u.at)}${u.phase ? ` — ${PHASE[u.phase] ?? u.phase}` : ""}: ${u.message}`,
      ),
    ];
  }
  const { maintenance: m } = a;
  return [
    `Window: ${readable(m.startsAt)} to ${readable(m.endsAt)}`,
    ...(m.components.length > 0 ? [`Affects: ${m.components.map((c) => c.name).join(", ")}`] : []),
    ...(m.message ? [m.message] : []),
  ];
}

const titleOf = (a: Announcement): string =>
  "incident" in a ? a.incident.title : a.maintenance.title;

/** The email of an announcement, with its unsubscribe link and headers. */
export function announcementEmail(
  a: Announcement,
  page: MessagePage,
  unsubscribeUrl: string,
  to: string,
): MailMessage {
  const title = titleOf(a);
  const lines = detailLines(a);
  const text = [
    INTRO[a.event],
    "",
    title,
    ...lines,
    "",
    `Current status: ${page.url}`,
    "",
    `You receive this because you subscribed to ${page.title}. Unsubscribe: ${unsubscribeUrl}`,
  ].join("\n");
  const html =
    `<p>${escapeHtml(INTRO[a.event])}</p><h2 style="font-size:18px">${escapeHtml(title)}</h2>` +
    `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>` +
    `<p><a href="${escapeHtml(page.url)}">View the current status of ${escapeHtml(page.title)}</a></p>` +
    `<p style="color:#666;font-size:12px">You receive this because you subscribed to ${escapeHtml(page.title)}. ` +
    `<a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a></p>`;
  return {
    to: [to],
    subject: `[${page.title}] ${SUBJECT[a.event]}: ${title}`,
    text,
    html,
    headers: unsubscribeHeaders(unsubscribeUrl),
  };
}

/** RFC 2369's List-Unsubscribe and RFC 8058's one-click POST. */
export const unsubscribeHeaders = (url: string): Record<string, string> => ({
  "List-Unsubscribe": `<${url}>`,
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
});

/** The double opt-in email: one link to confirm, valid 48 hours. */
export function confirmationEmail(page: MessagePage, confirmUrl: string, to: string): MailMessage {
  const text = [
    `Someone (hopefully you) asked to receive ${page.title} status updates at this address.`,
    "",
    `Confirm the subscription: ${confirmUrl}`,
    "",
    "The link is valid for 48 hours. If you did not ask for this, ignore this email: nothing is sent without confirmation.",
  ].join("\n");
  const html =
    `<p>Someone (hopefully you) asked to receive <strong>${escapeHtml(page.title)}</strong> status updates at this address.</p>` +
    `<p><a href="${escapeHtml(confirmUrl)}" style="display:inline-block;padding:10px 16px;background:#1a7f37;color:#fff;border-radius:6px;text-decoration:none">Confirm subscription</a></p>` +
    `<p style="color:#666;font-size:12px">The link is valid for 48 hours. If you did not ask for this, ignore this email: nothing is sent without confirmation.</p>`;
  return { to: [to], subject: `Confirm your subscription to ${page.title}`, text, html };
}

/** A webhook's `data`: the page with its link, and the incident or window as announced. */
export function announcementData(a: Announcement, page: MessagePage): Record<string, unknown> {
  // The page as it is now (its slug may have changed since the message was queued).
  const { event: _event, ...rest } = a;
  return { ...rest, page };
}
