import type { Kysely } from "kysely";
import type { MetaSchema } from "../schema.js";

// Incidents linked by hand to status page components (status_page_incident_components): an
// incident opened by a person shows on the components it names.

export function createStatusPageIncidentLinkRepository(db: Kysely<MetaSchema>) {
  return {
    /** The components an incident is linked to by hand, in id order. */
    async linkedComponents(incidentId: string): Promise<string[]> {
      const rows = await db
        .selectFrom("status_page_incident_components")
        .select("component_id")
        .where("incident_id", "=", incidentId)
        .orderBy("component_id")
        .execute();
      return rows.map((r) => r.component_id);
    },

    /** The incidents' hand-made links, by incident. */
    async linksOfIncidents(incidentIds: readonly string[]): Promise<Map<string, string[]>> {
      const links = new Map<string, string[]>();
      if (incidentIds.length === 0) return links;
      const rows = await db
        .selectFrom("status_page_incident_components")
        .select(["incident_id", "component_id"])
        .where("incident_id", "in", incidentIds)
        .execute();
      for (const r of rows)
        links.set(r.incident_id, [...(links.get(r.incident_id) ?? []), r.component_id]);
      return links;
    },

    /** Replaces the components an incident is linked to. */
    async linkIncident(incidentId: string, componentIds: readonly string[]): Promise<void> {
      await db
        .deleteFrom("status_page_incident_components")
        .where("incident_id", "=", incidentId)
        .execute();
      if (componentIds.length > 0)
        await db
          .insertInto("status_page_incident_components")
          .values(componentIds.map((c) => ({ incident_id: incidentId, component_id: c })))
          .execute();
    },

    /** Which of these components are on a page of the organization. */
    async orgComponentIds(orgId: string, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom("status_page_components as c")
        .innerJoin("status_pages as p", "p.id", "c.page_id")
        .select("c.id")
        .where("p.org_id", "=", orgId)
        .where("c.id", "in", ids)
        .execute();
      return new Set(rows.map((r) => r.id));
    },
  };
}
export type StatusPageIncidentLinkRepository = ReturnType<
  typeof createStatusPageIncidentLinkRepository
>;
