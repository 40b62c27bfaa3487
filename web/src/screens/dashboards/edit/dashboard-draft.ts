import {
  DASHBOARD_GRID_COLUMNS,
  type DashboardBody,
  type DashboardView,
  PANEL_TYPES,
  type Panel,
  type UpdateDashboardInput,
} from "../../../../../src/contracts/dashboards";
import { appendPanel, compacted, withIds } from "./grid-sections";

/*
 * The dashboard as the editor holds it until Save: the body (every panel and row with an id),
 * whether it differs from what was opened, the save's input, and a copy kept in this tab's
 * storage so a Back, a reload or a crash does not lose the edits. No React here.
 */

export type DashboardDraft = DashboardBody;

/** The editable body of a dashboard as read, every panel and row named, as the grid settles it. */
export function toDraft(view: DashboardView): DashboardDraft {
  const body = withIds({
    title: view.title,
    description: view.description,
    tags: view.tags,
    timeRange: view.timeRange,
    refresh: view.refresh,
    variables: view.variables,
    panels: view.panels,
    rows: view.rows,
  });
  return compacted(body);
}

/** The draft in a canonical order (panels by place, then id), so moves compare by position. */
function canonical(draft: DashboardDraft): string {
  const panels = [...draft.panels].sort(
    (a, b) =>
      a.gridPos.y - b.gridPos.y ||
      a.gridPos.x - b.gridPos.x ||
      (a.id ?? "").localeCompare(b.id ?? ""),
  );
  const rows = [...draft.rows].sort((a, b) => a.y - b.y);
  return JSON.stringify({ ...draft, panels, rows });
}

export const sameDraft = (a: DashboardDraft, b: DashboardDraft): boolean =>
  canonical(a) === canonical(b);

/** A save of the whole body at the version it was read at. */
export const toSaveInput = (draft: DashboardDraft, version: number): UpdateDashboardInput => ({
  ...draft,
  version,
});

/**
 * The draft with a panel put back from the panel editor: in its place when it is there (its
 * size as the editor set it, its column moved left if the new width needs it), else added
 * under everything.
 */
export function upsertPanel(
  draft: DashboardDraft,
  panel: Omit<Panel, "gridPos"> & { gridPos?: Panel["gridPos"] | undefined },
): DashboardDraft {
  const index = draft.panels.findIndex((p) => p.id !== undefined && p.id === panel.id);
  const current = draft.panels[index];
  if (!current) {
    const { gridPos, ...rest } = panel;
    return appendPanel(
      draft,
      gridPos ? { ...rest, gridPos: { w: gridPos.w, h: gridPos.h } } : rest,
    );
  }
  const w = Math.min(Math.max(1, panel.gridPos?.w ?? current.gridPos.w), DASHBOARD_GRID_COLUMNS);
  const h = Math.min(Math.max(1, panel.gridPos?.h ?? current.gridPos.h), 100);
  const x = Math.min(current.gridPos.x, DASHBOARD_GRID_COLUMNS - w);
  const panels = [...draft.panels];
  panels[index] = { ...panel, gridPos: { x, y: current.gridPos.y, w, h } };
  return { ...draft, panels };
}

/** Whether a panel type name is one the contract knows (a URL may say anything). */
export const isPanelType = (type: string | null): type is Panel["type"] =>
  (PANEL_TYPES as readonly string[]).includes(type ?? "");

/** Tags as typed: comma-separated, trimmed, once each, at most 20. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(",").map((t) => t.trim()))].filter((t) => t !== "").slice(0, 20);
}

/** What this tab keeps of unsaved edits: the draft and the version it was made on. */
interface StoredDraft {
  version: number;
  draft: DashboardDraft;
  at: string;
}

const storageKey = (dashboardId: string) => `vigil:dashboard-draft:${dashboardId}`;

export function storeDraft(
  dashboardId: string,
  version: number,
  draft: DashboardDraft | null,
): void {
  try {
    if (draft === null) sessionStorage.removeItem(storageKey(dashboardId));
    else
      sessionStorage.setItem(
        storageKey(dashboardId),
        JSON.stringify({ version, draft, at: new Date().toISOString() } satisfies StoredDraft),
      );
  } catch {
    // Storage refused (private mode, quota): the edits live only in the page.
  }
}

/** The unsaved edits this tab kept for a dashboard, if any (unreadable ones are dropped). */
export function storedDraft(dashboardId: string): StoredDraft | null {
  try {
    const text = sessionStorage.getItem(storageKey(dashboardId));
    if (!text) return null;
    const value = JSON.parse(text) as Partial<StoredDraft>;
    if (typeof value.version !== "number" || typeof value.at !== "string" || !value.draft)
      return null;
    if (!Array.isArray(value.draft.panels) || !Array.isArray(value.draft.rows)) return null;
    return { version: value.version, draft: value.draft, at: value.at };
  } catch {
    return null;
  }
}
