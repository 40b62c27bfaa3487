import { verticalCompactor } from "react-grid-layout/core";
import {
  DASHBOARD_GRID_COLUMNS,
  type DashboardBody,
  type DashboardRow,
  type Panel,
} from "../../../../../src/contracts/dashboards.js";

/*
 * The editor's grid as plain values. A dashboard's panels and rows live in "expanded"
 * coordinates (a collapsed row's panels keep their places under it, as docs/dashboards.md says:
 * the panels whose y falls between a row and the next belong to it). The grid shows the
 * collapsed rows' panels hidden and the rows as full-width items of height 1, so a drag moves
 * a row with its panels; the grid's answer is mapped back to expanded coordinates.
 */

/** The part of a dashboard the grid edits. */
export type GridDoc = Pick<DashboardBody, "panels" | "rows">;

/** One grid item, as react-grid-layout takes it. */
export interface GridItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
  isResizable?: boolean;
}

/** A row's grid item id (panel ids cannot contain ":"). */
export const ROW_ITEM_PREFIX = "row:";
export const rowItemId = (rowId: string): string => `${ROW_ITEM_PREFIX}${rowId}`;

/** A row (null for the panels above every row) and its panels, `y` relative to its first line. */
interface Section {
  row: DashboardRow | null;
  panels: Panel[];
}

const byPosition = (a: Panel, b: Panel) => a.gridPos.y - b.gridPos.y || a.gridPos.x - b.gridPos.x;

/** The first `<prefix><n>` not in `taken`. */
export function freeId(prefix: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n++) if (!taken.has(`${prefix}${n}`)) return `${prefix}${n}`;
}

/** Every panel and row with an id (the grid keys items by it); ids already there are kept. */
export function withIds<T extends GridDoc>(doc: T): T {
  const taken = new Set<string>();
  for (const item of [...doc.panels, ...doc.rows]) if (item.id) taken.add(item.id);
  const named = <I extends { id?: string | undefined }>(item: I, prefix: string): I => {
    if (item.id) return item;
    const id = freeId(prefix, taken);
    taken.add(id);
    return { ...item, id };
  };
  return {
    ...doc,
    panels: doc.panels.map((p) => named(p, "p")),
    rows: doc.rows.map((r) => named(r, "row")),
  };
}

function toSections(doc: GridDoc): Section[] {
  const rows = [...doc.rows].sort((a, b) => a.y - b.y);
  const sections: Section[] = [
    { row: null, panels: [] },
    ...rows.map((row) => ({ row, panels: [] })),
  ];
  for (const panel of [...doc.panels].sort(byPosition)) {
    let index = 0;
    rows.forEach((row, i) => {
      if (row.y <= panel.gridPos.y) index = i + 1;
    });
    const section = sections[index] ?? sections[0];
    const start = section?.row ? section.row.y + 1 : 0;
    section?.panels.push({
      ...panel,
      gridPos: { ...panel.gridPos, y: Math.max(0, panel.gridPos.y - start) },
    });
  }
  return sections;
}

const sectionHeight = (panels: readonly Panel[]): number =>
  panels.reduce((bottom, p) => Math.max(bottom, p.gridPos.y + p.gridPos.h), 0);

function fromSections(sections: readonly Section[]): GridDoc {
  const panels: Panel[] = [];
  const rows: DashboardRow[] = [];
  let cursor = 0;
  for (const section of sections) {
    if (section.row) {
      rows.push({ ...section.row, y: cursor });
      cursor += 1;
    }
    for (const p of section.panels)
      panels.push({ ...p, gridPos: { ...p.gridPos, y: cursor + p.gridPos.y } });
    cursor += sectionHeight(section.panels);
  }
  return { panels, rows };
}

/** What the grid shows: rows as full-width lines, the panels of collapsed rows left out. */
export function gridItems(doc: GridDoc): GridItem[] {
  const items: GridItem[] = [];
  let cursor = 0;
  for (const section of toSections(doc)) {
    if (section.row) {
      items.push({
        i: rowItemId(section.row.id ?? ""),
        x: 0,
        y: cursor,
        w: DASHBOARD_GRID_COLUMNS,
        h: 1,
        isResizable: false,
      });
      cursor += 1;
      if (section.row.collapsed) continue;
    }
    for (const p of section.panels)
      items.push({
        i: p.id ?? "",
        x: p.gridPos.x,
        y: cursor + p.gridPos.y,
        w: p.gridPos.w,
        h: p.gridPos.h,
      });
    cursor += sectionHeight(section.panels);
  }
  return items;
}

const clampPos = (item: GridItem, y: number) => {
  const w = Math.min(Math.max(1, Math.round(item.w)), DASHBOARD_GRID_COLUMNS);
  const x = Math.min(Math.max(0, Math.round(item.x)), DASHBOARD_GRID_COLUMNS - w);
  return { x, y: Math.max(0, Math.round(y)), w, h: Math.min(Math.max(1, Math.round(item.h)), 100) };
};

/**
 * The dashboard after the grid moved or resized items: each panel belongs to the row above it
 * where it now stands. A panel dropped under a collapsed row opens that row, after its panels,
 * so nothing disappears from under the pointer.
 */
export function applyGridItems<T extends GridDoc>(doc: T, items: readonly GridItem[]): T {
  const before = toSections(doc);
  const hidden = new Map<string, Panel[]>();
  for (const s of before) if (s.row?.collapsed && s.row.id) hidden.set(s.row.id, s.panels);
  const rows = new Map(doc.rows.map((r) => [r.id ?? "", r]));
  const panels = new Map(doc.panels.map((p) => [p.id ?? "", p]));
  const placed = new Set<string>();
  const sections: Section[] = [{ row: null, panels: [] }];
  let start = 0;
  for (const item of [...items].sort((a, b) => a.y - b.y || a.x - b.x)) {
    if (item.i.startsWith(ROW_ITEM_PREFIX)) {
      const row = rows.get(item.i.slice(ROW_ITEM_PREFIX.length));
      if (!row) continue;
      const own = (row.collapsed && hidden.get(row.id ?? "")) || [];
      for (const p of own) placed.add(p.id ?? "");
      sections.push({ row, panels: [...own] });
      start = item.y + 1;
      continue;
    }
    const panel = panels.get(item.i);
    const section = sections[sections.length - 1];
    if (!panel || !section || placed.has(item.i)) continue;
    placed.add(item.i);
    let y = item.y - start;
    if (section.row?.collapsed) {
      y += sectionHeight(section.panels);
      section.row = { ...section.row, collapsed: false };
    }
    section.panels.push({ ...panel, gridPos: clampPos(item, y) });
  }
  // Anything the grid did not name (it should name every shown item) stays, at the bottom.
  const last = sections[sections.length - 1];
  for (const p of before.flatMap((s) => s.panels))
    if (!placed.has(p.id ?? "") && last)
      last.panels.push({ ...p, gridPos: { ...p.gridPos, y: sectionHeight(last.panels) } });
  for (const row of doc.rows)
    if (!sections.some((s) => s.row?.id === row.id))
      sections.push({ row, panels: hidden.get(row.id ?? "") ?? [] });
  return { ...doc, ...fromSections(sections) };
}

/**
 * The dashboard as the editor's grid settles it (compacted upwards, as the grid does on open),
 * so opening the editor on a dashboard saved with gaps is not already a change.
 */
export function compacted<T extends GridDoc>(doc: T): T {
  return applyGridItems(doc, verticalCompactor.compact(gridItems(doc), DASHBOARD_GRID_COLUMNS));
}

/** The first free line under everything (panels and rows). */
export function bottomOf(doc: GridDoc): number {
  let bottom = 0;
  for (const p of doc.panels) bottom = Math.max(bottom, p.gridPos.y + p.gridPos.h);
  for (const r of doc.rows) bottom = Math.max(bottom, r.y + 1);
  return bottom;
}

/** The size a new panel of a type starts with. */
export function defaultSize(type: Panel["type"]): { w: number; h: number } {
  if (type === "stat") return { w: 4, h: 4 };
  if (type === "bargauge" || type === "pie") return { w: 6, h: 8 };
  if (type === "text") return { w: 6, h: 4 };
  return { w: DASHBOARD_GRID_COLUMNS, h: 8 };
}

/**
 * The dashboard with `panel` added under everything, at the left, sized for its type unless it
 * says. A collapsed last row is opened, or the new panel would be hidden in it. Other panels
 * keep their places (the TQL screen's "Add to dashboard" saves exactly this).
 */
export function appendPanel<T extends GridDoc>(
  doc: T,
  panel: Omit<Panel, "gridPos"> & { gridPos?: Partial<Panel["gridPos"]> },
): T {
  const size = { ...defaultSize(panel.type), ...panel.gridPos };
  const w = Math.min(Math.max(1, size.w), DASHBOARD_GRID_COLUMNS);
  const taken = new Set(doc.panels.map((p) => p.id ?? ""));
  const id = panel.id && !taken.has(panel.id) ? panel.id : freeId("p", taken);
  const lastRow = [...doc.rows].sort((a, b) => b.y - a.y)[0];
  const rows = lastRow?.collapsed
    ? doc.rows.map((r) => (r === lastRow ? { ...r, collapsed: false } : r))
    : doc.rows;
  const added: Panel = { ...panel, id, gridPos: { x: 0, y: bottomOf(doc), w, h: size.h } };
  return { ...doc, rows, panels: [...doc.panels, added] };
}

/** Moves everything at or below line `y` down by `h` lines (room for an inserted item). */
function makeRoom<T extends GridDoc>(doc: T, y: number, h: number): T {
  return {
    ...doc,
    panels: doc.panels.map((p) =>
      p.gridPos.y >= y ? { ...p, gridPos: { ...p.gridPos, y: p.gridPos.y + h } } : p,
    ),
    rows: doc.rows.map((r) => (r.y >= y ? { ...r, y: r.y + h } : r)),
  };
}

/** A copy of a panel right under it (a new id, "(copy)" in its title); returns the copy's id. */
export function duplicatePanel<T extends GridDoc>(doc: T, panelId: string): { doc: T; id: string } {
  const original = doc.panels.find((p) => p.id === panelId);
  if (!original) return { doc, id: panelId };
  const id = freeId("p", new Set(doc.panels.map((p) => p.id ?? "")));
  const y = original.gridPos.y + original.gridPos.h;
  const moved = makeRoom(doc, y, original.gridPos.h);
  const copy: Panel = {
    ...structuredClone(original),
    id,
    title: original.title ? `${original.title} (copy)`.slice(0, 200) : "",
    gridPos: { ...original.gridPos, y },
  };
  return { doc: { ...moved, panels: [...moved.panels, copy] }, id };
}

export function removePanel<T extends GridDoc>(doc: T, panelId: string): T {
  return { ...doc, panels: doc.panels.filter((p) => p.id !== panelId) };
}

/** A new row under everything; returns its id. */
export function addRow<T extends GridDoc>(doc: T, title: string): { doc: T; id: string } {
  const id = freeId("row", new Set(doc.rows.map((r) => r.id ?? "")));
  const row: DashboardRow = { id, title, y: bottomOf(doc), collapsed: false };
  return { doc: { ...doc, rows: [...doc.rows, row] }, id };
}

export function updateRow<T extends GridDoc>(
  doc: T,
  rowId: string,
  change: Partial<Pick<DashboardRow, "title" | "collapsed">>,
): T {
  return { ...doc, rows: doc.rows.map((r) => (r.id === rowId ? { ...r, ...change } : r)) };
}

/**
 * Removes a row: with `withPanels` its panels go too; otherwise they join the section above
 * (the row's line is taken back, everything under it moves up one).
 */
export function removeRow<T extends GridDoc>(doc: T, rowId: string, withPanels: boolean): T {
  const sections = toSections(doc);
  const index = sections.findIndex((s) => s.row?.id === rowId);
  const section = sections[index];
  const above = sections[index - 1];
  if (!section || !above) return doc;
  if (!withPanels) {
    const offset = sectionHeight(above.panels);
    for (const p of section.panels)
      above.panels.push({ ...p, gridPos: { ...p.gridPos, y: p.gridPos.y + offset } });
  }
  sections.splice(index, 1);
  return { ...doc, ...fromSections(sections) };
}

/** The row a panel belongs to (null above every row). */
export function rowOf(doc: GridDoc, panelId: string): DashboardRow | null {
  for (const section of toSections(doc))
    if (section.panels.some((p) => p.id === panelId)) return section.row;
  return null;
}
