import { Feed } from "feed";
import type { PublicIncident, StatusPageData } from "../../contracts/status-page-data.js";
import {
  escapeHtml,
  IMPACT_LABEL,
  incidentAnchor,
  makeTimeFormatter,
  phaseLabel,
  SEVERITY_LABEL,
  safeHttpUrl,
  type TimeFormatter,
} from "./html.js";

// The page's incidents as an Atom or RSS feed, one entry per incident, linking to the
// incident on the public page. Entry titles and bodies are HTML, so every payload string is
// escaped (which also keeps "]]>" out of the CDATA sections the `feed` package writes).

/** Options of `renderIncidentFeed`; both URLs must be absolute http(s). */
export interface RenderIncidentFeedOptions {
  format: "atom" | "rss";
  /** The public HTML page, e.g. "https://status.acme.com/status/acme". */
  pageUrl: string;
  /** This feed's own URL. */
  feedUrl: string;
}

const toDate = (iso: string | null | undefined, fallback: Date): Date => {
  if (iso === null || iso === undefined) return fallback;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? fallback : date;
};

/** When the incident last changed: its newest update, else its resolution or start. */
const lastChange = (incident: PublicIncident, fallback: Date): Date => {
  const started = toDate(incident.startedAt, fallback);
  const times = [
    started,
    toDate(incident.resolvedAt, started),
    ...incident.updates.map((u) => toDate(u.at, started)),
  ];
  return new Date(Math.max(...times.map((d) => d.getTime())));
};

const entryContent = (
  incident: PublicIncident,
  names: Map<string, string>,
  formatTime: TimeFormatter,
): string => {
  const state = incident.status === "resolved" ? "Resolved" : IMPACT_LABEL[incident.impact];
  const affected = incident.componentIds.flatMap((id) => names.get(id) ?? []);
  const lines = [
    `<p><strong>${escapeHtml(state)}</strong> · ${SEVERITY_LABEL[incident.severity]}</p>`,
    `<p>Started ${escapeHtml(formatTime.at(incident.startedAt))}` +
      (incident.resolvedAt === null
        ? ""
        : ` · Resolved ${escapeHtml(formatTime.at(incident.resolvedAt))}`) +
      "</p>",
  ];
  if (affected.length > 0)
    lines.push(`<p>Affected: ${affected.map((n) => escapeHtml(n)).join(", ")}</p>`);
  if (incident.updates.length > 0) {
    const items = [...incident.updates]
      .reverse()
      .map(
        (u) =>
          `<li><p><strong>${phaseLabel(u.phase)}</strong> — ${escapeHtml(formatTime.at(u.at))}</p>` +
          `<p>${escapeHtml(u.message).replace(/\r?\n/g, "<br>")}</p></li>`,
      )
      .join("");
    lines.push(`<p>Updates, newest first:</p><ul>${items}</ul>`);
  }
  return lines.join("\n");
};

const entrySummary = (incident: PublicIncident): string => {
  const state = incident.status === "resolved" ? "Resolved" : IMPACT_LABEL[incident.impact];
  const latest = incident.updates.at(-1);
  const tail = latest === undefined ? "" : ` — ${phaseLabel(latest.phase)}: ${latest.message}`;
  return escapeHtml(`${state} · ${SEVERITY_LABEL[incident.severity]}${tail}`);
};

const requireHttpUrl = (name: string, raw: string): string => {
  const url = safeHttpUrl(raw);
  if (url === null) throw new TypeError(`${name} must be an absolute http(s) URL, got ${raw}`);
  return url;
};

/** The incidents of the page as an Atom 1.0 or RSS 2.0 document, newest incident first. */
export const renderIncidentFeed = (
  data: StatusPageData,
  options: RenderIncidentFeedOptions,
): string => {
  const pageUrl = requireHttpUrl("pageUrl", options.pageUrl);
  const feedUrl = requireHttpUrl("feedUrl", options.feedUrl);
  const generated = toDate(data.generatedAt, toDate(data.page.updatedAt, new Date(0)));
  const formatTime = makeTimeFormatter(data.page.timezone);
  const names = new Map(data.services.map((c) => [c.id, c.name]));
  const incidents = data.incidents
    .map((incident) => ({
      incident,
      started: toDate(incident.startedAt, generated),
      changed: lastChange(incident, generated),
    }))
    .sort((a, b) => b.started.getTime() - a.started.getTime());
  const updated = new Date(
    Math.max(
      toDate(data.page.updatedAt, generated).getTime(),
      ...incidents.map((i) => i.changed.getTime()),
    ),
  );
  const feed = new Feed({
    title: `${data.page.title}: incidents`,
    description: data.page.description || `Incidents of ${data.page.title}`,
    id: pageUrl,
    link: pageUrl,
    language: "en",
    updated,
    generator: "Vigil",
    feedLinks: { [options.format]: feedUrl },
    author: { name: data.page.title, link: pageUrl },
  });
  for (const { incident, started, changed } of incidents) {
    const link = `${pageUrl}#${incidentAnchor(incident.id)}`;
    feed.addItem({
      title: escapeHtml(incident.title),
      id: link,
      link,
      date: changed,
      published: started,
      description: entrySummary(incident),
      content: entryContent(incident, names, formatTime),
    });
  }
  return options.format === "atom" ? feed.atom1() : feed.rss2();
};
