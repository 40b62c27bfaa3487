import { useState } from "react";
import ReactGridLayout, {
  type Layout,
  type LayoutItem,
  useContainerWidth,
  verticalCompactor,
} from "react-grid-layout";
import "react-grid-layout/css/styles.css";
import {
  DASHBOARD_GRID_COLUMNS,
  type DashboardRow,
  type Panel,
} from "../../../../../src/contracts/dashboards";
import { ConfirmButton } from "../../../components/confirm-button";
import { ROW_HEIGHT } from "../dashboard-grid";
import { PanelFrame, type PanelScope } from "../panel-frame";
import type { DashboardDraft } from "./dashboard-draft";
import { applyGridItems, type GridItem, gridItems, ROW_ITEM_PREFIX, rowOf } from "./grid-sections";

const MARGIN: [number, number] = [10, 10];

/** What the grid asks of the editor around it. */
export interface EditGridActions {
  onLayout: (next: DashboardDraft) => void;
  onEdit: (panelId: string) => void;
  onDuplicate: (panelId: string) => void;
  onRemove: (panelId: string) => void;
  onRow: (rowId: string, change: Partial<Pick<DashboardRow, "title" | "collapsed">>) => void;
  onRemoveRow: (rowId: string, withPanels: boolean) => void;
}

const sameItems = (a: readonly GridItem[], b: readonly GridItem[]) =>
  JSON.stringify(a.map(({ i, x, y, w, h }) => [i, x, y, w, h])) ===
  JSON.stringify(b.map(({ i, x, y, w, h }) => [i, x, y, w, h]));

/**
 * Edit mode's grid: panels dragged by their bar and resized from the corner on 12 columns,
 * compacted upwards; rows are full-width lines that carry their panels when dragged and fold
 * them away. Every change goes back to the editor as a new draft (nothing is saved here).
 */
export function EditGrid({
  draft,
  scope,
  actions,
}: {
  draft: DashboardDraft;
  scope: PanelScope;
  actions: EditGridActions;
}) {
  const { width, containerRef, mounted } = useContainerWidth();
  const items = gridItems(draft);
  const layout: LayoutItem[] = items.map((item) => ({
    ...item,
    minW: item.i.startsWith(ROW_ITEM_PREFIX) ? DASHBOARD_GRID_COLUMNS : 1,
    minH: 1,
  }));
  const onLayoutChange = (next: Layout) => {
    const moved = applyGridItems(draft, next);
    if (!sameItems(gridItems(moved), items)) actions.onLayout(moved);
  };
  const panels = new Map(draft.panels.map((p) => [p.id ?? "", p]));
  const rows = new Map(draft.rows.map((r) => [r.id ?? "", r]));
  return (
    <div ref={containerRef} className="dse-grid">
      {mounted && (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{ cols: DASHBOARD_GRID_COLUMNS, rowHeight: ROW_HEIGHT, margin: MARGIN }}
          dragConfig={{ enabled: true, handle: ".dse-handle", cancel: "button, input, a" }}
          resizeConfig={{ enabled: true, handles: ["se"] }}
          compactor={verticalCompactor}
          onLayoutChange={onLayoutChange}
        >
          {layout.map((item) => {
            if (item.i.startsWith(ROW_ITEM_PREFIX)) {
              const row = rows.get(item.i.slice(ROW_ITEM_PREFIX.length));
              return (
                <div key={item.i} className="dse-row">
                  {row && (
                    <RowBar
                      row={row}
                      count={
                        draft.panels.filter((p) => rowOf(draft, p.id ?? "")?.id === row.id).length
                      }
                      actions={actions}
                    />
                  )}
                </div>
              );
            }
            const panel = panels.get(item.i);
            return (
              <div key={item.i} className="dse-item">
                {panel && <PanelItem panel={panel} scope={scope} actions={actions} />}
              </div>
            );
          })}
        </ReactGridLayout>
      )}
      {draft.panels.length === 0 && draft.rows.length === 0 && (
        <p className="empty">
          <strong>No panels yet</strong>
          Add a panel: pick its type, write its query, and place it on the grid.
        </p>
      )}
    </div>
  );
}

function PanelItem({
  panel,
  scope,
  actions,
}: {
  panel: Panel;
  scope: PanelScope;
  actions: EditGridActions;
}) {
  const id = panel.id ?? "";
  const name = panel.title || "untitled panel";
  return (
    <div className="dse-panel">
      <div className="dse-bar">
        <span className="dse-handle" title="Drag to move">
          <span aria-hidden="true">⠿</span>
          <span className="dse-bar-title">
            {panel.title || <em className="muted">Untitled</em>}
          </span>
        </span>
        <button
          type="button"
          className="button small"
          aria-label={`Edit ${name}`}
          onClick={() => actions.onEdit(id)}
        >
          Edit
        </button>
        <button
          type="button"
          className="button small"
          aria-label={`Duplicate ${name}`}
          onClick={() => actions.onDuplicate(id)}
        >
          Duplicate
        </button>
        <ConfirmButton
          label="Remove"
          accessibleName={`Remove ${name}`}
          confirmLabel="Remove"
          onConfirm={() => actions.onRemove(id)}
        />
      </div>
      <div className="dse-panel-body">
        <PanelFrame panel={panel} scope={scope} />
      </div>
    </div>
  );
}

function RowBar({
  row,
  count,
  actions,
}: {
  row: DashboardRow;
  count: number;
  actions: EditGridActions;
}) {
  const id = row.id ?? "";
  const [title, setTitle] = useState(row.title);
  return (
    <div className="dse-bar dse-row-bar">
      <span className="dse-handle" title="Drag to move the row with its panels">
        <span aria-hidden="true">⠿</span>
      </span>
      <button
        type="button"
        className="button small"
        aria-expanded={!row.collapsed}
        aria-label={`${row.collapsed ? "Expand" : "Collapse"} row ${row.title || "untitled"}`}
        onClick={() => actions.onRow(id, { collapsed: !row.collapsed })}
      >
        <span aria-hidden="true">{row.collapsed ? "▸" : "▾"}</span>
      </button>
      <input
        className="dse-row-title"
        aria-label="Row title"
        value={title}
        maxLength={200}
        placeholder="Row title"
        onChange={(e) => setTitle(e.target.value)}
        onBlur={() => title !== row.title && actions.onRow(id, { title: title.trim() })}
        onKeyDown={(e) => {
          if (e.key === "Enter") e.currentTarget.blur();
        }}
      />
      <span className="muted small">
        {count} panel{count === 1 ? "" : "s"}
        {row.collapsed ? " (folded; folded rows are saved folded)" : ""}
      </span>
      <span className="spacer" />
      <ConfirmButton
        label="Remove row"
        question={count ? `Remove “${row.title || "row"}”: keep its ${count} panels?` : undefined}
        confirmLabel={count ? "Keep panels" : "Remove row"}
        onConfirm={() => actions.onRemoveRow(id, false)}
      />
      {count > 0 && (
        <ConfirmButton
          label="Remove with panels"
          confirmLabel={`Remove row and ${count} panels`}
          onConfirm={() => actions.onRemoveRow(id, true)}
        />
      )}
    </div>
  );
}
