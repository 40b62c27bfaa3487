import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import { PANEL_TYPES, type Panel, type PanelType } from "../../../../src/contracts/dashboards";
import { ProblemMessage } from "../../components/feedback";
import { Drawer, Field } from "../../components/ui";
import { projectPath } from "../../lib/project-path";
import {
  getDashboard,
  isConflict,
  saveDashboard,
  useCreateDashboard,
  useDashboards,
} from "../dashboards/dashboards-api";
import { appendPanel } from "../dashboards/edit/grid-sections";
import { TYPE_LABELS } from "../dashboards/edit/panel-options";
import { missingVariables, panelTypeFor } from "./panel-from-query";
import { userPlaceholders, usesTimeWindow } from "./placeholders";
import type { TqlResult } from "./tql-api";

const NEW = "__new__";

/** What was added, for the "open it" links. */
interface Added {
  dashboardId: string;
  title: string;
  panelId: string;
}

/**
 * "Add to dashboard": the query as a new panel at the bottom of a dashboard (or of a new one),
 * with its title and type. The dashboard is read just before the save and saved on that
 * version; another save in between is read again once, so nobody's panels are overwritten.
 * Placeholders the dashboard has no variable for become text variables.
 */
export function AddToDashboard({
  projectId,
  query,
  result,
  typed,
  suggestedTitle,
  onClose,
}: {
  projectId: string;
  query: string;
  result: Pick<TqlResult, "columns">;
  typed: Readonly<Record<string, readonly string[]>>;
  suggestedTitle: string;
  onClose: () => void;
}) {
  const dashboards = useDashboards(projectId);
  const create = useCreateDashboard(projectId);
  const [target, setTarget] = useState("");
  const [newTitle, setNewTitle] = useState("");
  const [title, setTitle] = useState(suggestedTitle);
  const [type, setType] = useState<PanelType>(() => panelTypeFor(result));
  const placeholders = userPlaceholders(query);
  const panel: Omit<Panel, "gridPos"> = {
    title: title.trim(),
    type,
    queries: [{ refId: "A", tql: query }],
    unit: "none",
    thresholds: [],
    links: [],
    options: {},
  };
  const append = useMutation({
    mutationFn: async (dashboardId: string): Promise<Added> => {
      for (let attempt = 0; ; attempt++) {
        const current = await getDashboard(projectId, dashboardId);
        const next = appendPanel(current, panel);
        const variables = [
          ...current.variables,
          ...missingVariables(placeholders, current.variables, typed),
        ];
        try {
          const saved = await saveDashboard(projectId, dashboardId, {
            panels: next.panels,
            rows: next.rows,
            variables,
            version: current.version,
          });
          return { dashboardId, title: saved.title, panelId: next.panels.at(-1)?.id ?? "" };
        } catch (error) {
          if (!isConflict(error) || attempt >= 1) throw error;
        }
      }
    },
  });
  const chosen = target || dashboards.data?.[0]?.id || NEW;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen !== NEW) return append.mutate(chosen);
    const doc = appendPanel({ panels: [], rows: [] }, panel);
    create.mutate({
      title: newTitle.trim(),
      panels: doc.panels,
      variables: missingVariables(placeholders, [], typed),
    });
  };
  const added: Added | null =
    append.data ??
    (create.data
      ? {
          dashboardId: create.data.id,
          title: create.data.title,
          panelId: create.data.panels[0]?.id ?? "",
        }
      : null);
  const pending = append.isPending || create.isPending;
  const error = append.error ?? create.error;
  const dashboardsPath = (id: string, ...rest: string[]) =>
    `~${projectPath(projectId, "dashboards", id, ...rest)}`;

  if (added)
    return (
      <Drawer title="Add to dashboard" onClose={onClose}>
        <p role="status">
          Added “{panel.title || "the panel"}” at the bottom of <strong>{added.title}</strong>.
        </p>
        <div className="tql-row-actions">
          <Link href={dashboardsPath(added.dashboardId)} className="button primary">
            Open the dashboard
          </Link>
          <Link
            href={`${dashboardsPath(added.dashboardId, "edit")}?panel=${encodeURIComponent(added.panelId)}`}
            className="button"
          >
            Edit the panel
          </Link>
          <button type="button" className="button" onClick={onClose}>
            Stay here
          </button>
        </div>
      </Drawer>
    );
  return (
    <Drawer title="Add to dashboard" onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <Field label="Dashboard" name="dashboard">
          {(props) => (
            <select {...props} value={chosen} onChange={(e) => setTarget(e.target.value)}>
              {(dashboards.data ?? []).map((d) => (
                <option key={d.id} value={d.id}>
                  {d.title}
                </option>
              ))}
              <option value={NEW}>A new dashboard…</option>
            </select>
          )}
        </Field>
        {dashboards.isError && (
          <ProblemMessage error={dashboards.error} title="The dashboards did not load" />
        )}
        {chosen === NEW && (
          <Field label="New dashboard's title" name="title" error={create.error}>
            {(props) => (
              <input
                {...props}
                value={newTitle}
                maxLength={200}
                required
                onChange={(e) => setNewTitle(e.target.value)}
              />
            )}
          </Field>
        )}
        <Field label="Panel title" name="panels.0.title" error={error}>
          {(props) => (
            <input
              {...props}
              value={title}
              maxLength={200}
              onChange={(e) => setTitle(e.target.value)}
            />
          )}
        </Field>
        <Field label="Panel type" name="panels.0.type" error={error}>
          {(props) => (
            <select {...props} value={type} onChange={(e) => setType(e.target.value as PanelType)}>
              {PANEL_TYPES.filter((t) => t !== "text").map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {!usesTimeWindow(query) && (
          <p className="muted small" role="note">
            This query reads a window of its own: on the dashboard it will not follow the time
            picker. Write <code>WHERE $__timeFilter(timestamp)</code> to make it follow.
          </p>
        )}
        {placeholders.length > 0 && (
          <p className="muted small" role="note">
            Placeholders the dashboard has no variable for (
            {placeholders.map((p) => p.name).join(", ")}) become variables starting at the values
            typed here.
          </p>
        )}
        {error !== null && <ProblemMessage error={error} title="The panel was not added" />}
        <div className="tql-row-actions">
          <button
            type="submit"
            className="button primary"
            disabled={pending || dashboards.isPending || (chosen === NEW && !newTitle.trim())}
          >
            {pending ? "Adding…" : "Add panel"}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Drawer>
  );
}
