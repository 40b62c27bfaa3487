import type { HistoryDay } from "../contracts/status-page-data.js";
import {
  type ComponentState,
  HISTORY_DAYS,
  type PageState,
  worstState,
} from "../contracts/status-pages.js";
import type { StatusPageDayRecord } from "../meta/repositories/status-page-days.js";

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of a time, YYYY-MM-DD. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const dayStartMs = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/** The first UTC day a page shows at `now` (HISTORY_DAYS days, today included). */
export const firstHistoryDay = (now: Date): string =>
  utcDay(dayStartMs(now.getTime()) - (HISTORY_DAYS - 1) * DAY_MS);

/** Splits [fromMs, toMs) at UTC midnights: the milliseconds spent in each day, oldest first. */
export function splitByUtcDay(fromMs: number, toMs: number): { day: string; ms: number }[] {
  const parts: { day: string; ms: number }[] = [];
  for (let start = fromMs; start < toMs; ) {
    const end = Math.min(toMs, dayStartMs(start) + DAY_MS);
    parts.push({ day: utcDay(start), ms: end - start });
    start = end;
  }
  return parts;
}

/** One stored history row of a component (status_page_days), as numbers. */
export type DayRow = Omit<StatusPageDayRecord, "componentId">;

/** What one component's history is assembled from. */
export interface ComponentHistoryInput {
  createdAt: string;
  /** The state it is in now and since when: the interval not yet written to its day rows. */
  state: ComponentState;
  stateChangedAt: string;
  /** Whether it has monitors now: a day without checks then has no uptime, else a time-based one. */
  hasMonitors: boolean;
  rows: ReadonlyMap<string, DayRow>;
  incidentsByDay: ReadonlyMap<string, HistoryDay["incidents"]>;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

const percent = (good: number, total: number): number | null =>
  total > 0 ? round3((Math.max(0, good) / total) * 100) : null;

/** The ms an interval [from, to) shares with [start, end). */
const overlap = (from: number, to: number, start: number, end: number): number =>
  Math.max(0, Math.min(to, end) - Math.max(from, start));

/**
 * A component's HISTORY_DAYS days ending today (UTC), oldest first: the stored rows plus the
 * current state's interval up to now, which is only written to rows when the state moves on.
 *
 * Uptime (docs/status-pages.md): checks passed / checks run outside maintenance on a day with
 * checks; on a day without, nothing when the component has monitors (none ran), else the share
 * of the observed time (since it existed, minus maintenance) it was not down. Degraded counts
 * as up in both. A day keeps its checks when monitors are unbound later.
 */
export function componentHistory(
  input: ComponentHistoryInput,
  now: Date,
): { days: HistoryDay[]; uptime: number | null } {
  const nowMs = now.getTime();
  const createdMs = Date.parse(input.createdAt);
  const sinceMs = Date.parse(input.stateChangedAt);
  const first = dayStartMs(nowMs) - (HISTORY_DAYS - 1) * DAY_MS;
  const days: HistoryDay[] = [];
  const total = { run: 0, passed: 0, observed: 0, down: 0 };
  for (let i = 0; i < HISTORY_DAYS; i++) {
    const start = first + i * DAY_MS;
    const end = Math.min(start + DAY_MS, nowMs);
    const date = utcDay(start);
    const row = input.rows.get(date);
    const observedFrom = Math.max(start, createdMs);
    if (end <= observedFrom && !row) {
      days.push({
        date,
        status: "no_data",
        uptime: null,
        checks: { run: 0, passed: 0 },
        downMs: 0,
        degradedMs: 0,
        maintenance: false,
        incidents: input.incidentsByDay.get(date) ?? [],
      });
      continue;
    }
    const live = overlap(sinceMs, nowMs, start, end);
    const liveIn = (state: ComponentState) => (input.state === state ? live : 0);
    const downMs = (row?.downMs ?? 0) + liveIn("down");
    const degradedMs = (row?.degradedMs ?? 0) + liveIn("degraded");
    const maintenanceMs = (row?.maintenanceMs ?? 0) + liveIn("maintenance");
    const states: PageState[] = [row?.worstState ?? "operational"];
    if (live > 0 && input.state !== "maintenance") states.push(input.state);
    const run = row?.checksRun ?? 0;
    const passed = row?.checksPassed ?? 0;
    const observed = Math.max(0, end - observedFrom - maintenanceMs);
    total.run += run;
    total.passed += passed;
    total.observed += observed;
    total.down += downMs;
    days.push({
      date,
      status: worstState(states),
      uptime:
        run > 0
          ? percent(passed, run)
          : input.hasMonitors
            ? null
            : percent(observed - downMs, observed),
      checks: { run, passed },
      downMs,
      degradedMs,
      maintenance: (row?.maintenance ?? false) || maintenanceMs > 0,
      incidents: input.incidentsByDay.get(date) ?? [],
    });
  }
  const uptime =
    total.run > 0
      ? percent(total.passed, total.run)
      : input.hasMonitors
        ? null
        : percent(total.observed - total.down, total.observed);
  return { days, uptime };
}
