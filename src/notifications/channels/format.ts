import {
  type AlertNotification,
  isAlertNotification,
  type MonitorNotification,
  type Notification,
} from "../notification-payloads.js";

/** "45s", "4m 12s", "2h 5m", "3d 4h": the two largest units, for people. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const units: [string, number][] = [
    ["d", Math.floor(total / 86_400)],
    ["h", Math.floor(total / 3600) % 24],
    ["m", Math.floor(total / 60) % 60],
    ["s", total % 60],
  ];
  const first = units.findIndex(([, n]) => n > 0);
  if (first === -1) return "0s";
  return units
    .slice(first, first + 2)
    .filter(([, n]) => n > 0)
    .map(([unit, n]) => `${n}${unit}`)
    .join(" ");
}

/** "2024-05-01 10:00:00 UTC" from an ISO timestamp (the text itself when it is not one). */
export function formatTime(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  return `${new Date(time).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** "Checkout is down" / "Checkout recovered after 4m 12s" / "High p95 is firing", without decoration. */
export function notificationTitle(notification: Notification): string {
  if (isAlertNotification(notification)) return alertTitle(notification);
  const name = oneLine(notification.monitor.name);
  if (notification.event === "monitor.down") return `${name} is down`;
  const { durationMs } = notification.incident;
  return durationMs === null
    ? `${name} recovered`
    : `${name} recovered after ${formatDuration(durationMs)}`;
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, " ");

/** The series' labels as `a=1, b=2` (empty for a rule without label columns). */
export function formatLabels(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([name, value]) => `${name}=${value}`)
    .join(", ");
}

function alertTitle(notification: AlertNotification): string {
  const labels = formatLabels(notification.series.labels);
  const name = oneLine(labels ? `${notification.rule.name} (${labels})` : notification.rule.name);
  if (notification.event === "alert.fired") return `${name} is firing`;
  if (notification.event === "alert.renotified") return `${name} is still firing`;
  const { resolvedAt, firedAt } = notification;
  return resolvedAt === null
    ? `${name} resolved`
    : `${name} resolved after ${formatDuration(Date.parse(resolvedAt) - Date.parse(firedAt))}`;
}

/** Whether the notification reports a problem (red) or its end (green). */
export const isProblem = (notification: Notification): boolean =>
  notification.event !== "monitor.recovered" && notification.event !== "alert.resolved";

/** The ids a message's footer names, e.g. `monitor mon_1`, `incident inc_1`. */
export function notificationIds(notification: Notification): string[] {
  if (!isAlertNotification(notification))
    return [`monitor ${notification.monitor.id}`, `incident ${notification.incident.id}`];
  const ids = [`alert rule ${notification.rule.id}`];
  if (notification.incidentId) ids.push(`incident ${notification.incidentId}`);
  return ids;
}

export interface DetailLine {
  label: string;
  value: string;
}

/** The facts under the title: why it failed and when, or how long the outage lasted. */
export function notificationDetails(notification: Notification): DetailLine[] {
  return isAlertNotification(notification)
    ? alertDetails(notification)
    : monitorDetails(notification);
}

function detailLines(): {
  lines: DetailLine[];
  add: (label: string, value: string | number | null) => void;
} {
  const lines: DetailLine[] = [];
  const add = (label: string, value: string | number | null) => {
    if (value !== null && value !== "") lines.push({ label, value: String(value) });
  };
  return { lines, add };
}

function monitorDetails(notification: MonitorNotification): DetailLine[] {
  const { check, incident, monitor } = notification;
  const { lines, add } = detailLines();
  if (notification.event === "monitor.down") {
    add("Reason", check.reason);
    add("Failed step", check.failedStep);
    add("Status code", check.statusCode);
    add("Started", formatTime(incident.startedAt));
  } else {
    add("Down since", formatTime(incident.startedAt));
    add("Recovered", incident.resolvedAt && formatTime(incident.resolvedAt));
  }
  // The monitor's target line: a URL for api and flow checks, `tcp://…`, `dns A …` for the others.
  add(/^https?:\/\//i.test(monitor.url) ? "URL" : "Target", monitor.url);
  return lines;
}

function alertDetails(notification: AlertNotification): DetailLine[] {
  const { lines, add } = detailLines();
  add("Message", notification.message);
  add("Value", notification.value === null ? "no data" : notification.value);
  add("Condition", notification.rule.condition);
  add("Severity", notification.rule.severity);
  add("Labels", formatLabels(notification.series.labels));
  add("Firing since", formatTime(notification.firedAt));
  add("Resolved", notification.resolvedAt && formatTime(notification.resolvedAt));
  return lines;
}

/** A secret URL as the API may show it: `https://hooks.slack.com/…/XXXX` (its last 4 characters). */
export function maskUrl(url: string): string {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return `…${url.slice(-4)}`;
  }
  return `${origin}/…/${url.slice(-4)}`;
}

/** Shortens text to `max` characters, marking the cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The label of the one-click acknowledge link, the same in every channel. */
export const ACKNOWLEDGE_LABEL = "Acknowledge";

/**
 * "Escalation step 2 of 3 (round 1 of 2) — Checkout on-call" when an escalation policy sent the
 * notification; undefined otherwise. The round is left out when the policy does not repeat.
 */
export function escalationText(notification: Notification): string | undefined {
  const step = notification.escalation;
  if (!step) return undefined;
  const round = step.rounds > 1 ? ` (round ${step.round} of ${step.rounds})` : "";
  return `Escalation step ${step.step} of ${step.steps}${round} — ${oneLine(step.policyName)}`;
}

/**
 * The key that names one problem at an incident tool (PagerDuty's dedup_key, Opsgenie's alias),
 * the same for its trigger, reminders and resolve: a monitor's outage is
 * `vigil-<monitorId>-<incidentId>`, an alert's fire `vigil-<ruleId>-<seriesHash>-<firedAt ms>`.
 */
export function problemKey(notification: Notification): string {
  if (!isAlertNotification(notification))
    return `vigil-${notification.monitor.id}-${notification.incident.id}`;
  const fired = Date.parse(notification.firedAt);
  const at = Number.isNaN(fired) ? notification.firedAt : String(fired);
  return `vigil-${notification.rule.id}-${notification.series.keyHash}-${at}`;
}

/** Whether the notification ends a problem (monitor.recovered, alert.resolved). */
export const isResolution = (notification: Notification): boolean => !isProblem(notification);

/** A severity of an alert rule (low … critical); monitor outages count as critical. */
export function severityOf(notification: Notification): string {
  return isAlertNotification(notification) ? notification.rule.severity : "critical";
}

/** Escapes text for HTML element content and attribute values. */
export const escapeHtml = (text: string): string =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

/** A secret that is not a URL (a routing key, an API key, a bot token) as the API shows it: its last 4 characters. */
export const maskSecret = (secret: string): string => `…${secret.slice(-4)}`;

/** Where a problem happened, in a word for incident tools: the monitor's target host, else the rule's labels. */
export function problemSource(notification: Notification): string {
  if (isAlertNotification(notification)) {
    const labels = formatLabels(notification.series.labels);
    return oneLine(labels || notification.rule.name);
  }
  try {
    return new URL(notification.monitor.url).host || notification.monitor.url;
  } catch {
    return oneLine(notification.monitor.url || notification.monitor.name);
  }
}

/** What the problem is about: the monitor's or the alert rule's name. */
export const problemSubject = (notification: Notification): string =>
  oneLine(isAlertNotification(notification) ? notification.rule.name : notification.monitor.name);

/** When the problem started: the outage's start or the fire's time. */
export const problemStartedAt = (notification: Notification): string =>
  isAlertNotification(notification) ? notification.firedAt : notification.incident.startedAt;
