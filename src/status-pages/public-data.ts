import type {
  HistoryDay,
  PublicComponent,
  PublicMaintenance,
  StatusPageData,
} from "../contracts/status-page-data.js";
import { HISTORY_DAYS } from "../contracts/status-pages.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { StatusPageDayRecord } from "../meta/repositories/status-page-days.js";
import type { StatusPageMaintenanceRecord } from "../meta/repositories/status-page-maintenances.js";
import type {
  ComponentSources,
  StatusPageComponentRecord,
  StatusPageRecord,
} from "../meta/repositories/status-pages.js";
import { componentHistory, type DayRow, firstHistoryDay, utcDay } from "./history.js";
import { phaseAt } from "./maintenance-phase.js";
import { incidentsByComponentDay, publicIncidentsOf } from "./public-incidents.js";
import { groupStateOf } from "./state-rule.js";

/** Windows in progress or ahead, soonest first, in their phase at `now`. */
const upcomingWindows = (
  windows: readonly StatusPageMaintenanceRecord[],
  now: Date,
): PublicMaintenance[] =>
  windows
    .map((w) => ({
      id: w.id,
      title: w.title,
      message: w.message,
      startsAt: w.startsAt,
      endsAt: w.endsAt,
      phase: phaseAt(w, now),
      componentIds: w.componentIds,
    }))
    .filter((w) => w.phase !== "completed")
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt));

/** The components as the public sees them, each with its history and uptime. */
function servicesOf(
  components: readonly StatusPageComponentRecord[],
  sources: ReadonlyMap<string, ComponentSources>,
  dayRows: readonly StatusPageDayRecord[],
  incidentsByDay: ReadonlyMap<string, Map<string, HistoryDay["incidents"]>>,
  now: Date,
): PublicComponent[] {
  const rowsByComponent = new Map<string, Map<string, DayRow>>();
  for (const row of dayRows) {
    const byDay = rowsByComponent.get(row.componentId) ?? new Map<string, DayRow>();
    rowsByComponent.set(row.componentId, byDay);
    byDay.set(row.day, row);
  }

  return components.map((c) => {
    const { days, uptime } = componentHistory(
      {
        createdAt: c.createdAt,
        state: c.state,
        stateChangedAt: c.stateChangedAt,
        hasMonitors: (sources.get(c.id)?.monitors.length ?? 0) > 0,
        rows: rowsByComponent.get(c.id) ?? new Map(),
        incidentsByDay: incidentsByDay.get(c.id) ?? new Map(),
      },
      now,
    );
    return {
      id: c.id,
      name: c.name,
      description: c.description,
      groupId: c.groupId,
      status: c.state,
      uptime,
      history: days,
    };
  });
}

/**
 * The public payload of a page at `now` (docs/design.md §4): components with their 90 days, groups,
 * incidents of the components' sources, maintenance in progress or ahead. A handful of indexed
 * reads whatever the number of components; nothing internal (projects, sources, URLs) is in it.
 */
export async function buildStatusPageData(
  meta: MetaAccess,
  page: StatusPageRecord,
  now: Date,
): Promise<StatusPageData> {
  const { statusPages, statusPageMaintenances, statusPageState, statusPageDays } = meta.repos;
  const fromDay = firstHistoryDay(now);
  const since = `${fromDay}T00:00:00.000Z`;
  const [groups, components, windows, dayRows] = await Promise.all([
    statusPages.listGroups(page.id),
    statusPages.listComponents(page.id),
    statusPageMaintenances.listByPage(page.id),
    statusPageDays.days(page.id, fromDay),
  ]);
  const componentIds = components.map((c) => c.id);
  const [sources, signals] = await Promise.all([
    statusPages.sourcesOf(componentIds),
    statusPageState.sourceStates(componentIds, now.toISOString()),
  ]);
  const publicIncidents = await publicIncidentsOf(meta, {
    components,
    sources,
    signals,
    since,
    now,
  });
  const incidentsByDay = incidentsByComponentDay(publicIncidents, since, now);

  const services = servicesOf(components, sources, dayRows, incidentsByDay, now);

  return {
    page: {
      id: page.id,
      slug: page.slug,
      title: page.title,
      description: page.description,
      logoUrl: page.logoUrl,
      links: page.links,
      timezone: page.timezone,
      status: page.state,
      updatedAt: page.updatedAt,
    },
    services,
    groups: groups.map((g) => {
      const members = services.filter((s) => s.groupId === g.id);
      return {
        id: g.id,
        name: g.name,
        status: groupStateOf(members.map((m) => m.status)),
        componentIds: members.map((m) => m.id),
      };
    }),
    activeIncidents: publicIncidents.filter((i) => i.status === "active"),
    incidents: publicIncidents,
    maintenance: upcomingWindows(windows, now),
    history: { days: HISTORY_DAYS, from: fromDay, to: utcDay(now.getTime()) },
    generatedAt: now.toISOString(),
  };
}
