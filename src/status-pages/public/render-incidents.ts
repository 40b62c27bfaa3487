import type {
  PublicIncident,
  PublicMaintenance,
  StatusPageData,
} from "../../contracts/status-page-data.js";
import {
  escapeHtml,
  formatDuration,
  IMPACT_LABEL,
  incidentAnchor,
  phaseLabel,
  rangeHtml,
  SEVERITY_LABEL,
  type TimeFormatter,
  timeHtml,
} from "./html.js";
import { statePill } from "./render-components.js";

// Incidents and maintenance windows on the public page. Every incident gets the element id
// `incident-<id>`: the feeds link their entries there.

type Ctx = { names: Map<string, string>; formatTime: TimeFormatter };

export const makeCtx = (data: StatusPageData, formatTime: TimeFormatter): Ctx => ({
  names: new Map(data.services.map((c) => [c.id, c.name])),
  formatTime,
});

const affected = (ids: string[], ctx: Ctx): string => {
  const names = ids.flatMap((id) => {
    const name = ctx.names.get(id);
    return name === undefined ? [] : [escapeHtml(name)];
  });
  return names.length === 0 ? "" : `<p class="meta">Affected: ${names.join(", ")}</p>`;
};

/** Public updates, newest first (the payload holds them oldest first). */
const updatesList = (incident: PublicIncident, ctx: Ctx): string => {
  if (incident.updates.length === 0) return "";
  const items = [...incident.updates]
    .reverse()
    .map(
      (u) =>
        `<li><span class="phase">${phaseLabel(u.phase)}</span>` +
        `<p class="msg">${escapeHtml(u.message)}</p>` +
        `<p class="meta">${timeHtml(u.at, ctx.formatTime)}</p></li>`,
    )
    .join("");
  return `<h4 class="sr-only">Updates, newest first</h4><ol class="updates" reversed>${items}</ol>`;
};

const incidentTags = (incident: PublicIncident): string => {
  const tone = incident.status === "resolved" ? "operational" : incident.impact;
  const state = incident.status === "resolved" ? "Resolved" : IMPACT_LABEL[incident.impact];
  return `<div class="tags">${statePill(tone, state)}<span class="pill neutral">${SEVERITY_LABEL[incident.severity]}</span></div>`;
};

const incidentTimes = (incident: PublicIncident, ctx: Ctx): string => {
  const started = `Started ${timeHtml(incident.startedAt, ctx.formatTime)}`;
  if (incident.resolvedAt === null) return `<p class="meta">${started}</p>`;
  const ms = Date.parse(incident.resolvedAt) - Date.parse(incident.startedAt);
  const lasted = Number.isFinite(ms) ? ` (lasted ${formatDuration(ms)})` : "";
  return `<p class="meta">${started} · Resolved ${timeHtml(incident.resolvedAt, ctx.formatTime)}${lasted}</p>`;
};

const activeIncident = (incident: PublicIncident, ctx: Ctx): string =>
  `<article class="card incident ${incident.impact}" id="${escapeHtml(incidentAnchor(incident.id))}">` +
  `<h3>${escapeHtml(incident.title)}</h3>${incidentTags(incident)}` +
  `${incidentTimes(incident, ctx)}${affected(incident.componentIds, ctx)}${updatesList(incident, ctx)}</article>`;

const pastIncident = (incident: PublicIncident, ctx: Ctx): string => {
  const n = incident.updates.length;
  const updates =
    n === 0
      ? ""
      : `<details class="more"><summary>${n === 1 ? "1 update" : `${n} updates`} (newest first)</summary>${updatesList(incident, ctx)}</details>`;
  return (
    `<article class="card incident ${incident.impact}" id="${escapeHtml(incidentAnchor(incident.id))}">` +
    `<h3>${escapeHtml(incident.title)}</h3>${incidentTags(incident)}` +
    `${incidentTimes(incident, ctx)}${affected(incident.componentIds, ctx)}${updates}</article>`
  );
};

/**
 * The open incidents: those the payload lists as active, plus any `incidents` entry still
 * active, so that every incident a feed links to has its anchor on the page.
 */
export const openIncidents = (data: StatusPageData): PublicIncident[] => {
  const seen = new Set<string>();
  const out: PublicIncident[] = [];
  for (const incident of [...data.activeIncidents, ...data.incidents]) {
    if (incident.status !== "active" || seen.has(incident.id)) continue;
    seen.add(incident.id);
    out.push(incident);
  }
  return out;
};

export const renderActiveIncidents = (incidents: PublicIncident[], ctx: Ctx): string =>
  incidents.length === 0
    ? ""
    : `<section aria-labelledby="active-title"><h2 class="section-title" id="active-title">Active incidents</h2>` +
      `<div class="stack">${incidents.map((i) => activeIncident(i, ctx)).join("")}</div></section>`;

export const renderPastIncidents = (data: StatusPageData, ctx: Ctx): string => {
  const resolved = data.incidents.filter((i) => i.status === "resolved");
  const body =
    resolved.length === 0
      ? `<div class="card"><p class="empty">No incidents in the last ${data.history.days} days.</p></div>`
      : `<div class="stack">${resolved.map((i) => pastIncident(i, ctx)).join("")}</div>`;
  return (
    `<section aria-labelledby="past-title"><h2 class="section-title" id="past-title">Past incidents</h2>` +
    `${body}</section>`
  );
};

/** Windows still to come or running; `now` backs up a phase the payload may not have moved yet. */
export const currentMaintenance = (data: StatusPageData, now: Date): PublicMaintenance[] =>
  data.maintenance.filter((m) => {
    if (m.phase === "completed") return false;
    const ends = Date.parse(m.endsAt);
    return !(Number.isFinite(ends) && ends <= now.getTime());
  });

/** A window is running once its phase says so or its start has passed. */
export const isRunning = (m: PublicMaintenance, now: Date): boolean =>
  m.phase === "in_progress" || Date.parse(m.startsAt) <= now.getTime();

const maintenanceItem = (m: PublicMaintenance, now: Date, ctx: Ctx): string => {
  const running = isRunning(m, now);
  const tone = running ? "maintenance" : "neutral";
  const message = m.message ? `<p class="msg">${escapeHtml(m.message)}</p>` : "";
  return (
    `<article class="card maintenance-item ${tone}" id="maintenance-${escapeHtml(m.id)}">` +
    `<h3>${escapeHtml(m.title)}</h3><div class="tags">${statePill(tone, running ? "In progress" : "Scheduled")}</div>` +
    `${message}<p class="meta">${rangeHtml(m.startsAt, m.endsAt, ctx.formatTime)}</p>` +
    `${affected(m.componentIds, ctx)}</article>`
  );
};

export const renderMaintenance = (windows: PublicMaintenance[], now: Date, ctx: Ctx): string => {
  if (windows.length === 0) return "";
  // Running windows first, then upcoming ones; each says which it is in its pill.
  const ordered = [
    ...windows.filter((m) => isRunning(m, now)),
    ...windows.filter((m) => !isRunning(m, now)),
  ];
  return (
    `<section aria-labelledby="maintenance-title"><h2 class="section-title" id="maintenance-title">Scheduled maintenance</h2>` +
    `<div class="stack">${ordered.map((m) => maintenanceItem(m, now, ctx)).join("")}</div></section>`
  );
};
