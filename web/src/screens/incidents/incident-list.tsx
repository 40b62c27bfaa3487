import { useCallback, useId } from "react";
import { Link } from "wouter";
import { canWrite } from "../../api/session";
import { Empty, QueryView } from "../../components/feedback";
import { Drawer, PageHeader } from "../../components/ui";
import { formatDuration, formatRelative, formatTime } from "../../lib/format";
import { useUrlParams } from "../../lib/url-state";
import { useProject } from "../project-context";
import {
  type Incident,
  incidentDuration,
  SEVERITIES,
  SOURCE_LABEL,
  SOURCES,
  STATUSES,
  useIncidents,
  useIncidentsDashboard,
} from "./api";
import { SeverityBadge, SourceLink, StatusBadge } from "./badges";
import { DeclareForm } from "./declare-form";

const PAGE_SIZE = 25;
const SORTS = [
  { key: "started_at", label: "Newest first" },
  { key: "severity", label: "Most severe first" },
  { key: "duration", label: "Longest first" },
] as const;

/** `/incidents`: every incident of the project, filtered and sorted from the URL. */
export function IncidentList() {
  const { projectId, role } = useProject();
  const [params, set] = useUrlParams();
  const status = params.get("status") ?? "";
  const severity = params.get("severity") ?? "";
  const source = params.get("source") ?? "";
  const sort = params.get("sort") ?? "started_at";
  const page = Math.max(1, Number(params.get("page") ?? 1) || 1);
  const incidents = useIncidents(projectId, {
    status: status || undefined,
    severity: severity || undefined,
    source: source || undefined,
    sort_by: sort,
    sort_order: "desc",
    page,
    limit: PAGE_SIZE,
  });
  const declaring = params.get("declare") === "1";
  const closeDeclare = useCallback(() => set({ declare: undefined }), [set]);
  const filter = (change: Record<string, string>) => set({ ...change, page: undefined });
  const filtered = Boolean(status || severity || source);
  return (
    <>
      <PageHeader
        title="Incidents"
        actions={
          canWrite(role) && (
            <button type="button" className="button primary" onClick={() => set({ declare: "1" })}>
              Declare incident
            </button>
          )
        }
      >
        <p className="muted">
          Outages of monitors, alert rules that open incidents, and incidents declared by hand.
        </p>
      </PageHeader>
      <Summary projectId={projectId} />
      <search className="toolbar" aria-label="Filter incidents">
        <Select
          label="Status"
          value={status}
          onChange={(v) => filter({ status: v })}
          options={STATUSES}
        />
        <Select
          label="Severity"
          value={severity}
          onChange={(v) => filter({ severity: v })}
          options={SEVERITIES}
        />
        <Select
          label="Source"
          value={source}
          onChange={(v) => filter({ source: v })}
          options={SOURCES}
          labels={SOURCE_LABEL}
        />
        <Select
          label="Sort"
          value={sort}
          onChange={(v) => filter({ sort: v })}
          options={SORTS.map((s) => s.key)}
          labels={Object.fromEntries(SORTS.map((s) => [s.key, s.label]))}
          all={false}
        />
        {filtered && (
          <button
            type="button"
            className="button small"
            onClick={() => filter({ status: "", severity: "", source: "" })}
          >
            Clear filters
          </button>
        )}
      </search>
      <QueryView
        query={incidents}
        isEmpty={(list) => list.data.length === 0}
        empty={
          <Empty title={filtered ? "No incidents match these filters" : "No incidents"}>
            {filtered
              ? "Clear the filters to see every incident."
              : "Monitor outages and alert rules that open incidents will show here; you can also declare one."}
          </Empty>
        }
      >
        {(list) => (
          <>
            <IncidentTable incidents={list.data} />
            <nav className="inc-pager" aria-label="Pages">
              <span className="muted">
                {list.pagination.total} incident{list.pagination.total === 1 ? "" : "s"} · page{" "}
                {list.pagination.page} of {Math.max(1, list.pagination.totalPages)}
              </span>
              <button
                type="button"
                className="button small"
                disabled={page <= 1}
                onClick={() => set({ page: page - 1 > 1 ? page - 1 : undefined })}
              >
                Previous
              </button>
              <button
                type="button"
                className="button small"
                disabled={!list.pagination.hasMore}
                onClick={() => set({ page: page + 1 })}
              >
                Next
              </button>
            </nav>
          </>
        )}
      </QueryView>
      {declaring && canWrite(role) && (
        <Drawer title="Declare an incident" onClose={closeDeclare}>
          <DeclareForm />
        </Drawer>
      )}
    </>
  );
}

function Select<T extends string>({
  label,
  value,
  options,
  labels,
  all = true,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly T[];
  labels?: Partial<Record<T, string>>;
  /** Offer "All" (no filter) first. */
  all?: boolean;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <span className="inline-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {all && <option value="">All</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {labels?.[o] ?? o[0]?.toUpperCase() + o.slice(1)}
          </option>
        ))}
      </select>
    </span>
  );
}

function Summary({ projectId }: { projectId: string }) {
  const dashboard = useIncidentsDashboard(projectId, "30d");
  if (!dashboard.data) return null;
  const d = dashboard.data;
  return (
    <dl className="inc-summary" aria-label="Last 30 days">
      <div className="stat">
        <dt className="label">Open now</dt>
        <dd className="value">{d.open}</dd>
      </div>
      <div className="stat">
        <dt className="label">Opened (30 days)</dt>
        <dd className="value">{d.opened}</dd>
      </div>
      <div className="stat">
        <dt className="label">Resolved (30 days)</dt>
        <dd className="value">{d.resolved}</dd>
      </div>
      <div className="stat">
        <dt className="label">Mean time to resolve</dt>
        <dd className="value">{formatDuration(d.meanTimeToResolveMs)}</dd>
      </div>
    </dl>
  );
}

function IncidentTable({ incidents }: { incidents: Incident[] }) {
  const { projectId } = useProject();
  return (
    <div className="table-scroll">
      <table className="data">
        <thead>
          <tr>
            <th>Incident</th>
            <th>Status</th>
            <th>Severity</th>
            <th>Source</th>
            <th>Started</th>
            <th className="num">Duration</th>
          </tr>
        </thead>
        <tbody>
          {incidents.map((incident) => (
            <tr key={incident.id}>
              <td>
                <Link href={`/${incident.id}`}>{incident.title}</Link>
                {incident.cause && <div className="muted small inc-clamp">{incident.cause}</div>}
              </td>
              <td>
                <StatusBadge status={incident.status} />
              </td>
              <td>
                <SeverityBadge severity={incident.severity} />
              </td>
              <td>
                <SourceLink projectId={projectId} incident={incident} />
              </td>
              <td title={formatTime(incident.startedAt)}>{formatRelative(incident.startedAt)}</td>
              <td className="num">
                {formatDuration(incidentDuration(incident))}
                {incident.status === "active" && <span className="muted small"> so far</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
