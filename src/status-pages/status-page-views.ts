import { z } from "zod";
import type { StatusPageMaintenanceRecord } from "../meta/repositories/status-page-maintenances.js";
import type {
  ComponentSources,
  StatusPageComponentRecord,
  StatusPageGroupRecord,
  StatusPageRecord,
} from "../meta/repositories/status-pages.js";
import { ComponentState, MaintenancePhase, PageState, StatusLink } from "./model.js";

// The management API's views: members see the internals (sources, projects, versions) the
// public payload leaves out.

export const StatusPageView = z
  .object({
    id: z.string(),
    orgId: z.string(),
    slug: z.string(),
    title: z.string(),
    description: z.string(),
    logoUrl: z.string().nullable(),
    links: z.array(StatusLink),
    timezone: z.string(),
    status: PageState,
    statusChangedAt: z.string(),
    /** Bumped by every change of what the public page shows. */
    dataVersion: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "StatusPage" });
export type StatusPageView = z.infer<typeof StatusPageView>;

export const StatusPageGroupView = z
  .object({ id: z.string(), pageId: z.string(), name: z.string(), position: z.number().int() })
  .meta({ id: "StatusPageGroup" });
export type StatusPageGroupView = z.infer<typeof StatusPageGroupView>;

export const ComponentSourceView = z
  .object({ id: z.string(), name: z.string(), projectId: z.string() })
  .meta({ id: "StatusPageComponentSource" });

export const StatusPageComponentView = z
  .object({
    id: z.string(),
    pageId: z.string(),
    groupId: z.string().nullable(),
    name: z.string(),
    description: z.string(),
    position: z.number().int(),
    status: ComponentState,
    statusChangedAt: z.string(),
    monitors: z.array(ComponentSourceView),
    alertRules: z.array(ComponentSourceView),
    publishIncidents: z
      .boolean()
      .describe("Its sources' own incidents show on it and count by severity"),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "StatusPageComponent" });
export type StatusPageComponentView = z.infer<typeof StatusPageComponentView>;

export const StatusPageMaintenanceView = z
  .object({
    id: z.string(),
    pageId: z.string(),
    title: z.string(),
    message: z.string(),
    startsAt: z.string(),
    endsAt: z.string(),
    phase: MaintenancePhase,
    componentIds: z.array(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "StatusPageMaintenance" });
export type StatusPageMaintenanceView = z.infer<typeof StatusPageMaintenanceView>;

/** One page's whole configuration. */
export const StatusPageConfigView = z
  .object({
    page: StatusPageView,
    groups: z.array(StatusPageGroupView).describe("By position, then id"),
    components: z.array(StatusPageComponentView).describe("By position, then id"),
    maintenances: z.array(StatusPageMaintenanceView).describe("Latest start first"),
  })
  .meta({ id: "StatusPageConfig" });
export type StatusPageConfigView = z.infer<typeof StatusPageConfigView>;

export const toPageView = (page: StatusPageRecord): StatusPageView => ({
  id: page.id,
  orgId: page.orgId,
  slug: page.slug,
  title: page.title,
  description: page.description,
  logoUrl: page.logoUrl,
  links: page.links,
  timezone: page.timezone,
  status: page.state,
  statusChangedAt: page.stateChangedAt,
  dataVersion: page.dataVersion,
  createdAt: page.createdAt,
  updatedAt: page.updatedAt,
});

export const toGroupView = (group: StatusPageGroupRecord): StatusPageGroupView => ({ ...group });

export const toComponentView = (
  component: StatusPageComponentRecord,
  sources: ComponentSources | undefined,
): StatusPageComponentView => ({
  id: component.id,
  pageId: component.pageId,
  groupId: component.groupId,
  name: component.name,
  description: component.description,
  position: component.position,
  status: component.state,
  statusChangedAt: component.stateChangedAt,
  monitors: sources?.monitors ?? [],
  alertRules: sources?.alertRules ?? [],
  publishIncidents: component.publishIncidents,
  createdAt: component.createdAt,
  updatedAt: component.updatedAt,
});

export const toMaintenanceView = (
  window: StatusPageMaintenanceRecord,
): StatusPageMaintenanceView => ({
  id: window.id,
  pageId: window.pageId,
  title: window.title,
  message: window.message,
  startsAt: window.startsAt,
  endsAt: window.endsAt,
  phase: window.phase,
  componentIds: window.componentIds,
  createdAt: window.createdAt,
  updatedAt: window.updatedAt,
});
