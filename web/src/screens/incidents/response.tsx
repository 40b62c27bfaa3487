import type { IncidentDetailView } from "../../../../src/contracts/incidents";
import { api } from "../../api/client";
import { canWrite, useMe } from "../../api/session";
import { FormProblem, ProblemMessage } from "../../components/feedback";
import { RelativeTime } from "../../components/relative-time";
import { useProject } from "../project-context";
import { useIncidentWrite, useOrgMembers } from "./api";

// Responding to an incident: acknowledge it (once; escalation stops) and assign it to a member
// of the organization. Both are timeline entries and webhook events (docs/incidents.md).

/** Acknowledges the incident; shown while it is active and nobody acknowledged it. */
export function AcknowledgeButton({ incident }: { incident: IncidentDetailView }) {
  const { projectId } = useProject();
  const acknowledge = useIncidentWrite<void>(projectId, incident.id, (base) =>
    api(`${base}/acknowledge`, { method: "POST", body: {} }),
  );
  if (incident.status !== "active" || incident.acknowledgedAt !== null) return null;
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={acknowledge.isPending}
        onClick={() => acknowledge.mutate()}
      >
        {acknowledge.isPending ? "Acknowledging…" : "Acknowledge"}
      </button>
      {acknowledge.isError && (
        <ProblemMessage error={acknowledge.error} title="Could not acknowledge" />
      )}
    </>
  );
}

/** Who acknowledged it, in words: you, a member's name, or the channel whose link was used. */
function acknowledger(incident: IncidentDetailView, myId: string | undefined): string {
  const by = incident.acknowledgedBy;
  if (!by) return "someone";
  if (by.kind === "user") return by.id === myId ? "you" : (by.label ?? "a member");
  if (by.kind === "link") return `a link sent by ${by.label ?? "a channel"}`;
  return "the operator";
}

/** The response card: acknowledged or not, and the assignee picker. */
export function ResponseCard({ incident }: { incident: IncidentDetailView }) {
  const { projectId, orgId, role } = useProject();
  const me = useMe();
  const writer = canWrite(role);
  const members = useOrgMembers(orgId);
  const assign = useIncidentWrite<string | null>(projectId, incident.id, (base, assigneeId) =>
    api(`${base}/assignee`, { method: "PUT", body: { assigneeId } }),
  );
  const list = members.data?.data ?? [];
  const assignee = list.find((m) => m.userId === incident.assigneeId);
  return (
    <section className="card" aria-labelledby="inc-response-title">
      <h2 id="inc-response-title">Response</h2>
      <p className="inc-ack">
        {incident.acknowledgedAt ? (
          <>
            <span className="badge badge-info">Acknowledged</span> by{" "}
            {acknowledger(incident, me.data?.user.id)} <RelativeTime at={incident.acknowledgedAt} />
          </>
        ) : (
          <span className="muted">
            {incident.status === "active" ? "Not acknowledged yet" : "Never acknowledged"}
          </span>
        )}
      </p>
      {writer ? (
        <label className="field">
          <span>Assignee</span>
          <select
            name="assigneeId"
            value={incident.assigneeId ?? ""}
            disabled={assign.isPending || members.isLoading}
            onChange={(e) => assign.mutate(e.target.value === "" ? null : e.target.value)}
          >
            <option value="">Nobody</option>
            {incident.assigneeId && !assignee && (
              <option value={incident.assigneeId}>{incident.assigneeId} (not a member now)</option>
            )}
            {list.map((m) => (
              <option key={m.userId} value={m.userId}>
                {m.name} ({m.email})
              </option>
            ))}
          </select>
        </label>
      ) : (
        <p>Assignee: {assignee ? assignee.name : (incident.assigneeId ?? "nobody")}</p>
      )}
      <FormProblem error={assign.error} fields={["assigneeId"]} />
    </section>
  );
}
