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
  formatShortUtcDay,
  formatUptime,
  formatUtcDay,
} from "./html.js";
import type { Tone } from "./page-style.js";

// The components section: groups and components in display order, each with its current
// state, 90-day uptime and a strip of one bar per UTC day whose details show on hover or
// keyboard focus (CSS only, no script).
//
// Bytes: a 50-component page has 4,500 bars, so a bar carries its words once. A day with
// something to tell is `<i tabindex="0"><b>words</b></i>`: the <b> is visually hidden (read by
// screen readers) until the bar is hovered or focused, when it shows as the tooltip. A plain
// day (operational with 100% uptime, or no data yet) is an empty `<i>`: its tooltip is drawn by
// the stylesheet from the bar's position (`historyDayRules`), and the strip's label counts it.

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

/** A day the stylesheet describes: nothing to tell beyond its state (and full uptime). */
const plain = (day: HistoryDay): boolean =>
  !notable(day) && (day.status === "no_data" || day.uptime === 100);

/** What a day says beyond its date and state: only what is there (a plain day is short). */
const dayFacts = (day: HistoryDay): [string, string][] => {
  const facts: [string, string][] = [];
  if (day.uptime !== null) facts.push(["Uptime", formatUptime(day.uptime)]);
  if (day.downMs > 0) facts.push(["Down", formatDuration(day.downMs)]);
  if (day.degradedMs > 0) facts.push(["Degraded", formatDuration(day.degradedMs)]);
  if (day.maintenance) facts.push(["Maintenance", "Scheduled"]);
  return facts;
};

/** A day in one sentence: the bar's tooltip and what a screen reader reads of it. */
export const describeDay = (day: HistoryDay): string => {
  const parts = [`${formatShortUtcDay(day.date)}: ${DAY_STATUS_LABEL[day.status]}`];
  for (const [name, value] of dayFacts(day)) parts.push(`${name.toLowerCase()} ${value}`);
  if (day.incidents.length > 0)
    parts.push(
      `${day.incidents.length === 1 ? "1 incident" : `${day.incidents.length} incidents`}: ${day.incidents.map((i) => i.title).join("; ")}`,
    );
  return parts.join(", ");
};

/** What the stylesheet says of a plain day: the same words `describeDay` would give it. */
const PLAIN_WORDS = {
  operational: `${DAY_STATUS_LABEL.operational}, uptime ${formatUptime(100)}`,
  no_data: DAY_STATUS_LABEL.no_data,
};

const DAY_MS = 86_400_000;
const cssString = (text: string): string => `"${text.replace(/["\\\n<>]/g, "")}"`;

/**
 * The page's share of the stylesheet for plain days: each bar position's date (every strip
 * holds the same `history.days` days, oldest first) and the words of a plain day's tooltip.
 */
export const historyDayRules = (data: StatusPageData): string => {
  const from = Date.parse(`${data.history.from}T00:00:00Z`);
  const dates: string[] = [];
  for (let i = 0; i < data.history.days && !Number.isNaN(from); i++) {
    const day = new Date(from + i * DAY_MS).toISOString().slice(0, 10);
    dates.push(`.history>:nth-child(${i + 1}){--d:${cssString(formatShortUtcDay(day))}}`);
  }
  return (
    `${dates.join("")}\n` +
    `.history>i:empty:hover::after{content:var(--d) ": ${PLAIN_WORDS.operational}"}\n` +
    `.history>.no_data:empty:hover::after{content:var(--d) ": ${PLAIN_WORDS.no_data}"}\n`
  );
};

// Only notable days take a keyboard stop: 90 stops a component would bury the rest of the page.
const historyBar = (day: HistoryDay): string => {
  const classes = [day.status === "operational" ? "" : day.status, day.maintenance ? "maint" : ""]
    .filter(Boolean)
    .join(" ");
  const attributes = `${classes ? ` class="${classes}"` : ""}${notable(day) ? ' tabindex="0"' : ""}`;
  if (plain(day)) return `<i${attributes}></i>`;
  return `<i${attributes}><b>${escapeHtml(describeDay(day))}</b></i>`;
};

/** The strip's label: its days, and how many plain days it leaves undescribed. */
const stripLabel = (component: PublicComponent): string => {
  const { history } = component;
  const first = history[0]?.date;
  const last = history.at(-1)?.date;
  const span = first && last ? ` from ${formatUtcDay(first)} to ${formatUtcDay(last)}` : "";
  const quiet = history.filter(plain);
  const noData = quiet.filter((d) => d.status === "no_data").length;
  const full = quiet.length - noData;
  const untold = [
    full > 0
      ? `${full} ${full === 1 ? "day" : "days"} ${PLAIN_WORDS.operational.toLowerCase()}`
      : "",
    noData > 0
      ? `${noData} ${noData === 1 ? "day" : "days"} with ${PLAIN_WORDS.no_data.toLowerCase()}`
      : "",
  ].filter(Boolean);
  return (
    `${component.name}: daily history, ${history.length} UTC days${span}, oldest first` +
    (untold.length > 0 ? `; not listed: ${untold.join(", ")}` : "")
  );
};

const historyStrip = (component: PublicComponent): string => {
  const n = component.history.length;
  const bars = component.history.map(historyBar).join("");
  return (
    `<div class="history" role="group" aria-label="${escapeHtml(stripLabel(component))}">${bars}</div>` +
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
