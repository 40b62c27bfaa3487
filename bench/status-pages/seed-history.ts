import type { DayRow } from "../../src/status-pages/history.js";
import { splitByUtcDay, utcDay } from "../../src/status-pages/history.js";
import { createMaintenance } from "../../src/status-pages/maintenances.js";
import { log } from "../harness/run.js";
import { fmt } from "../harness/stats.js";
import type { SeededIncidents } from "./seed-incidents.js";
import type { SeededPage } from "./seed-page.js";
import { COMPONENTS, DAY_MS, DAYS, GROUPS, MINUTE_MS, PAST_WINDOWS, SLUG } from "./settings.js";

/** Maintenance windows: 6 completed (through the repository), 1 running and 3 ahead. */
async function seedMaintenance(seeded: SeededPage, incidents: SeededIncidents) {
  const { meta, domain, pageId, pageRef, components } = seeded;
  const { rand, now, todayStart, iso } = incidents;
  const pastWindows: { startMs: number; endMs: number; componentIds: string[] }[] = [];
  for (let w = 0; w < PAST_WINDOWS; w++) {
    const startMs = todayStart - (80 - w * 13) * DAY_MS + (1 + Math.floor(rand() * 4)) * 3600_000;
    const componentIds = components.slice(w * 8, w * 8 + 3 + (w % 3)).map((c) => c.id);
    pastWindows.push({ startMs, endMs: startMs + (2 + (w % 3)) * 3600_000, componentIds });
    const at = iso(startMs - 3 * DAY_MS);
    await meta.repos.statusPageMaintenances.insert({
      id: domain.newId("mnt"),
      pageId,
      title: `Database upgrade ${w + 1}`,
      message: "Planned upgrade of the storage cluster; short read-only periods are expected.",
      startsAt: iso(startMs),
      endsAt: iso(startMs + (2 + (w % 3)) * 3600_000),
      phase: "completed",
      componentIds: [...componentIds].sort(),
      createdBy: null,
      createdAt: at,
      updatedAt: at,
    });
  }
  const windowsAhead: [number, number, string, number[]][] = [
    [-60, 120, "Network maintenance in Regions", [4, 9]],
    [2 * 24 * 60, 2 * 24 * 60 + 180, "Dashboard release", [1, 6, 11, 16]],
    [5 * 24 * 60, 5 * 24 * 60 + 60, "Certificate rotation", [0, 5, 10]],
    [9 * 24 * 60, 9 * 24 * 60 + 240, "Data pipeline migration", [2, 7, 12, 17, 22]],
  ];
  for (const [fromMin, toMin, title, indexes] of windowsAhead)
    await createMaintenance({
      ...pageRef,
      input: {
        title,
        message: "We will keep this page updated during the work.",
        startsAt: iso(now + fromMin * MINUTE_MS),
        endsAt: iso(now + toMin * MINUTE_MS),
        componentIds: indexes.map((i) => components[i]?.id ?? ""),
      },
    });
  return { pastWindows, windows: PAST_WINDOWS + windowsAhead.length };
}

/**
 * Maintenance windows, then 90 days of history: one row per component and day, consistent with
 * the incidents and the past windows.
 */
export async function seedHistory(seeded: SeededPage, incidents: SeededIncidents) {
  const { meta, pageId, components, monitorCount, setupStarted } = seeded;
  const { rand, now, todayStart, firstDayStart, planned, publicUpdates } = incidents;
  const { pastWindows, windows } = await seedMaintenance(seeded, incidents);
  // 4. 90 days of history: one row per component and day, consistent with the incidents and
  // the past windows, plus a few degraded blips.
  const rows = new Map<string, Map<string, DayRow>>();
  for (const c of components) {
    const byDay = new Map<string, DayRow>();
    for (let d = 0; d < DAYS; d++) {
      const start = firstDayStart + d * DAY_MS;
      const run = start === todayStart ? Math.max(1, Math.floor((now - start) / MINUTE_MS)) : 1440;
      const failed = rand() < 0.7 ? Math.floor(rand() * 3) : 0;
      const blip = rand() < 0.03 ? (5 + Math.floor(rand() * 25)) * MINUTE_MS : 0;
      byDay.set(utcDay(start), {
        day: utcDay(start),
        checksRun: run,
        checksPassed: run - failed - Math.round(blip / MINUTE_MS / 2),
        checksInMaintenance: 0,
        downMs: 0,
        degradedMs: blip,
        maintenanceMs: 0,
        worstState: blip > 0 ? "degraded" : "operational",
        maintenance: false,
      });
    }
    rows.set(c.id, byDay);
  }
  for (const p of planned.filter((x) => x.endMs !== null)) {
    const down = p.severity === "high" || p.severity === "critical";
    for (const c of components.filter((x) => x.monitors.includes(p.monitorId)))
      for (const { day, ms } of splitByUtcDay(p.startMs, p.endMs ?? now)) {
        const row = rows.get(c.id)?.get(day);
        if (!row) continue;
        const minutes = Math.round(ms / MINUTE_MS);
        row.checksPassed = Math.max(
          0,
          row.checksPassed - (down ? minutes : Math.ceil(minutes / 3)),
        );
        if (down) row.downMs += ms;
        else row.degradedMs += ms;
        if (down) row.worstState = "down";
        else if (row.worstState === "operational") row.worstState = "degraded";
      }
  }
  for (const w of pastWindows)
    for (const id of w.componentIds)
      for (const { day, ms } of splitByUtcDay(w.startMs, w.endMs)) {
        const row = rows.get(id)?.get(day);
        if (!row) continue;
        const minutes = Math.round(ms / MINUTE_MS);
        row.checksInMaintenance += minutes;
        row.checksRun -= minutes;
        row.checksPassed = Math.min(row.checksPassed, row.checksRun);
        row.maintenanceMs += ms;
        row.maintenance = true;
      }
  let dayRows = 0;
  const writtenAt = new Date(now).toISOString();
  for (const c of components)
    await meta.transaction(async (tx) => {
      for (const row of rows.get(c.id)?.values() ?? []) {
        await tx.repos.statusPageDays.accrue({
          componentId: c.id,
          pageId,
          ...row,
          at: writtenAt,
        });
        dayRows++;
      }
    });
  // Anything read from the meta store changed: a new data version, so no stale cache is served.
  await meta.repos.statusPages.bumpVersion(pageId, new Date().toISOString());
  const setupSeconds = (performance.now() - setupStarted) / 1000;
  log(
    `Page '${SLUG}': ${COMPONENTS} components in ${GROUPS.length} groups, ${monitorCount} monitors, ` +
      `${planned.length} incidents (${publicUpdates} public updates), ${windows} windows, ` +
      `${fmt(dayRows)} day rows, in ${setupSeconds.toFixed(1)} s`,
  );
  return { dayRows, windows, setupSeconds };
}
