import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { Link } from "wouter";
import {
  DashboardBody,
  type DashboardVariable,
  type DashboardView,
} from "../../../../../src/contracts/dashboards";
import { PageHeader, TimeRangePicker } from "../../../components/ui";
import { useChartZoom } from "../../../lib/time-range";
import { useUrlParams } from "../../../lib/url-state";
import { useAutoRefresh, useDashboardRange, useDashboardVariables } from "../dashboard-state";
import {
  dashboardKeys,
  getDashboard,
  toTimeRangeSetting,
  useSaveDashboard,
} from "../dashboards-api";
import type { PanelScope } from "../panel-frame";
import { VariableBar } from "../variable-bar";
import {
  type DashboardDraft,
  sameDraft,
  storeDraft,
  storedDraft,
  toDraft,
  toSaveInput,
  upsertPanel,
} from "./dashboard-draft";
import { EditGrid, type EditGridActions } from "./edit-grid";
import { addRow, duplicatePanel, removePanel, removeRow, updateRow } from "./grid-sections";
import { PanelEditor } from "./panel-editor";
import type { EditedPanel } from "./panel-options";
import { RestoreDraft, SaveProblem } from "./save-status";
import { SettingsDrawer } from "./settings-drawer";
import { newPanel } from "./starter-queries";
import { useUnsavedGuard } from "./unsaved-guard";
import { VariableEditor } from "./variable-editor";
import { followRenames } from "./variable-edits";
import "../../../styles/dashboards-edit.css";
// The TQL editor's highlighting colours and row actions.
import "../../tql/tql.css";

export { alertFromPanelHref } from "./alert-link";

const LEAVE_QUESTION =
  "This dashboard has unsaved changes. Leave the editor? (This tab keeps them until you come back.)";

/** The contract's complaints about the whole draft, before it is sent. */
function draftProblems(draft: DashboardDraft): string[] {
  const parsed = DashboardBody.safeParse(draft);
  if (parsed.success) return [];
  return parsed.error.issues.map((i) => `${i.path.join(".") || "dashboard"}: ${i.message}`);
}

/**
 * `/dashboards/:dashboardId/edit`: edit mode. The grid (drag and resize on 12 columns, rows),
 * the panel editor (`?panel=<id>`), the variables, the settings; everything stays a draft in
 * this tab until Save, which saves on the version it was opened at: a stale one is refused
 * (409) and offered Reload or Overwrite, never overwritten silently.
 */
export function DashboardEditor({
  projectId,
  dashboard,
}: {
  projectId: string;
  dashboard: DashboardView;
}) {
  const client = useQueryClient();
  const [params, setParams] = useUrlParams();
  const [base, setBase] = useState(dashboard);
  const opened = useMemo(() => toDraft(base), [base]);
  const [draft, setDraft] = useState(opened);
  const [version, setVersion] = useState(dashboard.version);
  const [kept, setKept] = useState(() => {
    const stored = storedDraft(dashboard.id);
    return stored && !sameDraft(stored.draft, opened) ? stored : null;
  });
  const [newOne, setNewOne] = useState<EditedPanel | null>(null);
  const [dialog, setDialog] = useState<"settings" | "variables" | null>(null);
  const save = useSaveDashboard(projectId);
  const dirty = !sameDraft(draft, opened) || version !== base.version;
  const problems = useMemo(() => draftProblems(draft), [draft]);
  useUnsavedGuard(dirty, LEAVE_QUESTION);

  // The tab keeps the edits (not while an older copy waits for its answer).
  useEffect(() => {
    if (!kept) storeDraft(base.id, version, dirty ? draft : null);
  }, [kept, base.id, version, dirty, draft]);

  const [range, setRange] = useDashboardRange(draft.timeRange);
  const { refreshKey, refreshNow } = useAutoRefresh("off");
  const timeSetting = toTimeRangeSetting(range.spec);
  const variables = useDashboardVariables(projectId, draft.variables, timeSetting, refreshKey);
  const onZoom = useChartZoom(setRange);
  const openPanel = useCallback((id: string) => setParams({ panel: id }), [setParams]);
  const scope: PanelScope = {
    links: {
      projectId,
      selections: variables.selections,
      bound: variables.bound,
      range: range.spec,
    },
    timeSetting,
    window: range,
    refreshKey,
    ready: variables.ready,
    onZoom,
    writable: true,
    dashboardTitle: draft.title,
    editHref: (panelId) => `/${base.id}/edit?panel=${encodeURIComponent(panelId)}`,
    onView: openPanel,
  };

  const change = (next: (d: DashboardDraft) => DashboardDraft, byHand = true) => {
    if (save.isError) save.reset();
    // Editing without restoring the kept draft gives it up: these edits are kept instead.
    if (kept && byHand) setKept(null);
    setDraft(next);
  };
  const actions: EditGridActions = {
    // The grid also settles the layout by itself (on open, on a new width): not a hand's edit.
    onLayout: (next) => change(() => next, false),
    onEdit: openPanel,
    onDuplicate: (id) => change((d) => duplicatePanel(d, id).doc),
    onRemove: (id) => change((d) => removePanel(d, id)),
    onRow: (id, row) => change((d) => updateRow(d, id, row)),
    onRemoveRow: (id, withPanels) => change((d) => removeRow(d, id, withPanels)),
  };

  const settle = (view: DashboardView) => {
    client.setQueryData(dashboardKeys.one(projectId, view.id), view);
    setBase(view);
    setVersion(view.version);
    setDraft(toDraft(view));
    storeDraft(view.id, view.version, null);
  };
  const doSave = (overwrite = false) =>
    save.mutate(
      { id: base.id, input: toSaveInput(draft, version), overwrite },
      { onSuccess: settle },
    );
  const reload = async () => {
    if (!window.confirm("Reload the saved dashboard? Your changes here are dropped.")) return;
    save.reset();
    settle(await getDashboard(projectId, base.id));
  };
  const discard = () => {
    if (!window.confirm("Discard every change since the last save?")) return;
    save.reset();
    setDraft(opened);
    setVersion(base.version);
  };

  const editingId = params.get("panel");
  const editing = newOne ?? draft.panels.find((p) => p.id === editingId) ?? null;
  const closePanel = () => {
    setNewOne(null);
    setParams({ panel: undefined });
  };
  const closeDialog = useCallback(() => setDialog(null), []);

  return (
    <div className="dse-screen">
      <PageHeader
        title={`Editing: ${draft.title || "untitled"}`}
        actions={
          <>
            <span className="muted small" role="status">
              {save.isPending
                ? "Saving…"
                : dirty
                  ? "Unsaved changes"
                  : save.isSuccess
                    ? "Saved"
                    : "No changes"}
            </span>
            <button
              type="button"
              className="button"
              disabled={!dirty || save.isPending}
              onClick={discard}
            >
              Discard
            </button>
            <button
              type="button"
              className="button primary"
              disabled={!dirty || save.isPending || problems.length > 0}
              onClick={() => doSave()}
            >
              {save.isPending ? "Saving…" : "Save"}
            </button>
            <Link href={`/${base.id}`} className="button">
              {dirty ? "Close" : "Done"}
            </Link>
          </>
        }
      >
        {draft.description && <p className="muted small">{draft.description}</p>}
      </PageHeader>
      {kept && (
        <RestoreDraft
          at={kept.at}
          version={kept.version}
          currentVersion={base.version}
          onRestore={() => {
            setDraft(kept.draft);
            setVersion(kept.version);
            setKept(null);
          }}
          onDrop={() => {
            storeDraft(base.id, base.version, null);
            setKept(null);
          }}
        />
      )}
      <SaveProblem
        error={save.error}
        pending={save.isPending}
        onReload={() => void reload()}
        onOverwrite={() => doSave(true)}
      />
      {problems.length > 0 && (
        <ul className="problem" role="alert" aria-label="Fix before saving">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <div className="toolbar dse-toolbar">
        <button
          type="button"
          className="button primary"
          onClick={() => setNewOne(newPanel("timeseries"))}
        >
          Add panel
        </button>
        <button
          type="button"
          className="button"
          onClick={() => change((d) => addRow(d, "New row").doc)}
        >
          Add row
        </button>
        <button type="button" className="button" onClick={() => setDialog("variables")}>
          Variables ({draft.variables.length})
        </button>
        <button type="button" className="button" onClick={() => setDialog("settings")}>
          Settings
        </button>
        <span className="spacer" />
        <TimeRangePicker range={range} onChange={setRange} />
        <button type="button" className="button small" onClick={refreshNow}>
          Refresh
        </button>
      </div>
      <VariableBar states={variables.states} onSelect={variables.select} />
      <EditGrid draft={draft} scope={scope} actions={actions} />
      {editing && (
        <PanelEditor
          key={newOne ? "new" : editing.id}
          projectId={projectId}
          dashboardId={base.id}
          initial={editing}
          isNew={newOne !== null}
          scope={scope}
          variableNames={draft.variables.map((v) => v.name)}
          onApply={(panel) => {
            change((d) => upsertPanel(d, panel));
            closePanel();
          }}
          onClose={closePanel}
        />
      )}
      {dialog === "variables" && (
        <VariableEditor
          projectId={projectId}
          initial={draft.variables}
          scope={scope}
          onApply={(list: DashboardVariable[], renames) => {
            change((d) => followRenames({ ...d, variables: list }, renames));
            closeDialog();
          }}
          onClose={closeDialog}
        />
      )}
      {dialog === "settings" && (
        <SettingsDrawer
          settings={draft}
          current={timeSetting}
          onChange={(settings) => change((d) => ({ ...d, ...settings }))}
          onClose={closeDialog}
        />
      )}
    </div>
  );
}
