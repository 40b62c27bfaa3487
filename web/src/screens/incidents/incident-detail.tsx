import { type FormEvent, useState } from "react";
import { Link, useParams } from "wouter";
import type { IncidentDetailView } from "../../../../src/contracts/incidents";
import { api } from "../../api/client";
import { canManage, canWrite } from "../../api/session";
import { FormProblem, ProblemMessage, QueryView } from "../../components/feedback";
import { TextField } from "../../components/text-field";
import { PageHeader } from "../../components/ui";
import { formatDuration, formatTime } from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { useProject } from "../project-context";
import { useOrgComponents } from "../status-pages/api";
import {
  currentPhase,
  incidentDuration,
  type Severity,
  useIncident,
  useIncidentWrite,
} from "./api";
import { SeverityBadge, SourceLink, StatusBadge } from "./badges";
import { ComponentPicker } from "./component-picker";
import { AcknowledgeButton, ResponseCard } from "./response";
import { SeverityField } from "./severity-field";
import { Timeline } from "./timeline";
import { UpdateForm } from "./update-form";

/** `/incidents/:incidentId`: the incident, its timeline, and what the team can do about it. */
export function IncidentDetailScreen() {
  const { incidentId = "" } = useParams<{ incidentId: string }>();
  const { projectId } = useProject();
  const incident = useIncident(projectId, incidentId);
  return (
    <>
      <nav aria-label="Breadcrumb" className="inc-crumbs">
        <Link href={`~${projectPath(projectId, "incidents")}`}>Incidents</Link>
      </nav>
      <QueryView query={incident} loadingLabel="Loading the incident…">
        {(data) => <Detail incident={data} />}
      </QueryView>
    </>
  );
}

function Detail({ incident }: { incident: IncidentDetailView }) {
  const { projectId, role } = useProject();
  const writer = canWrite(role);
  const resolve = useIncidentWrite<void>(projectId, incident.id, (base) =>
    api(`${base}/resolve`, { method: "POST", body: {} }),
  );
  const reopen = useIncidentWrite<void>(projectId, incident.id, (base) =>
    api(`${base}/reopen`, { method: "POST", body: {} }),
  );
  const phase = currentPhase(incident);
  return (
    <>
      <PageHeader
        title={incident.title}
        actions={
          writer &&
          (incident.status === "active" ? (
            <>
              <AcknowledgeButton incident={incident} />{" "}
              <button
                type="button"
                className="button primary"
                disabled={resolve.isPending}
                onClick={() => resolve.mutate()}
              >
                {resolve.isPending ? "Resolving…" : "Resolve incident"}
              </button>
            </>
          ) : (
            <button
              type="button"
              className="button"
              disabled={reopen.isPending}
              onClick={() => reopen.mutate()}
            >
              {reopen.isPending ? "Reopening…" : "Reopen"}
            </button>
          ))
        }
      >
        <p className="inc-facts">
          <StatusBadge status={incident.status} />
          <SeverityBadge severity={incident.severity} />
          {phase && <span className="muted">Latest phase: {phase}</span>}
        </p>
      </PageHeader>
      {resolve.isError && <ProblemMessage error={resolve.error} title="Could not resolve" />}
      {reopen.isError && <ProblemMessage error={reopen.error} title="Could not reopen" />}
      <div className="inc-layout">
        <section className="inc-main" aria-labelledby="inc-timeline-title">
          <div className="card">
            <h2 id="inc-timeline-title">
              Timeline{" "}
              <span className="muted small">
                ({incident.timeline.length} entries, oldest first)
              </span>
            </h2>
            <Timeline events={incident.timeline} projectId={projectId} />
          </div>
          {writer && <UpdateForm key={incident.status} projectId={projectId} incident={incident} />}
        </section>
        <aside className="inc-side" aria-label="Details">
          <ResponseCard incident={incident} />
          <Facts incident={incident} />
          {writer && (
            <EditDetails key={`${incident.title}|${incident.severity}`} incident={incident} />
          )}
          <Components incident={incident} />
        </aside>
      </div>
    </>
  );
}

function Facts({ incident }: { incident: IncidentDetailView }) {
  const { projectId } = useProject();
  return (
    <div className="card">
      <h2>Facts</h2>
      <dl className="inc-kv">
        <dt>Source</dt>
        <dd>
          <SourceLink projectId={projectId} incident={incident} />
          {incident.sourceKey && <div className="muted small">series {incident.sourceKey}</div>}
        </dd>
        <dt>Started</dt>
        <dd>{formatTime(incident.startedAt)}</dd>
        <dt>Resolved</dt>
        <dd>{incident.resolvedAt ? formatTime(incident.resolvedAt) : "Not yet"}</dd>
        <dt>Duration</dt>
        <dd>
          {formatDuration(incidentDuration(incident))}
          {incident.status === "active" && " so far"}
        </dd>
        {incident.cause && (
          <>
            <dt>Cause</dt>
            <dd>{incident.cause}</dd>
          </>
        )}
        <dt>Public updates</dt>
        <dd>{incident.updates.length}</dd>
        <dt>Id</dt>
        <dd>
          <code>{incident.id}</code>
        </dd>
      </dl>
      {incident.source === "monitor" && incident.sourceId && (
        <Link href={`~${projectPath(projectId, "monitors", incident.sourceId)}`}>
          Open the monitor
        </Link>
      )}
      {incident.source === "alert" && incident.sourceId && (
        <Link href={`~${projectPath(projectId, "alerts", incident.sourceId)}`}>
          Open the alert rule
        </Link>
      )}
    </div>
  );
}

/** Rename or re-grade (PATCH): each change becomes a timeline entry. */
function EditDetails({ incident }: { incident: IncidentDetailView }) {
  const { projectId } = useProject();
  const [title, setTitle] = useState(incident.title);
  const [severity, setSeverity] = useState<Severity>(incident.severity);
  const save = useIncidentWrite<{ title: string; severity: Severity }>(
    projectId,
    incident.id,
    (base, input) => api(base, { method: "PATCH", body: input }),
  );
  const changed = title !== incident.title || severity !== incident.severity;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ title, severity });
  };
  return (
    <form className="card" onSubmit={submit} aria-label="Edit title and severity">
      <h2>Title and severity</h2>
      <TextField
        label="Title"
        name="title"
        error={save.error}
        value={title}
        required
        maxLength={200}
        onChange={setTitle}
      />
      <SeverityField value={severity} onChange={setSeverity} error={save.error} />
      <FormProblem error={save.error} fields={["title", "severity"]} />
      <button type="submit" className="button small" disabled={!changed || save.isPending}>
        Save
      </button>
    </form>
  );
}

/** The status page components it is linked to; owners and admins change them. */
function Components({ incident }: { incident: IncidentDetailView }) {
  const { projectId, orgId, role } = useProject();
  const manager = canManage(role);
  const all = useOrgComponents(orgId);
  const [editing, setEditing] = useState(false);
  const [selected, setSelected] = useState<string[]>(incident.componentIds);
  const save = useIncidentWrite<string[]>(projectId, incident.id, (base, componentIds) =>
    api(base, { method: "PATCH", body: { componentIds } }),
  );
  const name = (id: string) => {
    const c = all.data?.find((x) => x.id === id);
    return c ? `${c.pageTitle}: ${c.name}` : id;
  };
  return (
    <div className="card">
      <h2>Status pages</h2>
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(selected, { onSuccess: () => setEditing(false) });
          }}
          aria-label="Linked status page components"
        >
          <ComponentPicker
            orgId={orgId}
            selected={selected}
            onChange={setSelected}
            error={save.error}
          />
          <FormProblem error={save.error} fields={["componentIds"]} />
          <button type="submit" className="button small primary" disabled={save.isPending}>
            Save components
          </button>{" "}
          <button type="button" className="button small" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <>
          {incident.componentIds.length === 0 ? (
            <p className="muted small">
              Linked to no component
              {incident.source === "manual"
                ? ": no status page shows it."
                : " by hand; its source's components show it."}
            </p>
          ) : (
            <ul className="inc-linked">
              {incident.componentIds.map((id) => (
                <li key={id}>{name(id)}</li>
              ))}
            </ul>
          )}
          {manager && (
            <button
              type="button"
              className="button small"
              onClick={() => {
                setSelected(incident.componentIds);
                setEditing(true);
              }}
            >
              Change components
            </button>
          )}
        </>
      )}
    </div>
  );
}
