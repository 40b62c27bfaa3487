import { describe, expect, it } from "vitest";
import type { DashboardRow, Panel } from "../src/contracts/dashboards.js";
import {
  addRow,
  appendPanel,
  applyGridItems,
  compacted,
  duplicatePanel,
  type GridDoc,
  gridItems,
  removeRow,
  rowItemId,
  rowOf,
  withIds,
} from "../web/src/screens/dashboards/edit/grid-sections.js";

const panel = (id: string, x: number, y: number, w = 6, h = 4): Panel => ({
  id,
  title: id,
  type: "timeseries",
  gridPos: { x, y, w, h },
  queries: [{ tql: "SELECT 1" }],
  unit: "none",
  thresholds: [],
  links: [],
  options: {},
});
const row = (id: string, y: number, collapsed = false): DashboardRow => ({
  id,
  title: id,
  y,
  collapsed,
});
/** A panel as a form makes it: no place yet. */
const fresh = (type: Panel["type"], id?: string) => {
  const { gridPos: _, ...rest } = panel(id ?? "x", 0, 0);
  return { ...rest, id, type };
};
const positions = (doc: GridDoc) =>
  Object.fromEntries([
    ...doc.panels.map((p) => [p.id, [p.gridPos.x, p.gridPos.y, p.gridPos.w, p.gridPos.h]]),
    ...doc.rows.map((r) => [`row:${r.id}`, r.y]),
  ]);

describe("the grid's items", () => {
  it("are the panels' grid positions, rows as full-width lines of height 1", () => {
    const doc = {
      panels: [panel("a", 0, 0), panel("b", 6, 0), panel("c", 0, 5)],
      rows: [row("r", 4)],
    };
    expect(gridItems(doc)).toEqual([
      { i: "a", x: 0, y: 0, w: 6, h: 4 },
      { i: "b", x: 6, y: 0, w: 6, h: 4 },
      { i: rowItemId("r"), x: 0, y: 4, w: 12, h: 1, isResizable: false },
      { i: "c", x: 0, y: 5, w: 6, h: 4 },
    ]);
  });

  it("leave out a collapsed row's panels and the lines they take", () => {
    const doc = {
      panels: [panel("a", 0, 1), panel("b", 0, 6)],
      rows: [row("r1", 0, true), row("r2", 5)],
    };
    expect(gridItems(doc).map((i) => [i.i, i.y])).toEqual([
      ["row:r1", 0],
      ["row:r2", 1],
      ["b", 2],
    ]);
  });

  it("map back to the same dashboard when nothing moved", () => {
    const doc = {
      panels: [panel("a", 0, 0), panel("b", 6, 0), panel("c", 0, 5), panel("d", 0, 10)],
      rows: [row("r1", 4, true), row("r2", 9)],
    };
    expect(positions(applyGridItems(doc, gridItems(doc)))).toEqual(positions(doc));
  });
});

describe("applying the grid's layout", () => {
  it("takes moves and resizes, a panel joining the row above where it stands", () => {
    const doc = { panels: [panel("a", 0, 0), panel("b", 0, 5)], rows: [row("r", 4)] };
    // The grid moved a under the row and widened it; b compacted up.
    const moved = applyGridItems(doc, [
      { i: "row:r", x: 0, y: 0, w: 12, h: 1 },
      { i: "b", x: 0, y: 1, w: 6, h: 4 },
      { i: "a", x: 0, y: 5, w: 12, h: 4 },
    ]);
    expect(positions(moved)).toEqual({ "row:r": 0, b: [0, 1, 6, 4], a: [0, 5, 12, 4] });
    expect(rowOf(moved, "a")?.id).toBe("r");
  });

  it("moves a collapsed row's hidden panels with it, keeping them under it", () => {
    const doc = {
      panels: [panel("top", 0, 0, 12, 3), panel("h1", 0, 4, 6, 5), panel("h2", 6, 4, 6, 2)],
      rows: [row("r", 3, true)],
    };
    // The collapsed row dragged above the top panel.
    const moved = applyGridItems(doc, [
      { i: "row:r", x: 0, y: 0, w: 12, h: 1 },
      { i: "top", x: 0, y: 1, w: 12, h: 3 },
    ]);
    // "top" stands under the collapsed row now: the row opens, top after its panels.
    expect(positions(moved)).toEqual({
      "row:r": 0,
      h1: [0, 1, 6, 5],
      h2: [6, 1, 6, 2],
      top: [0, 6, 12, 3],
    });
    expect(moved.rows[0]?.collapsed).toBe(false);
  });

  it("keeps a collapsed row's panels inside it, the next row after them", () => {
    const doc = {
      panels: [panel("h", 0, 1, 6, 5), panel("b", 0, 7)],
      rows: [row("r1", 0, true), row("r2", 6)],
    };
    const moved = applyGridItems(doc, gridItems(doc));
    expect(positions(moved)).toEqual({
      "row:r1": 0,
      h: [0, 1, 6, 5],
      "row:r2": 6,
      b: [0, 7, 6, 4],
    });
  });

  it("clamps what the grid answers into the 12 columns", () => {
    const doc = { panels: [panel("a", 0, 0)], rows: [] };
    const moved = applyGridItems(doc, [{ i: "a", x: 10, y: 0, w: 6, h: 4 }]);
    expect(positions(moved)).toEqual({ a: [6, 0, 6, 4] });
  });
});

describe("appending a panel", () => {
  it("puts it under everything at the left, sized for its type, others unmoved", () => {
    const doc = { panels: [panel("a", 0, 0, 6, 4), panel("b", 6, 0, 6, 9)], rows: [] };
    const next = appendPanel(doc, fresh("stat"));
    expect(positions(next)).toEqual({ a: [0, 0, 6, 4], b: [6, 0, 6, 9], p1: [0, 9, 4, 4] });
  });

  it("counts rows in the bottom and opens a collapsed last row", () => {
    const doc = { panels: [panel("a", 0, 0)], rows: [row("r", 4, true)] };
    const next = appendPanel(doc, { ...fresh("timeseries", "a"), gridPos: { w: 6, h: 3 } });
    const added = next.panels[1];
    expect(added?.id).toBe("p1");
    expect(added?.gridPos).toEqual({ x: 0, y: 5, w: 6, h: 3 });
    expect(next.rows[0]?.collapsed).toBe(false);
  });

  it("starts an empty dashboard at the top", () => {
    const empty: GridDoc = { panels: [], rows: [] };
    const next = appendPanel(empty, fresh("table"));
    expect(next.panels[0]?.gridPos).toEqual({ x: 0, y: 0, w: 12, h: 8 });
  });
});

describe("editing panels and rows", () => {
  it("duplicates a panel right under it, pushing what was below down", () => {
    const doc = { panels: [panel("a", 0, 0), panel("b", 0, 4)], rows: [row("r", 8)] };
    const { doc: next, id } = duplicatePanel(doc, "a");
    expect(id).toBe("p1");
    expect(next.panels.find((p) => p.id === "p1")?.title).toBe("a (copy)");
    expect(positions(next)).toEqual({
      a: [0, 0, 6, 4],
      p1: [0, 4, 6, 4],
      b: [0, 8, 6, 4],
      "row:r": 12,
    });
  });

  it("adds a row under everything and removes one keeping or dropping its panels", () => {
    const base = { panels: [panel("a", 0, 0)], rows: [] };
    const { doc, id } = addRow(base, "More");
    expect(doc.rows).toEqual([{ id, title: "More", y: 4, collapsed: false }]);
    const withPanel = appendPanel(doc, { ...fresh("timeseries", "b"), gridPos: { w: 6, h: 4 } });
    expect(rowOf(withPanel, "b")?.id).toBe(id);
    expect(positions(removeRow(withPanel, id, false))).toEqual({
      a: [0, 0, 6, 4],
      b: [0, 4, 6, 4],
    });
    expect(removeRow(withPanel, id, true).panels.map((p) => p.id)).toEqual(["a"]);
  });

  it("names panels and rows without an id, keeping the ids there are", () => {
    const { id: _, ...unnamed } = panel("x", 0, 0);
    const doc = withIds<GridDoc>({
      panels: [unnamed, panel("p1", 0, 4)],
      rows: [{ title: "r", y: 8, collapsed: false }],
    });
    expect(doc.panels.map((p) => p.id)).toEqual(["p2", "p1"]);
    expect(doc.rows[0]?.id).toBe("row1");
  });
});

describe("a dashboard saved with gaps", () => {
  it("is settled as the grid settles it on open, so opening is not a change", () => {
    const doc = {
      panels: [panel("a", 0, 3), panel("b", 6, 10), panel("c", 0, 20)],
      rows: [row("r", 15)],
    };
    const settled = compacted(doc);
    expect(positions(settled)).toEqual({
      a: [0, 0, 6, 4],
      b: [6, 0, 6, 4],
      "row:r": 4,
      c: [0, 5, 6, 4],
    });
    expect(compacted(settled)).toEqual(settled);
  });
});
