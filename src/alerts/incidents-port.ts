import type { DomainEvent } from "../events/event-bus.js";
import { mintAcknowledgeLinks } from "../incidents/ack-links.js";
import type { IncidentDeps, NewIncidentEvent } from "../incidents/incident-lifecycle.js";
import {
  appendIncidentEvent,
  type OpenSourceIncidentInput,
  openSourceIncident,
  resolveSourceIncident,
  type SourceEvent,
} from "../incidents/source-incidents.js";
import type { AppUrl } from "../lib/app-url.js";
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
  /**
   * One-click acknowledge links for a problem's notification, channel id → URL (empty when the
   * incident is resolved or acknowledged); absent when the app's address is not known.
   */
  acknowledgeLinks?(
    meta: MetaAccess,
    input: { incidentId: string; channelIds: readonly string[] },
  ): Promise<ReadonlyMap<string, string>>;
}

/**
 * The incidents module's verbs for alert rules (source `alert`, source id the rule's id); with
 * the app's public address, problems carry one-click acknowledge links.
 */
export function incidentVerbs(
  deps: IncidentDeps & { appUrl?: Pick<AppUrl, "link"> | undefined },
): AlertIncidents {
  const { appUrl } = deps;
  return {
    open: (meta, input) => openSourceIncident(meta, deps, { ...input, source: "alert" }),
    resolve: (meta, input) => resolveSourceIncident(meta, deps, { ...input, source: "alert" }),
    append: (meta, incidentId, event) => appendIncidentEvent(meta, deps, incidentId, event),
    ...(appUrl
      ? {
          acknowledgeLinks: (tx, input) =>
            mintAcknowledgeLinks({ tx, deps: { clock: deps.clock, appUrl }, ...input }),
        }
      : {}),
  };
}
