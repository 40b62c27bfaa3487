import { useEffect, useMemo, useRef, useState } from "react";
import ReactGridLayout, { type LayoutItem, useContainerWidth } from "react-grid-layout";
import "react-grid-layout/css/styles.css";
import {
  DASHBOARD_GRID_COLUMNS,
  type DashboardRow,
  type DashboardView,
  type Panel,
} from "../../../../src/contracts/dashboards";
import { type GridItem, gridItems, ROW_ITEM_PREFIX, withIds } from "./edit/grid-sections";
import { PanelFrame, type PanelScope } from "./panel-frame";

/** One grid line, in px (the contract's unit, "about 30 px"). */
export const ROW_HEIGHT = 30;
const MARGIN: [number, number] = [10, 10];
/** Under this width the panels stack, each the full width, in reading order. */
const STACK_BELOW_PX = 720;

/** Narrow screens: every item the full width, one under another in the order they read. */
export function stacked(items: readonly GridItem[]): GridItem[] {
  let y = 0;
  return [...items]
    .sort((a, b) => a.y - b.y || a.x - b.x)
    .map((item) => {
      const placed = { ...item, x: 0, y, w: DASHBOARD_GRID_COLUMNS };
      y += item.h;
      return placed;
    });
}

/**
 * The dashboard's panels on the 12-column grid, in view mode (nothing moves). Rows fold their
 * panels away; a fold here is the viewer's own and is not saved.
 */
export function DashboardGrid({
  dashboard,
  scope,
}: {
  dashboard: Pick<DashboardView, "panels" | "rows">;
  scope: PanelScope;
}) {
  const { width, containerRef, mounted } = useContainerWidth();
  const [folded, setFolded] = useState<Record<string, boolean>>({});
  const doc = useMemo(
    () => withIds({ panels: dashboard.panels, rows: dashboard.rows }),
    [dashboard],
  );
  const rows = doc.rows.map((r) => ({ ...r, collapsed: folded[r.id ?? ""] ?? r.collapsed }));
  const items = gridItems({ panels: doc.panels, rows });
  const layout: LayoutItem[] = (width < STACK_BELOW_PX ? stacked(items) : items).map((item) => ({
    i: item.i,
    x: item.x,
    y: item.y,
    w: item.w,
    h: item.h,
    static: true,
  }));
  const panels = new Map(doc.panels.map((p) => [p.id ?? "", p]));
  const rowById = new Map(rows.map((r) => [r.id ?? "", r]));
  const panelsUnder = (rowId: string) => {
    const row = rowById.get(rowId);
    const next = rows.filter((r) => row && r.y > row.y).sort((a, b) => a.y - b.y)[0];
    return doc.panels.filter((p) => row && p.gridPos.y > row.y && (!next || p.gridPos.y < next.y))
      .length;
  };
  return (
    <div ref={containerRef} className="dsh-grid">
      {mounted && (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{ cols: DASHBOARD_GRID_COLUMNS, rowHeight: ROW_HEIGHT, margin: MARGIN }}
          dragConfig={{ enabled: false }}
          resizeConfig={{ enabled: false }}
        >
          {layout.map((item) => {
            if (item.i.startsWith(ROW_ITEM_PREFIX)) {
              const id = item.i.slice(ROW_ITEM_PREFIX.length);
              const row = rowById.get(id);
              return (
                <div key={item.i} className="dsh-row">
                  {row && (
                    <RowHeader
                      row={row}
                      count={panelsUnder(id)}
                      onToggle={() => setFolded({ ...folded, [id]: !row.collapsed })}
                    />
                  )}
                </div>
              );
            }
            const panel = panels.get(item.i);
            return <div key={item.i}>{panel && <PanelFrame panel={panel} scope={scope} />}</div>;
          })}
        </ReactGridLayout>
      )}
    </div>
  );
}

function RowHeader({
  row,
  count,
  onToggle,
}: {
  row: DashboardRow;
  count: number;
  onToggle: () => void;
}) {
  return (
    <h2 className="dsh-row-title">
      <button type="button" aria-expanded={!row.collapsed} onClick={onToggle}>
        <span aria-hidden="true">{row.collapsed ? "▸" : "▾"}</span> {row.title || "Row"}
        {row.collapsed && (
          <span className="muted small">
            {" "}
            ({count} panel{count === 1 ? "" : "s"})
          </span>
        )}
      </button>
    </h2>
  );
}

/** A panel alone over the page (`view=<id>`): Escape or Close returns to the dashboard. */
export function FullScreenPanel({
  panel,
  scope,
  onClose,
}: {
  panel: Panel;
  scope: PanelScope;
  onClose: () => void;
}) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    close.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented) onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      previous?.focus();
    };
  }, [onClose]);
  return (
    <div
      className="dsh-fullscreen"
      role="dialog"
      aria-modal="true"
      aria-label={panel.title || "Panel"}
    >
      <div className="dsh-fullscreen-bar">
        <span className="muted small">Esc closes</span>
        <button type="button" className="button small" onClick={onClose} ref={close}>
          Close
        </button>
      </div>
      <PanelFrame panel={panel} scope={scope} />
    </div>
  );
}
