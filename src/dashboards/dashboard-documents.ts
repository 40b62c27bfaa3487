import {
  DASHBOARD_MAX_DOCUMENT_BYTES,
  type DashboardBody,
  type DashboardSummary,
  type DashboardView,
} from "../contracts/dashboards.js";
import { PayloadTooLargeError } from "../lib/domain-errors.js";
import type { IdGenerator } from "../lib/ids.js";
import type {
  DashboardChange,
  DashboardRecord,
  DashboardSummaryRecord,
} from "../meta/repositories/dashboards.js";

// How a dashboard's body maps to its stored record and back: the title, description and tags are
// columns (lists read no document); the rest is the document.

/** What the `document` column holds: the body but its listed fields. */
type StoredDocument = Omit<DashboardBody, "title" | "description" | "tags">;

/** The body a record holds (validated when it was written). */
export function bodyOf(record: DashboardRecord): DashboardBody {
  const document = record.document as StoredDocument;
  return {
    title: record.title,
    description: record.description,
    tags: record.tags,
    timeRange: document.timeRange,
    refresh: document.refresh,
    variables: document.variables,
    panels: document.panels,
    rows: document.rows,
  };
}

/** The columns and document of a validated body, as a save writes them. */
export function changeOf(body: DashboardBody, updatedAt: string): DashboardChange {
  const { title, description, tags, ...document } = body;
  return { title, description, tags, panelCount: body.panels.length, document, updatedAt };
}

/**
 * Gives each panel and row without an id one of its own. The ids come back in the view and are
 * sent with the next save, so they stay the same from save to save (links and the web's layout
 * refer to them).
 */
export function withIds(body: DashboardBody, newId: IdGenerator): DashboardBody {
  return {
    ...body,
    panels: body.panels.map((panel) => (panel.id ? panel : { ...panel, id: newId("pnl") })),
    rows: body.rows.map((row) => (row.id ? row : { ...row, id: newId("row") })),
  };
}

/** Refuses a body larger than an export may be (413), whatever way it arrived. */
export function requireDocumentSize(body: DashboardBody): void {
  const bytes = Buffer.byteLength(JSON.stringify(body));
  if (bytes > DASHBOARD_MAX_DOCUMENT_BYTES)
    throw new PayloadTooLargeError(
      `The dashboard is ${bytes.toLocaleString("en-US")} bytes of JSON; at most ${DASHBOARD_MAX_DOCUMENT_BYTES.toLocaleString("en-US")} are kept`,
    );
}

export const toDashboardView = (record: DashboardRecord, starred: boolean): DashboardView => ({
  ...bodyOf(record),
  id: record.id,
  projectId: record.projectId,
  version: record.version,
  starred,
  templateId: record.templateId,
  createdBy: record.createdBy,
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
});

export const toDashboardSummary = (
  record: DashboardSummaryRecord,
  starred: boolean,
): DashboardSummary => ({
  id: record.id,
  title: record.title,
  description: record.description,
  tags: record.tags,
  version: record.version,
  starred,
  templateId: record.templateId,
  updatedAt: record.updatedAt,
  panelCount: record.panelCount,
});
