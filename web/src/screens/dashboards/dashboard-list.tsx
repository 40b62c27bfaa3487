import { useState } from "react";
import { Link } from "wouter";
import type { DashboardSummary } from "../../../../src/contracts/dashboards";
import { canWrite } from "../../api/session";
import { ConfirmButton } from "../../components/confirm-button";
import { DataTable } from "../../components/data-table";
import { ProblemMessage, QueryView } from "../../components/feedback";
import { FilterToolbar, NoMatches, useListFilters } from "../../components/list-filters";
import { RelativeTime } from "../../components/relative-time";
import { PageHeader } from "../../components/ui";
import { useProject } from "../project-context";
import {
  downloadDashboard,
  useDashboards,
  useDeleteDashboard,
  useDuplicateDashboard,
} from "./dashboards-api";
import { ImportDashboard, NewDashboard } from "./new-dashboard";
import { StarButton } from "./star-button";
import { TemplateGallery } from "./template-gallery";

/** Starred first, then by title. */
const byStarThenTitle = (a: DashboardSummary, b: DashboardSummary) =>
  Number(b.starred) - Number(a.starred) || a.title.localeCompare(b.title);

type Opened = "new" | "import" | null;

/** `/dashboards`: the project's dashboards (search and tag in the URL), and the templates. */
export function DashboardList() {
  const { projectId, role } = useProject();
  const writable = canWrite(role);
  const filters = useListFilters(["q", "tag"] as const);
  const { q, tag } = filters.values;
  const dashboards = useDashboards(projectId, q);
  const [opened, setOpened] = useState<Opened>(null);
  const toggle = (which: Exclude<Opened, null>) => setOpened(opened === which ? null : which);
  const tags = [...new Set((dashboards.data ?? []).flatMap((d) => d.tags))].sort();
  // The words are the server's to match (title or tag); the tag chips filter what it answered.
  const matches = (d: DashboardSummary) => !tag || d.tags.includes(tag);
  return (
    <>
      <PageHeader
        title="Dashboards"
        actions={
          writable && (
            <>
              <button
                type="button"
                className={`button${opened === "import" ? " primary" : ""}`}
                aria-expanded={opened === "import"}
                onClick={() => toggle("import")}
              >
                Import
              </button>
              <button
                type="button"
                className="button primary"
                aria-expanded={opened === "new"}
                onClick={() => toggle("new")}
              >
                New dashboard
              </button>
            </>
          )
        }
      >
        <p className="muted small">
          Panels of TQL queries on one grid, with a shared time range and variables.
        </p>
      </PageHeader>
      {opened === "new" && <NewDashboard onCancel={() => setOpened(null)} />}
      {opened === "import" && <ImportDashboard onCancel={() => setOpened(null)} />}
      <FilterToolbar
        filters={filters}
        search={{ key: "q", placeholder: "Words in the title or a tag" }}
        selects={[]}
      />
      {tags.length > 0 && (
        <fieldset className="dsh-chips">
          <legend className="visually-hidden">Filter by tag</legend>
          {tags.map((t) => (
            <button
              key={t}
              type="button"
              className={`dsh-chip${t === tag ? " active" : ""}`}
              aria-pressed={t === tag}
              onClick={() => filters.set({ tag: t === tag ? undefined : t })}
            >
              {t}
            </button>
          ))}
        </fieldset>
      )}
      <QueryView
        query={dashboards}
        isEmpty={(data) => data.length === 0 && !q}
        empty={
          <p className="muted">
            No dashboards yet.{" "}
            {writable ? "Start from a template below, or create or import one." : ""}
          </p>
        }
      >
        {(data) => {
          const rows = data.filter(matches).sort(byStarThenTitle);
          if (rows.length === 0) return <NoMatches title="No dashboard matches these filters" />;
          return (
            <DataTable
              columns={[
                { label: "Starred", hidden: true },
                "Title",
                "Tags",
                { label: "Panels", num: true },
                "Updated",
                { label: "Actions", hidden: true },
              ]}
              caption={
                <>
                  {rows.length} of {data.length} dashboards
                </>
              }
              className="dsh-table"
            >
              {rows.map((d) => (
                <DashboardRow key={d.id} dashboard={d} writable={writable} />
              ))}
            </DataTable>
          );
        }}
      </QueryView>
      <TemplateGallery />
    </>
  );
}

function DashboardRow({
  dashboard: d,
  writable,
}: {
  dashboard: DashboardSummary;
  writable: boolean;
}) {
  const { projectId } = useProject();
  const duplicate = useDuplicateDashboard(projectId);
  const remove = useDeleteDashboard(projectId);
  const [exportError, setExportError] = useState<unknown>(null);
  const error = duplicate.error ?? remove.error ?? exportError;
  return (
    <tr>
      <td>
        <StarButton projectId={projectId} id={d.id} starred={d.starred} title={d.title} />
      </td>
      <td>
        <Link href={`/${d.id}`}>{d.title}</Link>
        {d.description && <div className="muted small">{d.description}</div>}
        {error !== null && <ProblemMessage error={error} />}
      </td>
      <td>
        {d.tags.map((t) => (
          <span key={t} className="dsh-tag">
            {t}
          </span>
        ))}
      </td>
      <td className="num">{d.panelCount}</td>
      <td>
        <RelativeTime at={d.updatedAt} />
      </td>
      <td className="dsh-row-actions">
        <Link href={`/${d.id}`} className="button small">
          Open
        </Link>
        <button
          type="button"
          className="button small"
          aria-label={`Export ${d.title}`}
          onClick={() => {
            setExportError(null);
            downloadDashboard(projectId, d.id).catch(setExportError);
          }}
        >
          Export
        </button>
        {writable && (
          <>
            <button
              type="button"
              className="button small"
              aria-label={`Duplicate ${d.title}`}
              disabled={duplicate.isPending}
              onClick={() => duplicate.mutate({ id: d.id })}
            >
              Duplicate
            </button>
            <ConfirmButton
              label="Delete"
              question={`Deletes “${d.title}” for everyone in the project.`}
              confirmLabel="Delete dashboard"
              accessibleName={`Delete ${d.title}`}
              pending={remove.isPending}
              onConfirm={() => remove.mutate(d.id)}
            />
          </>
        )}
      </td>
    </tr>
  );
}
