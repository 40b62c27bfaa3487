import type { HistoryDay, PublicIncident } from "../../contracts/status-page-data.js";
import type { ComponentState } from "../../contracts/status-pages.js";
import { STATE_LABEL } from "../../contracts/status-pages.js";

// Small, dependency-free helpers shared by the public page renderers: escaping, URL
// allow-listing, and the wording and time formats the page shows.

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML element content and (double- or single-quoted) attribute values. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

/** The fragment id of an incident on the public page (feeds and summaries link to it). */
export const incidentAnchor = (incidentId: string): string => `incident-${incidentId}`;

/** The normalized URL when it is absolute http(s); null for anything else (javascript:, data:, relative). */
export const safeHttpUrl = (raw: string): string | null => {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
};

/** Times of one page, in its zone. Unparseable ISO strings come back as given. */
export interface TimeFormatter {
  /** "Mar 3, 2025, 10:04 PM CET". */
  at(iso: string): string;
  /** Both ends of a span; the end drops its date (and the start its zone) on the same local day. */
  range(startIso: string, endIso: string): [string, string];
  /** The zone's short name at an instant: "CET", "EDT", "IST", else "GMT+9". */
  zoneName(date: Date): string;
}

// en-US alone says "GMT+1" for Berlin; other English locales know more abbreviations.
const ZONE_NAME_LOCALES = ["en-US", "en-GB", "en-AU", "en-IN"];

const resolveZone = (timeZone: string): string => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return timeZone;
  } catch {
    // A page saved with a zone this runtime does not know still renders, in UTC.
    return "UTC";
  }
};

export const makeTimeFormatter = (timeZone: string): TimeFormatter => {
  const zone = resolveZone(timeZone);
  const dateFormat = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    year: "numeric",
    month: "short",
    day: "numeric",
  });
  const timeFormat = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hour: "numeric",
    minute: "2-digit",
  });
  const nameFormats = ZONE_NAME_LOCALES.map(
    (locale) => new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: "short" }),
  );
  const zoneName = (date: Date): string => {
    let fallback = "";
    for (const format of nameFormats) {
      const name = format.formatToParts(date).find((p) => p.type === "timeZoneName")?.value ?? "";
      if (name !== "" && !/^GMT[+-]/.test(name)) return name;
      if (fallback === "") fallback = name;
    }
    return fallback;
  };
  const parse = (iso: string): Date | null => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? null : date;
  };
  const full = (date: Date): string =>
    `${dateFormat.format(date)}, ${timeFormat.format(date)} ${zoneName(date)}`;
  return {
    at: (iso) => {
      const date = parse(iso);
      return date === null ? iso : full(date);
    },
    range: (startIso, endIso) => {
      const start = parse(startIso);
      const end = parse(endIso);
      if (start === null || end === null) return [startIso, endIso];
      if (dateFormat.format(start) !== dateFormat.format(end)) return [full(start), full(end)];
      return [
        `${dateFormat.format(start)}, ${timeFormat.format(start)}`,
        `${timeFormat.format(end)} ${zoneName(end)}`,
      ];
    },
    zoneName,
  };
};

/** A `<time>` element for an instant, shown in the page's zone. */
export const timeHtml = (iso: string, formatTime: TimeFormatter): string =>
  `<time datetime="${escapeHtml(iso)}">${escapeHtml(formatTime.at(iso))}</time>`;

/** Two `<time>` elements for a span: "Mar 3, 2025, 10:00 PM – 11:30 PM CET". */
export const rangeHtml = (startIso: string, endIso: string, formatTime: TimeFormatter): string => {
  const [start, end] = formatTime.range(startIso, endIso);
  return (
    `<time datetime="${escapeHtml(startIso)}">${escapeHtml(start)}</time> – ` +
    `<time datetime="${escapeHtml(endIso)}">${escapeHtml(end)}</time>`
  );
};

const utcDayFormat = new Intl.DateTimeFormat("en-US", {
  weekday: "short",
  year: "numeric",
  month: "short",
  day: "numeric",
  timeZone: "UTC",
});

/** "Mon, Mar 3, 2025" for a UTC day "2025-03-03" (the text as given when it is not a date). */
export const formatUtcDay = (day: string): string => {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : utcDayFormat.format(date);
};

const shortUtcDayFormat = new Intl.DateTimeFormat("en-US", {
  weekday: "short",
  month: "short",
  day: "numeric",
  timeZone: "UTC",
});

/** "Mon, Mar 3" for a UTC day "2025-03-03": a history bar's day, the strip giving the years. */
export const formatShortUtcDay = (day: string): string => {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : shortUtcDayFormat.format(date);
};

/** Uptime as "99.95%"; floored so a day with any downtime never reads 100%. */
export const formatUptime = (percent: number | null): string => {
  if (percent === null) return "No data";
  if (percent >= 100) return "100%";
  const floored = Math.floor(percent * 100 + 1e-9) / 100;
  return `${floored.toFixed(2)}%`;
};

/** A duration as "45 min", "2 h 5 min" or "3 d 4 h". */
export const formatDuration = (ms: number): string => {
  if (ms <= 0) return "0 min";
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "< 1 min";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
};

// Every state's words are the contract's (src/contracts/status-pages.ts): a pill, a day, an
// incident and the banner never name one state two ways.
export const COMPONENT_STATE_LABEL: Record<ComponentState, string> = STATE_LABEL;

export const DAY_STATUS_LABEL: Record<HistoryDay["status"], string> = {
  operational: STATE_LABEL.operational,
  degraded: STATE_LABEL.degraded,
  down: STATE_LABEL.down,
  no_data: "No data",
};

export const SEVERITY_LABEL: Record<PublicIncident["severity"], string> = {
  low: "Low severity",
  medium: "Medium severity",
  high: "High severity",
  critical: "Critical severity",
};

export const IMPACT_LABEL: Record<PublicIncident["impact"], string> = {
  degraded: STATE_LABEL.degraded,
  down: STATE_LABEL.down,
};

type Phase = NonNullable<PublicIncident["updates"][number]["phase"]>;

export const PHASE_LABEL: Record<Phase, string> = {
  investigating: "Investigating",
  identified: "Identified",
  monitoring: "Monitoring",
  resolved: "Resolved",
};

/** The label of an update's phase; updates without one are plain "Update"s. */
export const phaseLabel = (phase: Phase | null): string =>
  phase === null ? "Update" : PHASE_LABEL[phase];
