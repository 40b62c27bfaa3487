import type { ComponentType } from "react";

/**
 * Every area of a project's dashboard, in navigation order. An area owns the URLs under
 * `/projects/:projectId/<key>` (its own sub-routes, relative, through wouter's nesting) and is
 * loaded on first visit, so the first page loads only the shell and the screen it opens.
 */
export interface Area {
  key: string;
  label: string;
  section: "Observe" | "Respond" | "Configure";
  load: () => Promise<{ Area: ComponentType }>;
}

export const AREAS: readonly Area[] = [
  {
    key: "overview",
    label: "Overview",
    section: "Observe",
    load: () => import("./overview/index"),
  },
  {
    key: "dashboards",
    label: "Dashboards",
    section: "Observe",
    load: () => import("./dashboards/index"),
  },
  {
    key: "services",
    label: "Services",
    section: "Observe",
    load: () => import("./services/index"),
  },
  { key: "traces", label: "Traces", section: "Observe", load: () => import("./traces/index") },
  { key: "logs", label: "Logs", section: "Observe", load: () => import("./logs/index") },
  {
    key: "metrics",
    label: "Metrics",
    section: "Observe",
    load: () => import("./metrics/index"),
  },
  { key: "errors", label: "Errors", section: "Observe", load: () => import("./errors/index") },
  { key: "tql", label: "TQL", section: "Observe", load: () => import("./tql/index") },
  { key: "ai", label: "AI", section: "Observe", load: () => import("./ai/index") },
  {
    key: "sessions",
    label: "Sessions",
    section: "Observe",
    load: () => import("./sessions/index"),
  },
  {
    key: "monitors",
    label: "Monitors",
    section: "Respond",
    load: () => import("./monitors/index"),
  },
  { key: "alerts", label: "Alerts", section: "Respond", load: () => import("./alerts/index") },
  {
    key: "incidents",
    label: "Incidents",
    section: "Respond",
    load: () => import("./incidents/index"),
  },
  {
    key: "status-pages",
    label: "Status pages",
    section: "Respond",
    load: () => import("./status-pages/index"),
  },
  {
    key: "settings",
    label: "Settings",
    section: "Configure",
    load: () => import("./settings/index"),
  },
];
