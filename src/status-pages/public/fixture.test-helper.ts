import {
  type HistoryDay,
  type PublicComponent,
  type PublicIncident,
  StatusPageData,
} from "../../contracts/status-page-data.js";
import { HISTORY_DAYS } from "../../contracts/status-pages.js";

// Test fixtures for the public renderers: valid StatusPageData (checked with the schema)
// with HISTORY_DAYS days of history per component. Deterministic, no randomness.

export const FIXTURE_NOW = new Date("2025-03-15T12:00:00.000Z");
const DAY_MS = 86_400_000;

const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/** A day of history in a given state, with plausible numbers for it. */
export const historyDay = (
  date: string,
  status: HistoryDay["status"],
  extra: Partial<HistoryDay> = {},
): HistoryDay => {
  const base: Record<HistoryDay["status"], Omit<HistoryDay, "date" | "status">> = {
    operational: {
      uptime: 100,
      checks: { run: 1440, passed: 1440 },
      downMs: 0,
      degradedMs: 0,
      maintenance: false,
      incidents: [],
    },
    degraded: {
      uptime: 99.652,
      checks: { run: 1440, passed: 1435 },
      downMs: 300_000,
      degradedMs: 2_700_000,
      maintenance: false,
      incidents: [],
    },
    down: {
      uptime: 95.833,
      checks: { run: 1440, passed: 1380 },
      downMs: 3_600_000,
      degradedMs: 0,
      maintenance: false,
      incidents: [],
    },
    no_data: {
      uptime: null,
      checks: { run: 0, passed: 0 },
      downMs: 0,
      degradedMs: 0,
      maintenance: false,
      incidents: [],
    },
  };
  return { date, status, ...base[status], ...extra };
};

/** HISTORY_DAYS days ending on `now`'s UTC day, oldest first; `statusOf(i)` picks day i's state. */
export const buildHistory = (
  now: Date,
  statusOf: (index: number) => HistoryDay["status"] = () => "operational",
  extraOf: (index: number) => Partial<HistoryDay> = () => ({}),
): HistoryDay[] =>
  Array.from({ length: HISTORY_DAYS }, (_, i) => {
    const date = isoDay(new Date(now.getTime() - (HISTORY_DAYS - 1 - i) * DAY_MS));
    return historyDay(date, statusOf(i), extraOf(i));
  });

const component = (
  id: string,
  name: string,
  extra: Partial<PublicComponent> & { now: Date },
): PublicComponent => {
  const { now, ...rest } = extra;
  return {
    id,
    name,
    description: "",
    groupId: null,
    status: "operational",
    uptime: 99.987,
    history: buildHistory(now),
    ...rest,
  };
};

/** A page with `components` plain, ungrouped, operational components and nothing else. */
export const buildStatusPageData = (
  options: { components?: number; now?: Date } = {},
): StatusPageData => {
  const now = options.now ?? FIXTURE_NOW;
  const n = options.components ?? 3;
  const services = Array.from({ length: n }, (_, i) =>
    component(`cmp_${i + 1}`, `Component ${i + 1}`, { now, uptime: 100 }),
  );
  return StatusPageData.parse({
    page: {
      id: "stp_1",
      slug: "acme",
      title: "Acme",
      description: "Status of Acme's services",
      logoUrl: null,
      links: [],
      timezone: "UTC",
      status: "operational",
      updatedAt: now.toISOString(),
    },
    services,
    groups: [],
    activeIncidents: [],
    incidents: [],
    maintenance: [],
    history: {
      days: HISTORY_DAYS,
      from: services[0]?.history[0]?.date ?? isoDay(now),
      to: isoDay(now),
    },
    generatedAt: now.toISOString(),
  } satisfies StatusPageData);
};

const at = (now: Date, hoursAgo: number): string =>
  new Date(now.getTime() - hoursAgo * 3_600_000).toISOString();

/** A page showing every state: groups, an outage, degraded days, no-data days, maintenance. */
export const buildRichStatusPageData = (now: Date = FIXTURE_NOW): StatusPageData => {
  const active: PublicIncident = {
    id: "inc_active",
    title: "Elevated error rates on the API",
    status: "active",
    severity: "high",
    impact: "down",
    startedAt: at(now, 2),
    resolvedAt: null,
    componentIds: ["cmp_api"],
    updates: [
      { id: "u1", at: at(now, 2), phase: "investigating", message: "We are investigating errors." },
      {
        id: "u2",
        at: at(now, 1),
        phase: "identified",
        message: "A bad deploy was identified.\nRolling back.",
      },
    ],
  };
  const resolved: PublicIncident = {
    id: "inc_resolved",
    title: "Slow dashboard loads",
    status: "resolved",
    severity: "medium",
    impact: "degraded",
    startedAt: at(now, 24 * 6 + 5),
    resolvedAt: at(now, 24 * 6 + 3),
    componentIds: ["cmp_web"],
    updates: [
      {
        id: "u3",
        at: at(now, 24 * 6 + 5),
        phase: "investigating",
        message: "Dashboards are slow.",
      },
      { id: "u4", at: at(now, 24 * 6 + 4), phase: "monitoring", message: "A fix is out." },
      { id: "u5", at: at(now, 24 * 6 + 3), phase: "resolved", message: "All good." },
    ],
  };
  const ref = (i: PublicIncident) => ({ id: i.id, title: i.title, severity: i.severity });
  const last = HISTORY_DAYS - 1;
  const services: PublicComponent[] = [
    component("cmp_api", "API", {
      now,
      description: "REST and GraphQL endpoints",
      groupId: "grp_core",
      status: "down",
      uptime: 99.412,
      history: buildHistory(
        now,
        (i) =>
          i === last ? "down" : i % 17 === 5 ? "degraded" : i === 40 ? "down" : "operational",
        (i) => (i === last ? { incidents: [ref(active)] } : {}),
      ),
    }),
    component("cmp_web", "Dashboard", {
      now,
      description: "The web application",
      groupId: "grp_core",
      status: "degraded",
      uptime: 99.9,
      history: buildHistory(
        now,
        (i) => (i === last - 6 || i >= last - 1 ? "degraded" : "operational"),
        (i) => (i === last - 6 ? { incidents: [ref(resolved)] } : {}),
      ),
    }),
    component("cmp_db", "Database", {
      now,
      groupId: "grp_data",
      status: "maintenance",
      uptime: 100,
      history: buildHistory(
        now,
        () => "operational",
        (i) => (i >= last - 1 || i === 30 ? { maintenance: true } : {}),
      ),
    }),
    component("cmp_mail", "Email delivery", {
      now,
      description: "Outgoing notification email",
      uptime: 99.998,
      history: buildHistory(now, (i) =>
        i < 25 ? "no_data" : i === 60 ? "degraded" : "operational",
      ),
    }),
    component("cmp_new", "Webhooks", {
      now,
      uptime: null,
      history: buildHistory(now, () => "no_data"),
    }),
  ];
  return StatusPageData.parse({
    page: {
      id: "stp_rich",
      slug: "acme",
      title: "Acme Cloud",
      description: "Live status of Acme Cloud services",
      logoUrl: null,
      links: [
        { label: "Acme home", url: "https://acme.example/" },
        { label: "Support", url: "https://acme.example/support" },
      ],
      timezone: "Europe/Berlin",
      status: "down",
      updatedAt: at(now, 1),
    },
    services,
    groups: [
      {
        id: "grp_core",
        name: "Core platform",
        status: "down",
        componentIds: ["cmp_api", "cmp_web"],
      },
      { id: "grp_data", name: "Data", status: "maintenance", componentIds: ["cmp_db"] },
    ],
    activeIncidents: [active],
    incidents: [active, resolved],
    maintenance: [
      {
        id: "mnt_now",
        title: "Database upgrade",
        message: "Primary database moves to a new major version.",
        startsAt: at(now, 1),
        endsAt: at(now, -2),
        phase: "in_progress",
        componentIds: ["cmp_db"],
      },
      {
        id: "mnt_next",
        title: "Network maintenance",
        message: "",
        startsAt: at(now, -48),
        endsAt: at(now, -50),
        phase: "scheduled",
        componentIds: ["cmp_api", "cmp_web"],
      },
    ],
    history: {
      days: HISTORY_DAYS,
      from: services[0]?.history[0]?.date ?? isoDay(now),
      to: isoDay(now),
    },
    generatedAt: now.toISOString(),
  } satisfies StatusPageData);
};
