import type { AnonymousActor, Ctx, DomainDeps } from "../context.js";
import { nowIso } from "../context.js";
import type { Severity } from "../contracts/severity.js";
import type { MetaAccess } from "../meta/meta-store.js";
import {
  type IncidentAcknowledger,
  type IncidentRecord,
  isAcknowledged,
} from "../meta/repositories/incidents.js";
import { ACK_TOKEN_PATTERN, hashAckToken } from "./ack-links.js";
import { appendIncidentEvents, stopEscalationIn } from "./incident-lifecycle.js";
import { incidentAcknowledgedEvent } from "./incident-webhook-events.js";
import type { IncidentApiDeps } from "./incidents.js";

// What the public /ack/<token> page does (docs/incidents.md "Acknowledge from a notification"):
// reading a link shows its incident; using it acknowledges the incident, once. An unknown, used
// or expired token reads the same ("unavailable"), so the page tells nothing about any other.

/** What the link verbs need: the base deps and the incidents' webhooks. */
export type AckLinkCtx = Ctx<DomainDeps & { incidents: IncidentApiDeps }, AnonymousActor>;

/** What the page shows of the link's incident. */
export interface AckLinkIncident {
  title: string;
  severity: Severity;
  startedAt: string;
  projectName: string;
  /** The incident's screen in the dashboard (signing in is needed there). */
  dashboardPath: string;
}

/** What a link leads to: its incident and what acknowledging did, or nothing at all. */
export type AckLinkState =
  | { state: "unavailable" }
  | { state: "open"; incident: AckLinkIncident }
  /** Someone acknowledged it already (now, with this link, when `byThisLink`). */
  | {
      state: "acknowledged";
      incident: AckLinkIncident;
      acknowledgedAt: string;
      by: IncidentAcknowledger;
      byThisLink: boolean;
    }
  | { state: "resolved"; incident: AckLinkIncident; resolvedAt: string | null };

const UNAVAILABLE: AckLinkState = { state: "unavailable" };

/** The link's record when it can still be used at `now`; undefined otherwise. */
async function usableLink(meta: MetaAccess, token: string, now: string) {
  if (!ACK_TOKEN_PATTERN.test(token)) return undefined;
  const link = await meta.repos.incidentAckLinks.findByHash(hashAckToken(token));
  if (!link || link.usedAt !== null || link.expiresAt <= now) return undefined;
  return link;
}

async function shown(meta: MetaAccess, incident: IncidentRecord): Promise<AckLinkIncident> {
  const project = await meta.repos.projects.findById(incident.projectId);
  return {
    title: incident.title,
    severity: incident.severity,
    startedAt: incident.startedAt,
    projectName: project?.name ?? "",
    dashboardPath: `/projects/${encodeURIComponent(incident.projectId)}/incidents/${encodeURIComponent(incident.id)}`,
  };
}

/** The state an incident shows on its link's page (open, acknowledged or resolved). */
async function stateOf(
  meta: MetaAccess,
  incident: IncidentRecord,
  byThisLink = false,
): Promise<AckLinkState> {
  const view = await shown(meta, incident);
  if (incident.acknowledgedAt !== null && incident.acknowledgedBy !== null)
    return {
      state: "acknowledged",
      incident: view,
      acknowledgedAt: incident.acknowledgedAt,
      by: incident.acknowledgedBy,
      byThisLink,
    };
  if (incident.status === "resolved")
    return { state: "resolved", incident: view, resolvedAt: incident.resolvedAt };
  return { state: "open", incident: view };
}

/** What GET /ack/<token> shows; it never acknowledges (scanners prefetch links). */
export async function readAcknowledgeLink({
  ctx,
  token,
}: {
  ctx: AckLinkCtx;
  token: string;
}): Promise<AckLinkState> {
  const { meta } = ctx.deps;
  const link = await usableLink(meta, token, nowIso(ctx.deps));
  const incident = link && (await meta.repos.incidents.findById(link.incidentId));
  return incident ? stateOf(meta, incident) : UNAVAILABLE;
}

/**
 * Uses a link (POST /ack/<token>): the link is spent whatever it finds, and an active incident
 * nobody acknowledged yet is acknowledged by the link, named by what sent it ("Ops (email)"),
 * with a timeline entry and `incident.acknowledged`. Two clicks racing: one acknowledges, the
 * other finds the link used.
 */
export async function acknowledgeByLink({
  ctx,
  token,
}: {
  ctx: AckLinkCtx;
  token: string;
}): Promise<AckLinkState> {
  const { webhooks } = ctx.deps.incidents;
  const at = nowIso(ctx.deps);
  const { state, acknowledged } = await ctx.deps.meta.transaction(async (tx) => {
    const link = await usableLink(tx, token, at);
    if (!link || !(await tx.repos.incidentAckLinks.markUsed(link.tokenHash, at)))
      return { state: UNAVAILABLE, acknowledged: false };
    const incident = await tx.repos.incidents.findById(link.incidentId);
    if (!incident) return { state: UNAVAILABLE, acknowledged: false };
    if (incident.status !== "active" || isAcknowledged(incident))
      return { state: await stateOf(tx, incident), acknowledged: false };
    const by: IncidentAcknowledger = { kind: "link", id: link.channelId, label: link.viaLabel };
    if (!(await tx.repos.incidents.acknowledge(incident.id, { at, by }))) {
      const now = (await tx.repos.incidents.findById(incident.id)) ?? incident;
      return { state: await stateOf(tx, now), acknowledged: false };
    }
    await appendIncidentEvents(tx, ctx.deps, incident.id, [
      {
        type: "acknowledged",
        at,
        actor: { kind: "link", id: link.channelId },
        message: `Acknowledged from a link sent by ${link.viaLabel}`,
        data: { via: "link", channelId: link.channelId, label: link.viaLabel },
      },
    ]);
    await stopEscalationIn(tx, ctx.deps, incident.id, "acknowledged", at);
    const done = { ...incident, acknowledgedAt: at, acknowledgedBy: by, updatedAt: at };
    await webhooks.enqueueIn(tx, [incidentAcknowledgedEvent(done, { at, by })]);
    return { state: await stateOf(tx, done, true), acknowledged: true };
  });
  if (acknowledged) webhooks.kick();
  return state;
}
