import type { AppUrl } from "../lib/app-url.js";
import type { SecretBox } from "../lib/secret-box.js";
import type { MetaAccess } from "../meta/meta-store.js";
import { firstDeadline, heartbeatTiming } from "./heartbeat-results.js";
import { mintPingToken, openPingToken, pingPath } from "./heartbeat-tokens.js";

// A heartbeat monitor's life beside the monitor's own (docs/heartbeats.md): its token is minted
// when it is created, its deadline cleared by a pause and set again by a resume or a new period,
// and its view shows the ping URL and the last ping. The monitor verbs call these in their
// transactions through the heartbeat kind (kinds/heartbeat.ts).

/** What the heartbeat parts of the monitor verbs need: the server key's box and the app's URL. */
export interface HeartbeatKindDeps {
  secretBox: SecretBox;
  appUrl: AppUrl;
}

/** What a heartbeat adds to its monitor's view. */
export interface HeartbeatViewFields {
  /** Absent when the token cannot be opened (no server key here, or it changed). */
  pingUrl?: string;
  lastPingAt: string | null;
}

/** A new heartbeat monitor: its token, and a first deadline a period and the grace from now. */
export async function createHeartbeat(
  tx: MetaAccess,
  deps: Pick<HeartbeatKindDeps, "secretBox">,
  monitor: { id: string; definition: unknown; createdAt: string; active: boolean },
): Promise<void> {
  const { tokenHash, tokenSealed } = mintPingToken(deps.secretBox);
  const timing = heartbeatTiming(monitor.definition);
  await tx.repos.heartbeats.insert({
    monitorId: monitor.id,
    tokenHash,
    tokenSealed,
    lastPingAt: null,
    startedAt: null,
    nextDeadlineAt: monitor.active ? firstDeadline(Date.parse(monitor.createdAt), timing) : null,
    createdAt: monitor.createdAt,
  });
}

/** A pause: no deadline while paused (the watcher skips it, pings are ignored). */
export async function pauseHeartbeat(tx: MetaAccess, monitorId: string): Promise<void> {
  await tx.repos.heartbeats.setDeadline(monitorId, null);
}

/** A resume: the heartbeat waits a whole period and the grace from now, as when it was created. */
export async function resumeHeartbeat(
  tx: MetaAccess,
  monitor: { id: string; definition: unknown },
  at: string,
): Promise<void> {
  await tx.repos.heartbeats.setDeadline(
    monitor.id,
    firstDeadline(Date.parse(at), heartbeatTiming(monitor.definition)),
  );
}

/**
 * An edit of an active heartbeat: with a new period or grace, the deadline is counted again from
 * the last ping (or from now when none came yet); an edit of other fields keeps it.
 */
export async function editHeartbeat(
  tx: MetaAccess,
  monitor: { id: string; before: unknown; after: unknown; active: boolean },
  at: string,
): Promise<void> {
  const before = heartbeatTiming(monitor.before);
  const after = heartbeatTiming(monitor.after);
  if (!monitor.active) return;
  if (before.periodMs === after.periodMs && before.graceMs === after.graceMs) return;
  const heartbeat = await tx.repos.heartbeats.findByMonitorId(monitor.id);
  if (!heartbeat) return;
  const from = Date.parse(heartbeat.lastPingAt ?? at);
  await tx.repos.heartbeats.setDeadline(monitor.id, firstDeadline(from, after));
}

/** The ping URL and last ping of each heartbeat monitor among `monitorIds` (one query). */
export async function heartbeatViewFields(
  meta: MetaAccess,
  deps: { secretBox: SecretBox | undefined; appUrl: AppUrl },
  monitorIds: readonly string[],
): Promise<Map<string, HeartbeatViewFields>> {
  const out = new Map<string, HeartbeatViewFields>();
  if (monitorIds.length === 0) return out;
  for (const heartbeat of await meta.repos.heartbeats.findByMonitorIds(monitorIds)) {
    const token = deps.secretBox && openPingToken(deps.secretBox, heartbeat.tokenSealed);
    out.set(heartbeat.monitorId, {
      ...(token ? { pingUrl: deps.appUrl.link(pingPath(token)) } : {}),
      lastPingAt: heartbeat.lastPingAt,
    });
  }
  return out;
}
