import { useCallback } from "react";
import { Link } from "wouter";
import type { IncidentView } from "../../../../src/contracts/incidents";
import { canWrite } from "../../api/session";
import { DataTable } from "../../components/data-table";
import { Empty, QueryView } from "../../components/feedback";
import {
  FilterSelect,
  FilterToolbar,
  NoMatches,
  useListFilters,
} from "../../components/list-filters";
import { Pager, usePageParam } from "../../components/pager";
import { RelativeTime } from "../../components/relative-time";
import { Drawer, PageHeader } from "../../components/ui";
import { capitalize, formatDuration } from "../../lib/format";
import { useUrlParams } from "../../lib/url-state";
import { useProject } from "../project-context";
import {
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
  const filters = useListFilters(["status", "severity", "source"] as const);
  const { status, severity, source } = filters.values;
  const sort = params.get("sort") ?? "started_at";
  const page = usePageParam();
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
      <FilterToolbar
        filters={filters}
        label="Filter incidents"
        selects={[
          { key: "status", label: "Status", any: "All", options: capitalized(STATUSES) },
          { key: "severity", label: "Severity", any: "All", options: capitalized(SEVERITIES) },
          { key: "source", label: "Source", any: "All", options: SOURCE_OPTIONS },
        ]}
      >
        <FilterSelect
          label="Sort"
          value={sort}
          any={false}
          options={SORTS}
          onChange={(v) => set({ sort: v, page: undefined })}
        />
      </FilterToolbar>
      <QueryView
        query={incidents}
        isEmpty={(list) => list.data.length === 0}
        empty={
          filters.active ? (
            <NoMatches title="No incidents match these filters">
              Clear the filters to see every incident.
            </NoMatches>
          ) : (
            <Empty title="No incidents">
              Monitor outages and alert rules that open incidents will show here; you can also
              declare one.
            </Empty>
          )
        }
      >
        {(list) => (
          <>
            <IncidentTable incidents={list.data} />
            <Pager pagination={list.pagination} noun={["incident", "incidents"]} />
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

const capitalized = (values: readonly string[]) =>
  values.map((key) => ({ key, label: capitalize(key) }));
const SOURCE_OPTIONS = SOURCES.map((key) => ({ key, label: SOURCE_LABEL[key] }));

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

function IncidentTable({ incidents }: { incidents: IncidentView[] }) {
  const { projectId } = useProject();
  return (
    <DataTable
      columns={[
        "Incident",
        "Status",
        "Severity",
        "Source",
        "Started",
        { label: "Duration", num: true },
      ]}
    >
      {incidents.map((incident) => (
        <tr key={incident.id}>
          <td>
            <Link href={`/${incident.id}`}>{incident.title}</Link>
            {incident.cause && <div className="muted small inc-clamp">{incident.cause}</div>}
          </td>
          <td>
            <StatusBadge status={incident.status} />
            {incident.status === "active" && incident.acknowledgedAt && (
              <>
                {" "}
                <span className="badge badge-info" title="Someone acknowledged it">
                  Acknowledged
                </span>
              </>
            )}
          </td>
          <td>
            <SeverityBadge severity={incident.severity} />
          </td>
          <td>
            <SourceLink projectId={projectId} incident={incident} />
          </td>
          <td>
            <RelativeTime at={incident.startedAt} />
          </td>
          <td className="num">
            {formatDuration(incidentDuration(incident))}
            {incident.status === "active" && <span className="muted small"> so far</span>}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
