import {
  type AlertEvent,
  type AlertNotification,
  isAlertNotification,
  type MonitorEvent,
  type MonitorNotification,
  type Notification,
} from "../notification-payloads.js";
import type { MailMessage } from "./channel-type.js";
import {
  ACKNOWLEDGE_LABEL,
  escalationText,
  escapeHtml,
  formatLabels,
  isProblem,
  notificationDetails,
  notificationIds,
  notificationTitle,
} from "./format.js";

// The notification emails: one template per event (what happened, in a sentence), the details
// table, the escalation step that sent it, and a one-click Acknowledge button; text and HTML alike.

const quoted = (name: string) => `“${name.replace(/[\r\n]+/g, " ")}”`;

const seriesOf = (n: AlertNotification) => {
  const labels = formatLabels(n.series.labels);
  return labels ? ` for ${labels}` : "";
};

/** Per event, the sentence under the title (plain text; escaped when put in HTML). */
const MONITOR_INTROS: Record<MonitorEvent, (n: MonitorNotification) => string> = {
  "monitor.down": (n) =>
    `The monitor ${quoted(n.monitor.name)} failed its checks and is down. An incident is open until it recovers.`,
  "monitor.recovered": (n) =>
    `The monitor ${quoted(n.monitor.name)} passes its checks again; its incident is resolved.`,
};
const ALERT_INTROS: Record<AlertEvent, (n: AlertNotification) => string> = {
  "alert.fired": (n) =>
    `The alert rule ${quoted(n.rule.name)} fired${seriesOf(n)}: its condition (${n.rule.condition}) holds.`,
  "alert.renotified": (n) =>
    `A reminder: the alert rule ${quoted(n.rule.name)} is still firing${seriesOf(n)}.`,
  "alert.resolved": (n) =>
    `The alert rule ${quoted(n.rule.name)} no longer fires${seriesOf(n)}; it is resolved.`,
};

/** The sentence saying what happened, by event. */
export function emailIntro(notification: Notification): string {
  return isAlertNotification(notification)
    ? ALERT_INTROS[notification.event](notification)
    : MONITOR_INTROS[notification.event](notification);
}

const ESCALATION_NOTE = "Nobody has acknowledged it yet, so the escalation policy notifies you.";
const ACK_NOTE = "The link works once and expires; it acknowledges the incident for everyone.";

function textBody(notification: Notification, footer: string): string {
  const escalation = escalationText(notification);
  const lines = [notificationTitle(notification), ""];
  if (escalation) lines.push(`${escalation}. ${ESCALATION_NOTE}`, "");
  lines.push(emailIntro(notification), "");
  for (const d of notificationDetails(notification)) lines.push(`${d.label}: ${d.value}`);
  if (notification.acknowledgeUrl)
    lines.push("", `${ACKNOWLEDGE_LABEL}: ${notification.acknowledgeUrl}`, `(${ACK_NOTE})`);
  lines.push("", footer, "— Vigil");
  return lines.join("\n");
}

function htmlBody(notification: Notification, footer: string): string {
  const color = isProblem(notification) ? "#c62828" : "#2e7d32";
  const escalation = escalationText(notification);
  const rows = notificationDetails(notification)
    .map(
      (d) =>
        `<tr><th align="left" style="padding:2px 12px 2px 0;vertical-align:top">${escapeHtml(d.label)}</th>` +
        `<td style="padding:2px 0">${escapeHtml(d.value)}</td></tr>`,
    )
    .join("");
  const banner = escalation
    ? `<p style="background:#fff3e0;border-left:4px solid #ef6c00;padding:8px 12px">` +
      `<strong>${escapeHtml(escalation)}</strong><br>${escapeHtml(ESCALATION_NOTE)}</p>`
    : "";
  const url = notification.acknowledgeUrl;
  const button = url
    ? `<p style="margin:20px 0 4px"><a href="${escapeHtml(url)}" style="background:${color};` +
      `color:#ffffff;padding:10px 20px;border-radius:4px;text-decoration:none;` +
      `font-weight:bold;display:inline-block">${ACKNOWLEDGE_LABEL}</a></p>` +
      `<p style="color:#666;font-size:12px;margin:0">${escapeHtml(ACK_NOTE)}</p>`
    : "";
  return (
    `<!doctype html><html><body style="font-family:sans-serif;color:#222">` +
    `<h2 style="color:${color}">${escapeHtml(notificationTitle(notification))}</h2>` +
    banner +
    `<p>${escapeHtml(emailIntro(notification))}</p>` +
    `<table>${rows}</table>` +
    button +
    `<p style="color:#666;font-size:12px;margin-top:24px">${escapeHtml(footer)} — Vigil</p>` +
    `</body></html>`
  );
}

/** Subject, plain text and HTML; every user-supplied value is escaped in the HTML. */
export function emailMessage(notification: Notification, to: readonly string[]): MailMessage {
  const ids = notificationIds(notification).join(" · ");
  const footer = `${ids.charAt(0).toUpperCase()}${ids.slice(1)}`;
  const step = notification.escalation;
  const suffix = step ? ` (escalation step ${step.step} of ${step.steps})` : "";
  return {
    to,
    subject: `[Vigil] ${notificationTitle(notification)}${suffix}`,
    text: textBody(notification, footer),
    html: htmlBody(notification, footer),
  };
}
