import { useEffect, useRef, useState } from "react";
import {
  DASHBOARD_GRID_COLUMNS,
  Panel,
  TEXT_PANEL_MAX_LENGTH,
} from "../../../../../src/contracts/dashboards";
import { useTqlCatalog } from "../../tql/tql-api";
import type { PanelScope } from "../panel-frame";
import { PanelLinksEditor } from "./panel-links-editor";
import { type EditedPanel, PanelOptionsForm, TYPE_LABELS } from "./panel-options";
import { PanelPreview, PREVIEW_DEBOUNCE_MS, usePreviewAnswers } from "./panel-preview";
import { PanelQueries } from "./panel-queries";
import { withType } from "./starter-queries";

const PREVIEW_POS = { x: 0, y: 0, w: DASHBOARD_GRID_COLUMNS, h: 8 };

/** The contract's complaints about a panel, as `field: message` lines (empty when it is fine). */
function panelProblems(panel: EditedPanel): string[] {
  const parsed = Panel.safeParse({ ...panel, gridPos: panel.gridPos ?? PREVIEW_POS });
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const field = issue.path.join(".");
    return field ? `${field}: ${issue.message}` : issue.message;
  });
}

/**
 * The panel editor, over the whole page: a live preview of the panel (its queries run with the
 * dashboard's variables and window, a moment after edits rest, or at once with Run / Ctrl+Enter)
 * over its queries or Markdown; its settings and links beside. Apply puts it into the
 * dashboard's draft (Save on the dashboard saves); Cancel or Escape drops the changes.
 */
export function PanelEditor({
  projectId,
  dashboardId,
  initial,
  isNew,
  scope,
  variableNames,
  onApply,
  onClose,
}: {
  projectId: string;
  dashboardId: string;
  initial: EditedPanel;
  isNew: boolean;
  scope: PanelScope;
  variableNames: readonly string[];
  onApply: (panel: EditedPanel) => void;
  onClose: () => void;
}) {
  const [panel, setPanel] = useState(initial);
  const [previewed, setPreviewed] = useState(initial);
  const [runKey, setRunKey] = useState(0);
  // The query editors keep their own text: a new type's starter queries need new editors.
  const [generation, setGeneration] = useState(0);
  const catalog = useTqlCatalog(projectId);
  const answers = usePreviewAnswers(previewed, scope, runKey);
  const heading = useRef<HTMLHeadingElement>(null);
  const changed = JSON.stringify(panel) !== JSON.stringify(initial);
  const problems = panelProblems(panel);

  useEffect(() => {
    const timer = setTimeout(() => setPreviewed(panel), PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [panel]);

  const close = useRef(onClose);
  close.current = () => {
    if (!changed || window.confirm("Drop the changes to this panel?")) onClose();
  };
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    heading.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented) close.current();
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      previous?.focus();
    };
  }, []);

  const set = (change: Partial<EditedPanel>) => setPanel((p) => ({ ...p, ...change }));
  const runNow = () => {
    setPreviewed(panel);
    setRunKey((k) => k + 1);
  };
  const title = `${isNew ? "New" : "Edit"} panel${panel.title ? `: ${panel.title}` : ""}`;

  return (
    <div className="dse-editor" role="dialog" aria-modal="true" aria-label={title}>
      <header className="dse-editor-head">
        <h2 ref={heading} tabIndex={-1}>
          {title}
        </h2>
        <span className="muted small">{TYPE_LABELS[panel.type]}</span>
        <span className="spacer" />
        <button type="button" className="button" onClick={() => close.current()}>
          Cancel
        </button>
        <button
          type="button"
          className="button primary"
          disabled={problems.length > 0}
          onClick={() => onApply(panel)}
        >
          {isNew ? "Add to dashboard" : "Apply"}
        </button>
      </header>
      {problems.length > 0 && changed && (
        <ul className="problem dse-editor-problems" role="alert">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <div className="dse-editor-body">
        <div className="dse-editor-main">
          <PanelPreview
            panel={{ ...previewed, gridPos: previewed.gridPos ?? PREVIEW_POS }}
            answers={answers}
            scope={scope}
          />
          {panel.type === "text" ? (
            <label className="field dse-markdown">
              <span>Markdown</span>
              <textarea
                className="mono"
                rows={14}
                value={panel.content ?? ""}
                maxLength={TEXT_PANEL_MAX_LENGTH}
                onChange={(e) => set({ content: e.target.value })}
              />
              <small className="hint">
                Rendered sanitized: no HTML, no scripts, safe links only.
              </small>
            </label>
          ) : (
            <PanelQueries
              key={generation}
              queries={panel.queries}
              errors={answers.errors}
              catalog={catalog.data}
              variableNames={variableNames}
              target={panel.type === "timeseries" || panel.type === "heatmap" ? "chart" : "table"}
              onChange={(queries) => set({ queries })}
              onRun={runNow}
            />
          )}
        </div>
        <aside className="dse-editor-side" aria-label="Panel settings">
          <PanelOptionsForm
            panel={panel}
            error={null}
            onType={(type) => {
              const next = withType(panel, type);
              if (JSON.stringify(next.queries) !== JSON.stringify(panel.queries))
                setGeneration((g) => g + 1);
              setPanel(next);
            }}
            onChange={set}
          />
          {panel.type !== "text" && (
            <PanelLinksEditor
              projectId={projectId}
              dashboardId={dashboardId}
              links={panel.links}
              onChange={(links) => set({ links })}
            />
          )}
        </aside>
      </div>
    </div>
  );
}
