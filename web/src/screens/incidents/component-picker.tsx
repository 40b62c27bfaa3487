import { Loading, ProblemMessage } from "../../components/feedback";
import { FieldGroup, toggled } from "../../components/field-group";
import { StateBadge } from "../../components/ui";
import { useOrgComponents } from "../status-pages/api";

/**
 * Status page components of the organization an incident affects, grouped by page: linking
 * puts the incident (and its public updates) on those pages, and its severity sets their state.
 */
export function ComponentPicker({
  orgId,
  selected,
  onChange,
  error,
}: {
  orgId: string;
  selected: readonly string[];
  onChange: (ids: string[]) => void;
  error: unknown;
}) {
  const components = useOrgComponents(orgId);
  return (
    <FieldGroup legend="Affected status page components" name="componentIds" error={error}>
      {components.isPending && <Loading label="Loading status pages…" />}
      {components.isError && <ProblemMessage error={components.error} />}
      {components.data?.length === 0 && (
        <p className="muted small">The organization has no status page components yet.</p>
      )}
      {components.data &&
        [...new Set(components.data.map((c) => c.pageId))].map((pageId) => {
          const onPage = components.data.filter((c) => c.pageId === pageId);
          return (
            <div key={pageId} className="inc-component-page">
              <div className="muted small">{onPage[0]?.pageTitle}</div>
              {onPage.map((c) => (
                <label key={c.id} className="inc-check">
                  <input
                    type="checkbox"
                    checked={selected.includes(c.id)}
                    onChange={(e) => onChange(toggled(selected, c.id, e.target.checked))}
                  />
                  <span>{c.name}</span> <StateBadge state={c.status} />
                </label>
              ))}
            </div>
          );
        })}
    </FieldGroup>
  );
}
