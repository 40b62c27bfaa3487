import type {
  StatusPageComponentView,
  StatusPageGroupView,
  StatusPageMaintenanceView,
  StatusPageView,
} from "../contracts/status-pages.js";
import type { StatusPageMaintenanceRecord } from "../meta/repositories/status-page-maintenances.js";
import type {
  ComponentSources,
  StatusPageComponentRecord,
  StatusPageGroupRecord,
  StatusPageRecord,
} from "../meta/repositories/status-pages.js";

// Records to the management API's views (src/contracts/status-pages.ts).

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
