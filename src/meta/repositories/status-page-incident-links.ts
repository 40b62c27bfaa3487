import type { Kysely } from "kysely";
import type { MetaSchema } from "../schema.js";
import { links } from "./links.js";

// Incidents linked by hand to status page components (status_page_incident_components): an
// incident opened by a person shows on the components it names.

export function createStatusPageIncidentLinkRepository(db: Kysely<MetaSchema>) {
  const linked = links(db, {
    table: "status_page_incident_components",
    owner: "incident_id",
    item: "component_id",
  });
  return {
    /** The components an incident is linked to by hand, in id order. */
    async linkedComponents(incidentId: string): Promise<string[]> {
      return (await linked.of([incidentId])).get(incidentId) ?? [];
    },
    /** The incidents' hand-made links, by incident. */
    linksOfIncidents: (incidentIds: readonly string[]) => linked.of(incidentIds),
    /** Replaces the components an incident is linked to. */
    linkIncident: (incidentId: string, componentIds: readonly string[]) =>
      linked.set(incidentId, componentIds),

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
