import type { MonitorNotification } from "../model.js";

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

/** "Checkout is down" / "Checkout recovered after 4m 12s", without decoration. */
export function notificationTitle(notification: MonitorNotification): string {
  const name = notification.monitor.name.replace(/[\r\n]+/g, " ");
  if (notification.event === "monitor.down") return `${name} is down`;
  const { durationMs } = notification.incident;
  return durationMs === null
    ? `${name} recovered`
    : `${name} recovered after ${formatDuration(durationMs)}`;
}

export interface DetailLine {
  label: string;
  value: string;
}

/** The facts under the title: why it failed and when, or how long the outage lasted. */
export function notificationDetails(notification: MonitorNotification): DetailLine[] {
  const { check, incident, monitor } = notification;
  const lines: DetailLine[] = [];
  const add = (label: string, value: string | number | null) => {
    if (value !== null && value !== "") lines.push({ label, value: String(value) });
  };
  if (notification.event === "monitor.down") {
    add("Reason", check.reason);
    add("Failed step", check.failedStep);
    add("Status code", check.statusCode);
    add("Started", formatTime(incident.startedAt));
  } else {
    add("Down since", formatTime(incident.startedAt));
    add("Recovered", incident.endedAt && formatTime(incident.endedAt));
  }
  add("URL", monitor.url);
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
