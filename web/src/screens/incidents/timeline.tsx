import { Link } from "wouter";
import type { IncidentEventView } from "../../../../src/contracts/incidents";
import { useMe } from "../../api/session";
import { RelativeTime } from "../../components/relative-time";
import { StateBadge } from "../../components/ui";
import { projectPath } from "../../lib/project-path";

/** What each kind of entry is called, with the data it carries. */
function describe(event: IncidentEventView): string {
  const data = event.data;
  switch (event.type) {
    case "opened":
      return "Incident opened";
    case "update":
      return "Update";
    case "severity_changed":
      return `Severity changed from ${String(data.from ?? "?")} to ${String(data.to ?? "?")}`;
    case "title_changed":
      return "Renamed";
    case "alert_fired":
      return "Alert fired";
    case "alert_resolved":
      return "Alert resolved";
    case "monitor_down":
      return "Monitor down";
    case "monitor_recovered":
      return "Monitor recovered";
    case "notified": {
      const channels = Array.isArray(data.channelIds) ? data.channelIds.length : 0;
      return `Notified ${channels} channel${channels === 1 ? "" : "s"}${data.event ? ` (${String(data.event)})` : ""}`;
    }
    case "comment":
      return "Note";
    case "resolved":
      return "Resolved";
    case "reopened":
      return "Reopened";
    case "acknowledged":
      return "Acknowledged";
    case "assigned":
      return data.to ? `Assigned to ${String(data.toName ?? data.to)}` : "Unassigned";
    case "escalated":
      return `Escalated to step ${String(data.step ?? "?")} of ${String(data.steps ?? "?")}`;
    case "escalation_stopped":
      return "Escalation stopped";
    default:
      // A type this dashboard does not know yet (a newer server): its name, readable.
      return (event.type as string).replaceAll("_", " ");
  }
}

function Actor({ actor, projectId }: { actor: IncidentEventView["actor"]; projectId: string }) {
  const me = useMe();
  if (actor.kind === "user")
    return actor.id === me.data?.user.id ? (
      <span>you</span>
    ) : (
      <span>
        a member <code className="muted">{actor.id}</code>
      </span>
    );
  if (actor.kind === "monitor" && actor.id)
    return <Link href={`~${projectPath(projectId, "monitors", actor.id)}`}>its monitor</Link>;
  if (actor.kind === "alert" && actor.id)
    return <Link href={`~${projectPath(projectId, "alerts", actor.id)}`}>its alert rule</Link>;
  if (actor.kind === "link") return <span>a one-click link from a notification</span>;
  return <span>Vigil</span>;
}

/** Every entry of the incident, oldest first, each marked public (status pages) or private. */
export function Timeline({
  events,
  projectId,
}: {
  events: IncidentEventView[];
  projectId: string;
}) {
  return (
    <ol className="inc-timeline" aria-label="Timeline">
      {events.map((event) => (
        <li
          key={event.id}
          className={`inc-entry inc-${event.type}${event.public ? " inc-public" : ""}`}
        >
          <div className="inc-entry-head">
            <strong>{describe(event)}</strong>
            {event.phase && <StateBadge state={event.phase} />}
            {event.public ? (
              <span className="badge badge-info" title="Shown on status pages">
                Public
              </span>
            ) : (
              <span className="badge badge-muted" title="Only your team sees it">
                Private
              </span>
            )}
            <span className="muted small">
              by <Actor actor={event.actor} projectId={projectId} /> ·{" "}
              <RelativeTime at={event.at} />
            </span>
          </div>
          {event.message && event.type !== "severity_changed" && event.type !== "assigned" && (
            <p className="inc-message">{event.message}</p>
          )}
        </li>
      ))}
    </ol>
  );
}
