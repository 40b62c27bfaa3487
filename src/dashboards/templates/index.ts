import { DashboardExport } from "../../contracts/dashboards.js";
import { aiUsage } from "./ai-usage.js";
import type { DashboardTemplate } from "./dashboard-template.js";
import { hostMetrics } from "./host-metrics.js";
import { monitorsUptime } from "./monitors-uptime.js";
import { runtime } from "./runtime.js";
import { serviceOverview } from "./service-overview.js";

export type { DashboardTemplate } from "./dashboard-template.js";

/** A template with its document parsed: defaults filled in, as an install stores it. */
export type ParsedTemplate = Omit<DashboardTemplate, "dashboard"> & { dashboard: DashboardExport };

/** The templates Vigil ships, in the gallery's order (docs/dashboard-templates.md). */
export const DASHBOARD_TEMPLATES: readonly ParsedTemplate[] = [
  serviceOverview,
  hostMetrics,
  runtime,
  aiUsage,
  monitorsUptime,
].map((template) => ({ ...template, dashboard: DashboardExport.parse(template.dashboard) }));

/** The template of that id, if Vigil ships one. */
export function findTemplate(id: string): ParsedTemplate | undefined {
  return DASHBOARD_TEMPLATES.find((template) => template.id === id);
}
