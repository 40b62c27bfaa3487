import type { MetaAccess } from "../meta/meta-store.js";
import type { IncidentRecord } from "../meta/repositories/incidents.js";

/**
 * The names of the monitors and alert rules that opened these incidents, by id, read in one
 * query per kind: a view names its source as people know it, not by its id. A deleted source
 * has no name.
 */
export async function sourceNames(
  meta: MetaAccess,
  incidents: readonly IncidentRecord[],
): Promise<Map<string, string>> {
  const ids = (source: IncidentRecord["source"]) => [
    ...new Set(incidents.flatMap((i) => (i.source === source && i.sourceId ? [i.sourceId] : []))),
  ];
  const [monitors, rules] = await Promise.all([
    meta.repos.monitors.namesByIds(ids("monitor")),
    meta.repos.alertRules.namesByIds(ids("alert")),
  ]);
  return new Map([...monitors, ...rules].map((r) => [r.id, r.name]));
}
