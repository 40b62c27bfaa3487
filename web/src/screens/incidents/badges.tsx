import { Link } from "wouter";
import type { IncidentStatus } from "../../../../src/contracts/incident-catalog";
import type { IncidentView } from "../../../../src/contracts/incidents";
import { StateBadge } from "../../components/ui";
import { projectPath } from "../../lib/project-path";
import { type Severity, SOURCE_LABEL } from "./api";

const SEVERITY_TONE: Record<Severity, "bad" | "warn" | "info"> = {
  critical: "bad",
  high: "bad",
  medium: "warn",
  low: "info",
};

/** An incident's status: an active one is bad news, a resolved one good. */
export function StatusBadge({ status }: { status: IncidentStatus }) {
  return <StateBadge state={status} tone={status === "active" ? "bad" : "ok"} />;
}

export function SeverityBadge({ severity }: { severity: Severity }) {
  return <StateBadge state={severity} tone={SEVERITY_TONE[severity]} />;
}

/** Where an incident came from: its monitor or alert rule by name, linked to it. */
export function SourceLink({ projectId, incident }: { projectId: string; incident: IncidentView }) {
  const { source, sourceId, sourceName } = incident;
  if (source === "manual" || sourceId === null) return <span>{SOURCE_LABEL[source]}</span>;
  // A deleted source has no name and no page left to link to.
  if (sourceName === null) return <span>{SOURCE_LABEL[source]} (deleted)</span>;
  const area = source === "monitor" ? "monitors" : "alerts";
  return (
    <Link href={`~${projectPath(projectId, area, sourceId)}`}>
      {SOURCE_LABEL[source]} {sourceName}
    </Link>
  );
}
