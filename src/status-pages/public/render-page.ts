import type { StatusPageData } from "../../contracts/status-page-data.js";
import type { PageState } from "../../contracts/status-pages.js";
import { PAGE_HEADLINE } from "../../contracts/status-pages.js";
import { escapeHtml, makeTimeFormatter, safeHttpUrl, timeHtml } from "./html.js";
import { PAGE_CSS, PALETTE } from "./page-style.js";
import { historyDayRules, renderComponents } from "./render-components.js";
import {
  currentMaintenance,
  isRunning,
  makeCtx,
  openIncidents,
  renderActiveIncidents,
  renderMaintenance,
  renderPastIncidents,
} from "./render-incidents.js";
import { renderSubscribeForm, SUBSCRIBE_CSS } from "./subscribe-form.js";

// The public status page as one server-rendered HTML5 document: no script, one inline
// stylesheet, and nothing loaded from elsewhere but the page's own http(s) logo.

/** Options of `renderStatusPage`. */
export interface RenderStatusPageOptions {
  /** Path of the page, e.g. "/status/acme"; the JSON, feeds and badge hang off it. */
  basePath: string;
  /** Decides which maintenance windows are running or over. */
  now: Date;
  /** Shows the Subscribe form (email subscriptions need SMTP on the server). */
  subscribe?: boolean;
}

/** The banner's headline: the page state's own words (src/contracts/status-pages.ts), as pills and incidents use. */
export const bannerHeadline = (data: StatusPageData): string => PAGE_HEADLINE[data.page.status];

const ICONS: Record<PageState, string> = {
  operational:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="11" fill="rgba(255,255,255,.2)"/><path d="M7 12.5l3.2 3.2L17 9" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/></svg>',
  degraded:
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="11" fill="rgba(255,255,255,.2)"/><path d="M12 6.5v7" stroke="#fff" stroke-width="2.4" stroke-linecap="round"/><circle cx="12" cy="17.2" r="1.5" fill="#fff"/></svg>',
  down: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="11" fill="rgba(255,255,255,.2)"/><path d="M8 8l8 8M16 8l-8 8" stroke="#fff" stroke-width="2.4" stroke-linecap="round"/></svg>',
};

const header = (data: StatusPageData): string => {
  const { page } = data;
  const logoUrl = page.logoUrl === null ? null : safeHttpUrl(page.logoUrl);
  const logo =
    logoUrl === null
      ? ""
      : `<img src="${escapeHtml(logoUrl)}" alt="${escapeHtml(page.title)}" height="40">`;
  const desc = page.description ? `<p class="desc">${escapeHtml(page.description)}</p>` : "";
  const links = page.links.flatMap((link) => {
    const url = safeHttpUrl(link.url);
    if (url === null) return [];
    const label = link.label.trim() || url;
    return [`<li><a href="${escapeHtml(url)}" rel="noopener">${escapeHtml(label)}</a></li>`];
  });
  const nav = links.length === 0 ? "" : `<nav aria-label="Links"><ul>${links.join("")}</ul></nav>`;
  return (
    `<header class="site"><div class="wrap"><div class="brand">${logo}` +
    `<div><h1>${escapeHtml(page.title)}</h1>${desc}</div></div>${nav}</div></header>`
  );
};

const banner = (
  data: StatusPageData,
  maintenanceRunning: boolean,
  ctx: ReturnType<typeof makeCtx>,
): string => {
  const status = data.page.status;
  const extra = maintenanceRunning ? " Maintenance in progress." : "";
  return (
    `<section class="banner ${status}" aria-labelledby="overall" data-status="${status}">${ICONS[status]}` +
    `<div><h2 id="overall">${bannerHeadline(data)}</h2>` +
    `<p>Last updated ${timeHtml(data.page.updatedAt, ctx.formatTime)}.${extra}</p></div></section>`
  );
};

const footer = (data: StatusPageData, base: string, zoneAbbr: string): string => {
  const links: [string, string][] = [
    [`${base}.json`, "JSON"],
    [`${base}/feed.atom`, "Atom feed"],
    [`${base}/feed.rss`, "RSS feed"],
    [`${base}/badge.svg`, "Status badge"],
  ];
  const items = links.map(([href, label]) => `<li><a href="${escapeHtml(href)}">${label}</a></li>`);
  const named = zoneAbbr !== "" && zoneAbbr !== data.page.timezone;
  const zone = escapeHtml(data.page.timezone) + (named ? ` (${escapeHtml(zoneAbbr)})` : "");
  return (
    `<footer class="site"><div class="wrap"><p class="powered">Powered by Vigil</p>` +
    `<nav aria-label="Status data and feeds"><ul>${items.join("")}</ul></nav>` +
    `<p>Times are shown in ${zone}. Each history bar is one UTC day.</p></div></footer>`
  );
};

// Defense in depth: even if something slipped through escaping, no script may run; the one form
// (Subscribe) posts to this server only.
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src http: https: data:; base-uri 'none'; form-action 'self'";

/** A dot in the page state's color as the tab's icon (inline, so no /favicon.ico request). */
const stateIcon = (status: PageState): string =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="${PALETTE[status].solid}"/></svg>`)}`;

/** The public status page: a complete HTML5 document, no JavaScript. */
export const renderStatusPage = (
  data: StatusPageData,
  options: RenderStatusPageOptions,
): string => {
  const base = options.basePath.replace(/\/+$/, "");
  const ctx = makeCtx(data, makeTimeFormatter(data.page.timezone));
  const maintenance = currentMaintenance(data, options.now);
  const running = maintenance.some((m) => isRunning(m, options.now));
  const title = `${data.page.title} — ${bannerHeadline(data)}`;
  const description = data.page.description || `Current status of ${data.page.title}`;
  const feedTitle = escapeHtml(`${data.page.title} incidents`);
  const componentsIntro =
    `<p class="meta intro">Each bar is one UTC day, oldest on the left; hover over or focus a bar ` +
    `for that day's details.</p>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="color-scheme" content="light">
<title>${escapeHtml(title)}</title>
<meta name="description" content="${escapeHtml(description)}">
<link rel="icon" href="${stateIcon(data.page.status)}">
<link rel="alternate" type="application/atom+xml" title="${feedTitle} (Atom)" href="${escapeHtml(`${base}/feed.atom`)}">
<link rel="alternate" type="application/rss+xml" title="${feedTitle} (RSS)" href="${escapeHtml(`${base}/feed.rss`)}">
<link rel="alternate" type="application/json" title="Status data (JSON)" href="${escapeHtml(`${base}.json`)}">
<style>${PAGE_CSS}${historyDayRules(data)}${options.subscribe ? SUBSCRIBE_CSS : ""}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${header(data)}
<main id="main"><div class="wrap">
${banner(data, running, ctx)}
${renderActiveIncidents(openIncidents(data), ctx)}
${renderMaintenance(maintenance, options.now, ctx)}
<section aria-labelledby="components-title"><h2 class="section-title" id="components-title">Components</h2>
${componentsIntro}
${renderComponents(data)}</section>
${options.subscribe ? renderSubscribeForm(data, `${base}/subscribe`) : ""}
${renderPastIncidents(data, ctx)}
</div></main>
${footer(data, base, ctx.formatTime.zoneName(options.now))}
</body>
</html>
`;
};
