import type { Ctx } from "../context.js";
import {
  DASHBOARD_SCHEMA_VERSION,
  DashboardExport,
  type DashboardView,
} from "../contracts/dashboards.js";
import { parseInput } from "../lib/validation.js";
import { requireProject } from "../projects/projects.js";
import { bodyOf, requireDocumentSize } from "./dashboard-documents.js";
import { createDashboard, requireDashboard } from "./dashboards.js";

// The export file (docs/dashboards.md): the body and the format's version, nothing of the
// project, ids or people it came from, so it can be imported anywhere.

type DashboardArgs = { ctx: Ctx; projectId: string; dashboardId: string };

/** The dashboard as an export file (any member, viewers included). */
export async function exportDashboard({
  ctx,
  projectId,
  dashboardId,
}: DashboardArgs): Promise<DashboardExport> {
  await requireProject({ ctx, projectId, access: "read" });
  const record = await requireDashboard(ctx, projectId, dashboardId);
  return { schemaVersion: DASHBOARD_SCHEMA_VERSION, ...bodyOf(record) };
}

/**
 * A new dashboard from an export file (members and above). The file is held to the same schema
 * as a save, strictly: another `schemaVersion`, an unknown panel type or any field the format
 * does not have is a 400 naming its path; a file over the document limit is a 413. Text panels'
 * Markdown is kept as written: the web renders it sanitized.
 */
export async function importDashboard({
  ctx,
  projectId,
  input,
}: {
  ctx: Ctx;
  projectId: string;
  input: unknown;
}): Promise<DashboardView> {
  await requireProject({ ctx, projectId, access: "write" });
  const { schemaVersion: _version, ...body } = parseInput(DashboardExport, input);
  requireDocumentSize(body);
  return createDashboard({ ctx, projectId, input: body });
}
