import type {
  IncidentDetailView,
  IncidentEventView,
  IncidentView,
} from "../contracts/incidents.js";
import type { IncidentEventRecord, IncidentRecord } from "../meta/repositories/incidents.js";

// Incidents and their timelines as the API shows them (the views are contracts/incidents.ts).

/** `names`: the monitors' and alert rules' names by id (see sourceNames). */
export const toIncidentView = (
  r: IncidentRecord,
  names: ReadonlyMap<string, string>,
): IncidentView => ({
  id: r.id,
  projectId: r.projectId,
  title: r.title,
  status: r.status,
  severity: r.severity,
  source: r.source,
  sourceId: r.sourceId,
  sourceName: (r.sourceId && names.get(r.sourceId)) ?? null,
  sourceKey: r.sourceKey,
  startedAt: r.startedAt,
  resolvedAt: r.resolvedAt,
  durationMs: r.durationMs,
  cause: r.cause,
  createdBy: r.createdBy,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  acknowledgedAt: r.acknowledgedAt,
  acknowledgedBy: r.acknowledgedBy,
  assigneeId: r.assigneeId,
});

export const toIncidentEventView = (e: IncidentEventRecord): IncidentEventView => ({
  id: e.id,
  type: e.type as IncidentEventView["type"],
  at: e.at,
  actor: { kind: e.actorKind, id: e.actorId },
  message: e.message,
  phase: e.phase as IncidentEventView["phase"],
  public: e.public,
  data: e.data,
});

export function toIncidentDetailView(
  incident: IncidentRecord,
  timeline: readonly IncidentEventRecord[],
  componentIds: readonly string[],
  names: ReadonlyMap<string, string>,
): IncidentDetailView {
  const events = timeline.map(toIncidentEventView);
  return {
    ...toIncidentView(incident, names),
    timeline: events,
    updates: events.filter((e) => e.public && e.type === "update"),
    componentIds: [...componentIds],
  };
}
