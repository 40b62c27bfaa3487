import type { DomainEvent } from "../events/event-bus.js";
import type { IncidentDeps, NewIncidentEvent } from "../incidents/incident-lifecycle.js";
import {
  appendIncidentEvent,
  type OpenSourceIncidentInput,
  openSourceIncident,
  resolveSourceIncident,
  type SourceEvent,
} from "../incidents/source-incidents.js";
import type { MetaAccess } from "../meta/meta-store.js";

/**
 * What alert evaluation asks of incidents, inside its own transaction (`meta` is tx-bound). A
 * port so the evaluator depends on the verbs' shape only; `incidentVerbs` binds the real ones.
 */
export interface AlertIncidents {
  open(
    meta: MetaAccess,
    input: Omit<OpenSourceIncidentInput, "source">,
  ): Promise<{ incident: { id: string }; created: boolean; events: DomainEvent[] }>;
  resolve(
    meta: MetaAccess,
    input: { sourceId: string; at: string; event: SourceEvent },
  ): Promise<{ incident: { id: string }; events: DomainEvent[] } | undefined>;
  append(meta: MetaAccess, incidentId: string, event: NewIncidentEvent): Promise<void>;
}

/** The incidents module's verbs for alert rules (source `alert`, source id the rule's id). */
export function incidentVerbs(deps: IncidentDeps): AlertIncidents {
  return {
    open: (meta, input) => openSourceIncident(meta, deps, { ...input, source: "alert" }),
    resolve: (meta, input) => resolveSourceIncident(meta, deps, { ...input, source: "alert" }),
    append: (meta, incidentId, event) => appendIncidentEvent(meta, deps, incidentId, event),
  };
}
