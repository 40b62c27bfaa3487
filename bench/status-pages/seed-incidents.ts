import {
  appendIncidentEvent,
  openSourceIncident,
  resolveSourceIncident,
} from "../../src/incidents/source-incidents.js";
import type { IncidentSeverity } from "../../src/meta/repositories/incidents.js";
import type { SeededPage } from "./seed-page.js";
import { DAY_MS, DAYS, GROUPS, INCIDENTS, MINUTE_MS, random } from "./settings.js";

export interface PlannedIncident {
  monitorId: string;
  startMs: number;
  endMs: number | null;
  severity: IncidentSeverity;
}

/** Incidents over the 90 days (chronological), each with public updates; the last is open. */
export async function seedIncidents(seeded: SeededPage) {
  const { components, groupMonitors, meta, domain, setup } = seeded;
  const rand = random(20240613);
  const now = Date.now();
  const todayStart = Math.floor(now / DAY_MS) * DAY_MS;
  const firstDayStart = todayStart - (DAYS - 1) * DAY_MS;
  const allMonitors = [...new Set(components.flatMap((c) => c.monitors))];
  const severities: IncidentSeverity[] = ["low", "medium", "high", "critical"];
  const planned: PlannedIncident[] = [];
  for (let i = 0; i < INCIDENTS - 1; i++) {
    const startMs = firstDayStart + Math.floor(rand() * (now - firstDayStart - 6 * 3600_000));
    const duration = (10 + Math.floor(rand() * 230)) * MINUTE_MS;
    const r = rand();
    planned.push({
      monitorId: allMonitors[Math.floor(rand() * allMonitors.length)] ?? "",
      startMs,
      endMs: startMs + duration,
      severity: severities[r < 0.3 ? 0 : r < 0.6 ? 1 : r < 0.9 ? 2 : 3] ?? "medium",
    });
  }
  planned.sort((a, b) => a.startMs - b.startMs);
  planned.push({
    monitorId: components[7]?.monitors[0] ?? "",
    startMs: now - 25 * MINUTE_MS,
    endMs: null,
    severity: "medium",
  });
  const monitorName = new Map<string, string>();
  for (const c of components) monitorName.set(c.monitors[0] ?? "", c.name);
  for (const [g, id] of groupMonitors.entries()) monitorName.set(id, `${GROUPS[g]} services`);
  const iso = (ms: number) => new Date(ms).toISOString();
  let publicUpdates = 0;
  for (const p of planned) {
    const what = monitorName.get(p.monitorId) ?? "A service";
    const down = p.severity === "high" || p.severity === "critical";
    const title = down ? `${what} unavailable` : `Elevated errors on ${what}`;
    await meta.transaction(async (tx) => {
      const { incident } = await openSourceIncident(tx, domain, {
        projectId: setup.projectId,
        source: "monitor",
        sourceId: p.monitorId,
        title,
        severity: p.severity,
        cause: down ? "status 503" : "assertion failed: response time above 2000 ms",
        at: iso(p.startMs),
        event: { type: "monitor_down", message: "Check failed" },
      });
      const span = (p.endMs ?? now) - p.startMs;
      const updates: [number, "investigating" | "identified" | "monitoring", string][] = [
        [
          0.05,
          "investigating",
          `We are investigating ${down ? "an outage" : "errors"} of ${what}.`,
        ],
        [0.4, "identified", "The cause has been identified: a faulty deployment; rolling back."],
        [0.75, "monitoring", "A fix has been deployed; we are monitoring the results."],
      ];
      for (const [share, phase, message] of p.endMs === null ? updates.slice(0, 2) : updates) {
        await appendIncidentEvent(tx, domain, incident.id, {
          type: "update",
          at: iso(p.startMs + Math.round(span * share)),
          actor: { kind: "system", id: null },
          phase,
          message,
          public: true,
        });
        publicUpdates++;
      }
      if (p.endMs !== null) {
        await appendIncidentEvent(tx, domain, incident.id, {
          type: "update",
          at: iso(p.endMs),
          actor: { kind: "system", id: null },
          phase: "resolved",
          message: "This incident has been resolved.",
          public: true,
        });
        publicUpdates++;
        await resolveSourceIncident(tx, domain, {
          source: "monitor",
          sourceId: p.monitorId,
          at: iso(p.endMs),
          event: { type: "monitor_recovered", message: "Check passed" },
        });
      } else {
        // The open one: its monitor is in an outage, as the monitor engine leaves it.
        await tx.repos.monitors.updateState(p.monitorId, {
          health: "outage",
          failureStreak: 3,
          lastCheckedAt: iso(now),
          lastResultId: "bench",
          openIncidentId: incident.id,
        });
      }
      await domain.statusPages.sourcesChanged(tx, [{ kind: "monitor", id: p.monitorId }]);
    });
  }

  return { rand, now, todayStart, firstDayStart, planned, publicUpdates, iso };
}
export type SeededIncidents = Awaited<ReturnType<typeof seedIncidents>>;
