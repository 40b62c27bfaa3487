import type {
  HistoryDay,
  PublicComponent,
  StatusPageData,
} from "../../contracts/status-page-data.js";
import {
  COMPONENT_STATE_LABEL,
  DAY_STATUS_LABEL,
  escapeHtml,
  formatDuration,
  formatUptime,
  formatUtcDay,
} from "./html.js";
import type { Tone } from "./page-style.js";

// The components section: groups and components in display order, each with its current
// state, 90-day uptime and a strip of one bar per UTC day whose details show on hover or
// keyboard focus (CSS only, no script).

type Group = StatusPageData["groups"][number];

/** A pill giving a state in text as well as color. */
export const statePill = (tone: Tone, label: string): string =>
  `<span class="pill ${tone}"><span class="dot ${tone}" aria-hidden="true"></span>${escapeHtml(label)}</span>`;

/** A day worth a keyboard stop: anything but a plain operational day (or one with no data). */
const notable = (day: HistoryDay): boolean =>
  day.incidents.length > 0 ||
  day.maintenance ||
  day.downMs > 0 ||
  day.degradedMs > 0 ||
  (day.status !== "operational" && day.status !== "no_data") ||
  (day.uptime !== null && day.uptime < 100);

/** What a day says beyond its date and state: only what is there (a plain day is short). */
const dayFacts = (day: HistoryDay): [string, string][] => {
  const facts: [string, string][] = [];
  if (day.uptime !== null) facts.push(["Uptime", formatUptime(day.uptime)]);
  if (day.downMs > 0) facts.push(["Down", formatDuration(day.downMs)]);
  if (day.degradedMs > 0) facts.push(["Degraded", formatDuration(day.degradedMs)]);
  if (day.maintenance) facts.push(["Maintenance", "Scheduled"]);
  return facts;
};

/** One sentence summing up a day, used as the bar's accessible name. */
export const describeDay = (day: HistoryDay): string => {
  const parts = [`${formatUtcDay(day.date)} (UTC): ${DAY_STATUS_LABEL[day.status]}`];
  for (const [name, value] of dayFacts(day)) parts.push(`${name.toLowerCase()} ${value}`);
  if (day.incidents.length > 0)
    parts.push(
      `${day.incidents.length === 1 ? "1 incident" : `${day.incidents.length} incidents`}: ${day.incidents.map((i) => i.title).join("; ")}`,
    );
  return parts.join(", ");
};

const dayTip = (day: HistoryDay): string => {
  const facts = dayFacts(day);
  const dl =
    facts.length === 0
      ? ""
      : `<dl>${facts.map(([k, v]) => `<dt>${k}</dt><dd>${escapeHtml(v)}</dd>`).join("")}</dl>`;
  const incidents =
    day.incidents.length === 0
      ? ""
      : `<ul>${day.incidents.map((i) => `<li>${escapeHtml(i.title)}</li>`).join("")}</ul>`;
  const tone: Tone = day.status === "no_data" ? "neutral" : day.status;
  return (
    `<div class="tip"><b>${escapeHtml(formatUtcDay(day.date))} (UTC)</b>` +
    `<div class="tip-status"><span class="dot ${tone}"></span>${DAY_STATUS_LABEL[day.status]}</div>` +
    `${dl}${incidents}</div>`
  );
};

// Only notable days take a keyboard stop: 90 stops a component would bury the rest of the page.
const historyBar = (day: HistoryDay): string =>
  `<div class="bar ${day.status}${day.maintenance ? " maint" : ""}" role="img"${notable(day) ? ' tabindex="0"' : ""}` +
  ` data-date="${escapeHtml(day.date)}" aria-label="${escapeHtml(describeDay(day))}">${dayTip(day)}</div>`;

const historyStrip = (component: PublicComponent): string => {
  const n = component.history.length;
  const bars = component.history.map(historyBar).join("");
  const label = `${component.name}: daily history, ${n} UTC days, oldest first`;
  return (
    `<div class="history" role="group" aria-label="${escapeHtml(label)}">${bars}</div>` +
    `<div class="history-legend" aria-hidden="true"><span>${n} days ago</span><span class="rule"></span>` +
    `<span>${component.uptime === null ? "No data yet" : `${formatUptime(component.uptime)} uptime`}</span><span class="rule"></span><span>Today</span></div>`
  );
};

const componentBlock = (component: PublicComponent, heading: "h3" | "h4"): string => {
  const uptime =
    component.uptime === null
      ? "Uptime: no data yet"
      : `${formatUptime(component.uptime)} uptime over ${component.history.length} days`;
  const desc = component.description
    ? `<p class="desc">${escapeHtml(component.description)}</p>`
    : "";
  return (
    `<div class="component" id="component-${escapeHtml(component.id)}" data-status="${component.status}">` +
    `<div class="component-head"><div><${heading}>${escapeHtml(component.name)}</${heading}>${desc}</div>` +
    `${statePill(component.status, COMPONENT_STATE_LABEL[component.status])}</div>` +
    `<p class="sr-only">${escapeHtml(uptime)}.</p>${historyStrip(component)}</div>`
  );
};

const groupBlock = (group: Group, members: PublicComponent[]): string =>
  `<div class="card group" id="group-${escapeHtml(group.id)}" data-status="${group.status}">` +
  `<div class="group-head"><h3>${escapeHtml(group.name)}</h3>` +
  `${statePill(group.status, COMPONENT_STATE_LABEL[group.status])}</div>` +
  `${members.map((c) => componentBlock(c, "h4")).join("")}</div>`;

/**
 * Components in display order: a group shows where its first component would, holding all
 * its components; runs of ungrouped components share a card.
 */
export const renderComponents = (data: StatusPageData): string => {
  const groups = new Map(data.groups.map((g) => [g.id, g]));
  const emitted = new Set<string>();
  const blocks: string[] = [];
  let loose: PublicComponent[] = [];
  const flushLoose = (): void => {
    if (loose.length === 0) return;
    blocks.push(`<div class="card">${loose.map((c) => componentBlock(c, "h3")).join("")}</div>`);
    loose = [];
  };
  for (const component of data.services) {
    const group = component.groupId === null ? undefined : groups.get(component.groupId);
    if (group === undefined) {
      loose.push(component);
      continue;
    }
    if (emitted.has(group.id)) continue;
    emitted.add(group.id);
    flushLoose();
    blocks.push(
      groupBlock(
        group,
        data.services.filter((c) => c.groupId === group.id),
      ),
    );
  }
  flushLoose();
  if (blocks.length === 0) return `<div class="card"><p class="empty">No components yet.</p></div>`;
  const key = (
    [
      ["operational", COMPONENT_STATE_LABEL.operational],
      ["degraded", COMPONENT_STATE_LABEL.degraded],
      ["down", COMPONENT_STATE_LABEL.down],
      ["neutral", DAY_STATUS_LABEL.no_data],
      ["maintenance", COMPONENT_STATE_LABEL.maintenance],
    ] as const
  )
    .map(
      ([tone, label]) => `<span><i class="swatch ${tone}" aria-hidden="true"></i>${label}</span>`,
    )
    .join("");
  return `${blocks.join("")}<p class="key">${key}</p>`;
};
