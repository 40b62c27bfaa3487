import type { Kysely } from "kysely";
import type { ComponentState, PageState } from "../../contracts/status-pages.js";
import type {
  MetaSchema,
  StatusPageComponentRow,
  StatusPageGroupRow,
  StatusPageRow,
} from "../schema.js";
import { lockRow } from "./row-lock.js";

// Status page configuration as the management API writes it (pages, groups, components and
// their sources; windows are in status-page-maintenances.ts). States and history rows are the state engine's.

export interface StatusLink {
  label: string;
  url: string;
}

export interface StatusPageRecord {
  id: string;
  orgId: string;
  slug: string;
  title: string;
  description: string;
  logoUrl: string | null;
  links: StatusLink[];
  timezone: string;
  state: PageState;
  stateChangedAt: string;
  dataVersion: number;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The fields a page edit may change. */
export type StatusPageChange = Pick<
  StatusPageRecord,
  "slug" | "title" | "description" | "logoUrl" | "links" | "timezone"
>;

export interface StatusPageGroupRecord {
  id: string;
  pageId: string;
  name: string;
  position: number;
}

export interface StatusPageComponentRecord {
  id: string;
  pageId: string;
  groupId: string | null;
  name: string;
  description: string;
  position: number;
  state: ComponentState;
  stateChangedAt: string;
  /** Its sources' own incidents are shown on it and counted by severity. */
  publishIncidents: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A monitor or rule a component takes its state from, as the management view names it. */
export interface ComponentSource {
  id: string;
  name: string;
  projectId: string;
}

export interface ComponentSources {
  monitors: ComponentSource[];
  alertRules: ComponentSource[];
}

const toPage = (row: StatusPageRow): StatusPageRecord => ({
  id: row.id,
  orgId: row.org_id,
  slug: row.slug,
  title: row.title,
  description: row.description,
  logoUrl: row.logo_url,
  links: JSON.parse(row.links) as StatusLink[],
  timezone: row.timezone,
  state: row.state as PageState,
  stateChangedAt: row.state_changed_at,
  dataVersion: Number(row.data_version),
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toGroup = (row: StatusPageGroupRow): StatusPageGroupRecord => ({
  id: row.id,
  pageId: row.page_id,
  name: row.name,
  position: Number(row.position),
});

const toComponent = (row: StatusPageComponentRow): StatusPageComponentRecord => ({
  id: row.id,
  pageId: row.page_id,
  groupId: row.group_id,
  name: row.name,
  description: row.description,
  position: Number(row.position),
  state: row.state as ComponentState,
  stateChangedAt: row.state_changed_at,
  publishIncidents: Number(row.publish_incidents) === 1,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function createStatusPageRepository(db: Kysely<MetaSchema>) {
  return {
    // ---- pages ----
    async insert(page: StatusPageRecord): Promise<void> {
      await db
        .insertInto("status_pages")
        .values({
          id: page.id,
          org_id: page.orgId,
          slug: page.slug,
          title: page.title,
          description: page.description,
          logo_url: page.logoUrl,
          links: JSON.stringify(page.links),
          timezone: page.timezone,
          state: page.state,
          state_changed_at: page.stateChangedAt,
          data_version: page.dataVersion,
          created_by: page.createdBy,
          created_at: page.createdAt,
          updated_at: page.updatedAt,
        })
        .execute();
    },
    async findById(id: string): Promise<StatusPageRecord | undefined> {
      const row = await db
        .selectFrom("status_pages")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toPage(row);
    },
    async findBySlug(slug: string): Promise<StatusPageRecord | undefined> {
      const row = await db
        .selectFrom("status_pages")
        .selectAll()
        .where("slug", "=", slug)
        .executeTakeFirst();
      return row && toPage(row);
    },
    /** An organization's pages, oldest first. */
    async listByOrg(orgId: string): Promise<StatusPageRecord[]> {
      const rows = await db
        .selectFrom("status_pages")
        .selectAll()
        .where("org_id", "=", orgId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(toPage);
    },
    async update(id: string, change: StatusPageChange): Promise<void> {
      await db
        .updateTable("status_pages")
        .set({
          slug: change.slug,
          title: change.title,
          description: change.description,
          logo_url: change.logoUrl,
          links: JSON.stringify(change.links),
          timezone: change.timezone,
        })
        .where("id", "=", id)
        .execute();
    },
    /** Takes the page's row lock for the rest of the transaction; false when it is gone. */
    lock: (id: string): Promise<boolean> => lockRow(db, "status_pages", id),
    /** What a change of anything the page shows does to the page row: a new data version. */
    async bumpVersion(id: string, at: string): Promise<void> {
      await db
        .updateTable("status_pages")
        .set((eb) => ({ data_version: eb("data_version", "+", 1), updated_at: at }))
        .where("id", "=", id)
        .execute();
    },
    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom("status_pages").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    // ---- groups ----
    async insertGroup(group: StatusPageGroupRecord): Promise<void> {
      await db
        .insertInto("status_page_groups")
        .values({
          id: group.id,
          page_id: group.pageId,
          name: group.name,
          position: group.position,
        })
        .execute();
    },
    /** A page's groups in display order: position, then id. */
    async listGroups(pageId: string): Promise<StatusPageGroupRecord[]> {
      const rows = await db
        .selectFrom("status_page_groups")
        .selectAll()
        .where("page_id", "=", pageId)
        .orderBy("position")
        .orderBy("id")
        .execute();
      return rows.map(toGroup);
    },
    async updateGroup(id: string, change: { name: string; position: number }): Promise<void> {
      await db
        .updateTable("status_page_groups")
        .set({ name: change.name, position: change.position })
        .where("id", "=", id)
        .execute();
    },
    /** Deletes the group; its components stay, ungrouped (the foreign key sets null). */
    async deleteGroup(id: string): Promise<void> {
      await db.deleteFrom("status_page_groups").where("id", "=", id).execute();
    },

    // ---- components ----
    async insertComponent(component: StatusPageComponentRecord): Promise<void> {
      await db
        .insertInto("status_page_components")
        .values({
          id: component.id,
          page_id: component.pageId,
          group_id: component.groupId,
          name: component.name,
          description: component.description,
          position: component.position,
          state: component.state,
          state_changed_at: component.stateChangedAt,
          publish_incidents: component.publishIncidents ? 1 : 0,
          created_at: component.createdAt,
          updated_at: component.updatedAt,
        })
        .execute();
    },
    /** A page's components in display order: position, then id. */
    async listComponents(pageId: string): Promise<StatusPageComponentRecord[]> {
      const rows = await db
        .selectFrom("status_page_components")
        .selectAll()
        .where("page_id", "=", pageId)
        .orderBy("position")
        .orderBy("id")
        .execute();
      return rows.map(toComponent);
    },
    async updateComponent(
      id: string,
      change: Pick<
        StatusPageComponentRecord,
        "groupId" | "name" | "description" | "position" | "publishIncidents" | "updatedAt"
      >,
    ): Promise<void> {
      await db
        .updateTable("status_page_components")
        .set({
          group_id: change.groupId,
          name: change.name,
          description: change.description,
          position: change.position,
          publish_incidents: change.publishIncidents ? 1 : 0,
          updated_at: change.updatedAt,
        })
        .where("id", "=", id)
        .execute();
    },
    async deleteComponent(id: string): Promise<void> {
      await db.deleteFrom("status_page_components").where("id", "=", id).execute();
    },
    /** Replaces a component's sources with these. */
    async setSources(
      componentId: string,
      sources: { monitorIds: readonly string[]; alertRuleIds: readonly string[] },
    ): Promise<void> {
      await db
        .deleteFrom("status_page_component_monitors")
        .where("component_id", "=", componentId)
        .execute();
      await db
        .deleteFrom("status_page_component_rules")
        .where("component_id", "=", componentId)
        .execute();
      if (sources.monitorIds.length > 0)
        await db
          .insertInto("status_page_component_monitors")
          .values(sources.monitorIds.map((id) => ({ component_id: componentId, monitor_id: id })))
          .execute();
      if (sources.alertRuleIds.length > 0)
        await db
          .insertInto("status_page_component_rules")
          .values(sources.alertRuleIds.map((id) => ({ component_id: componentId, rule_id: id })))
          .execute();
    },
    /** Each component's sources with their names and projects, sorted by name then id. */
    async sourcesOf(componentIds: readonly string[]): Promise<Map<string, ComponentSources>> {
      const result = new Map<string, ComponentSources>();
      if (componentIds.length === 0) return result;
      const monitors = await db
        .selectFrom("status_page_component_monitors as l")
        .innerJoin("monitors as m", "m.id", "l.monitor_id")
        .select(["l.component_id", "m.id", "m.name", "m.project_id"])
        .where("l.component_id", "in", componentIds)
        .orderBy("m.name")
        .orderBy("m.id")
        .execute();
      const rules = await db
        .selectFrom("status_page_component_rules as l")
        .innerJoin("alert_rules as r", "r.id", "l.rule_id")
        .select(["l.component_id", "r.id", "r.name", "r.project_id"])
        .where("l.component_id", "in", componentIds)
        .orderBy("r.name")
        .orderBy("r.id")
        .execute();
      const entry = (id: string): ComponentSources => {
        const found = result.get(id) ?? { monitors: [], alertRules: [] };
        result.set(id, found);
        return found;
      };
      for (const m of monitors)
        entry(m.component_id).monitors.push({ id: m.id, name: m.name, projectId: m.project_id });
      for (const r of rules)
        entry(r.component_id).alertRules.push({ id: r.id, name: r.name, projectId: r.project_id });
      return result;
    },
    /** Which of these monitors belong to a project of the organization. */
    async orgMonitorIds(orgId: string, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom("monitors")
        .innerJoin("projects", "projects.id", "monitors.project_id")
        .select("monitors.id")
        .where("projects.org_id", "=", orgId)
        .where("monitors.id", "in", ids)
        .execute();
      return new Set(rows.map((r) => r.id));
    },
    /** Which of these alert rules belong to a project of the organization. */
    async orgRuleIds(orgId: string, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom("alert_rules")
        .innerJoin("projects", "projects.id", "alert_rules.project_id")
        .select("alert_rules.id")
        .where("projects.org_id", "=", orgId)
        .where("alert_rules.id", "in", ids)
        .execute();
      return new Set(rows.map((r) => r.id));
    },
  };
}
export type StatusPageRepository = ReturnType<typeof createStatusPageRepository>;
