import type { PublicIncident, StatusPageData } from "../contracts/status-page-data.js";
import type { SubscriberEvent } from "../contracts/status-page-subscribers.js";
import type { MaintenancePhase } from "../contracts/status-pages.js";
import type { StatusPageMaintenanceRecord } from "../meta/repositories/status-page-maintenances.js";
import { phaseAt } from "./maintenance-phase.js";

// What changed on a public page since subscribers were last told, as a pure function of what was
// announced (the snapshot), when that was (`since`) and what the page shows now. Incidents come
// from the public payload (so only what the public sees is announced, with its public title);
// windows from the page's records, in their phase at `now`.

/** What was announced of a page: each incident's status and update ids, each window's phase. */
export interface PageSnapshot {
  i: Record<string, { s: "active" | "resolved"; u: string[]; t: string }>;
  m: Record<string, MaintenancePhase>;
}

/** A component as messages name it. */
export interface NamedComponent {
  id: string;
  name: string;
}

/** One announcement to the page's subscribers (of its components, for scoped ones). */
export type Announcement =
  | {
      event: Extract<SubscriberEvent, `incident.${string}`>;
      componentIds: string[];
      incident: Omit<PublicIncident, "componentIds" | "severity"> & {
        components: NamedComponent[];
      };
    }
  | {
      event: Extract<SubscriberEvent, `maintenance.${string}`>;
      componentIds: string[];
      maintenance: Pick<
        StatusPageMaintenanceRecord,
        "id" | "title" | "message" | "startsAt" | "endsAt" | "phase"
      > & { components: NamedComponent[] };
    };

/** Active incidents that left the page are remembered this long (they may come back). */
const FORGET_AFTER_MS = 90 * 86_400_000;

type MaintenanceEvent = Extract<SubscriberEvent, `maintenance.${string}`>;

const MAINTENANCE_EVENT: Record<MaintenancePhase, MaintenanceEvent> = {
  scheduled: "maintenance.scheduled",
  in_progress: "maintenance.started",
  completed: "maintenance.completed",
};

/** When a window's phase began: what the first look at a page compares with `since`. */
const phaseStart = (w: StatusPageMaintenanceRecord, phase: MaintenancePhase): string =>
  phase === "scheduled" ? w.createdAt : phase === "in_progress" ? w.startsAt : w.endsAt;

function incidentEvent(
  incident: PublicIncident,
  known: PageSnapshot["i"][string] | undefined,
  first: boolean,
  since: string,
):
  | {
      event: Extract<Announcement["event"], `incident.${string}`>;
      updates: PublicIncident["updates"];
    }
  | undefined {
  if (known === undefined) {
    const updates = incident.updates.filter((u) => u.at >= since);
    if (incident.status === "resolved")
      return incident.resolvedAt !== null && incident.resolvedAt >= since
        ? { event: "incident.resolved", updates }
        : undefined;
    // On a page already watched, a new open incident is news whenever it began; on the first
    // look, only what happened since watching started is.
    if (!first || incident.startedAt >= since) return { event: "incident.created", updates };
    return updates.length > 0 ? { event: "incident.updated", updates } : undefined;
  }
  const seen = new Set(known.u);
  const updates = incident.updates.filter((u) => !seen.has(u.id));
  if (known.s === "active" && incident.status === "resolved")
    return { event: "incident.resolved", updates };
  if (known.s === "resolved" && incident.status === "active")
    return { event: "incident.reopened", updates };
  return updates.length > 0 ? { event: "incident.updated", updates } : undefined;
}

/**
 * The announcements since the snapshot (`previous`, null on the first look at the page, when
 * only what happened at or after `since` counts) and the snapshot to keep.
 */
export function pageChanges(
  previous: PageSnapshot | null,
  since: string,
  data: Pick<StatusPageData, "incidents" | "services">,
  windows: readonly StatusPageMaintenanceRecord[],
  now: Date,
): { announcements: Announcement[]; snapshot: PageSnapshot } {
  const first = previous === null;
  const names = new Map(data.services.map((s) => [s.id, s.name]));
  const named = (ids: readonly string[]) =>
    ids.map((id) => ({ id, name: names.get(id) ?? "" })).filter((c) => c.name !== "");
  const announcements: Announcement[] = [];
  const snapshot: PageSnapshot = { i: {}, m: {} };

  for (const incident of data.incidents) {
    const change = incidentEvent(incident, previous?.i[incident.id], first, since);
    snapshot.i[incident.id] = {
      s: incident.status,
      u: incident.updates.map((u) => u.id),
      t: incident.startedAt,
    };
    if (!change) continue;
    const { componentIds, severity: _severity, ...rest } = incident;
    announcements.push({
      event: change.event,
      componentIds,
      incident: { ...rest, updates: change.updates, components: named(componentIds) },
    });
  }
  // An open incident off the page (its monitor paused, its link removed) is kept, so its return
  // is no new incident; past 90 days it is forgotten.
  const horizon = new Date(now.getTime() - FORGET_AFTER_MS).toISOString();
  for (const [id, known] of Object.entries(previous?.i ?? {}))
    if (!(id in snapshot.i) && known.s === "active" && known.t >= horizon) snapshot.i[id] = known;

  for (const w of windows) {
    const phase = phaseAt(w, now);
    snapshot.m[w.id] = phase;
    const known = previous?.m[w.id];
    if (known === phase) continue;
    // A window first seen already over (created and ended between two looks) is news only
    // when it ended since; on the first look, any phase is news only when it began since.
    const news =
      known !== undefined ||
      (first ? phaseStart(w, phase) >= since : phase !== "completed" || w.endsAt >= since);
    if (!news) continue;
    announcements.push({
      event: MAINTENANCE_EVENT[phase],
      componentIds: w.componentIds,
      maintenance: {
        id: w.id,
        title: w.title,
        message: w.message,
        startsAt: w.startsAt,
        endsAt: w.endsAt,
        phase,
        components: named(w.componentIds),
      },
    });
  }
  return { announcements, snapshot };
}

/** Whether a subscriber following these components hears of an announcement about those. */
export const followsAny = (following: readonly string[], about: readonly string[]): boolean =>
  following.length === 0 || about.some((id) => following.includes(id));

/** The snapshot stored as JSON text, read back; anything unreadable is a first look. */
export function readSnapshot(text: string | null): PageSnapshot | null {
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as Partial<PageSnapshot>;
    return { i: parsed.i ?? {}, m: parsed.m ?? {} };
  } catch {
    return null;
  }
}
