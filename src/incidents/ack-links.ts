import { randomBytes } from "node:crypto";
import { ACK_LINK_TTL_HOURS } from "../contracts/incident-catalog.js";
import type { AppUrl } from "../lib/app-url.js";
import type { Clock } from "../lib/clock.js";
import { sha256Hex } from "../lib/crypto.js";
import type { MetaAccess } from "../meta/meta-store.js";
import { isAcknowledged } from "../meta/repositories/incidents.js";

// One-click acknowledge links (docs/incidents.md "Acknowledge from a notification"): a problem
// notification (monitor.down, alert.fired, alert.renotified, an escalation step) carries a link
// to /ack/<token>. The token is 32 random bytes; only its SHA-256 is stored, with the incident,
// what sent it, its expiry and when it was used. Opening it shows the incident's title and one
// button (a GET never acknowledges: link scanners prefetch); the POST acknowledges, once.

/** What minting a link needs: the time and the app's public address. */
export interface AckLinkDeps {
  clock: Clock;
  appUrl: Pick<AppUrl, "link">;
}

/** What sent a link: the channel (its id, when one did) and how the timeline names it. */
export interface AckLinkVia {
  channelId: string | null;
  /** "Ops email (email)": the channel's name and type, or who else sent it. */
  label: string;
}

/** The public path of a link, before the token. */
export const ACK_LINK_PATH = "/ack/";

/** A token as it appears in a link: 32 random bytes, base64url (43 characters). */
export const ACK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const hashAckToken = (token: string): string => sha256Hex(`vigil-ack\n${token}`);

/**
 * Mints a one-click acknowledge link for an incident, inside the caller's transaction (the
 * notification that carries it is queued in the same one), and returns the absolute URL
 * (`${appUrl}/ack/<token>`). Undefined when the incident is gone, resolved or already
 * acknowledged: a link for it would do nothing. Expires after `ttlHours` (24 by default).
 * Escalation (src/escalation/) calls this for each step's channels.
 */
export async function mintAcknowledgeLink({
  tx,
  deps,
  incidentId,
  via,
  ttlHours = ACK_LINK_TTL_HOURS,
}: {
  tx: MetaAccess;
  deps: AckLinkDeps;
  incidentId: string;
  via: AckLinkVia;
  ttlHours?: number | undefined;
}): Promise<string | undefined> {
  const incident = await tx.repos.incidents.findById(incidentId);
  if (incident?.status !== "active" || isAcknowledged(incident)) return undefined;
  const now = deps.clock.now();
  const token = randomBytes(32).toString("base64url");
  // The incident's links that expired a day ago or more go as new ones come.
  await tx.repos.incidentAckLinks.deleteExpired(
    incidentId,
    new Date(now.getTime() - 24 * 3_600_000).toISOString(),
  );
  await tx.repos.incidentAckLinks.insert({
    tokenHash: hashAckToken(token),
    incidentId,
    channelId: via.channelId,
    viaLabel: via.label.slice(0, 200),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + ttlHours * 3_600_000).toISOString(),
    usedAt: null,
  });
  return deps.appUrl.link(`${ACK_LINK_PATH}${token}`);
}

/**
 * One link per channel a problem notification goes to (each recipient's click names its
 * channel on the timeline): channel id → URL; empty when the incident takes no links.
 */
export async function mintAcknowledgeLinks({
  tx,
  deps,
  incidentId,
  channelIds,
}: {
  tx: MetaAccess;
  deps: AckLinkDeps;
  incidentId: string;
  channelIds: readonly string[];
}): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  for (const channelId of new Set(channelIds)) {
    const channel = await tx.repos.notificationChannels.findById(channelId);
    const label = channel ? `${channel.name} (${channel.type})` : "a notification";
    const url = await mintAcknowledgeLink({
      tx,
      deps,
      incidentId,
      via: { channelId: channel ? channelId : null, label },
    });
    if (!url) return new Map();
    links.set(channelId, url);
  }
  return links;
}
