import type { Ctx, DomainDeps } from "../context.js";
import {
  type DashboardTemplateView,
  type DashboardView,
  InstallTemplateInput,
} from "../contracts/dashboards.js";
import { NotFoundError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import { requireProject } from "../projects/projects.js";
import type { TqlService } from "../tql/tql-service.js";
import { createDashboard } from "./dashboards.js";
import { DASHBOARD_TEMPLATES, findTemplate, type ParsedTemplate } from "./templates/index.js";

// The template gallery (docs/dashboard-templates.md): the dashboards Vigil ships, whether a
// project has the data each charts, and installing one as an ordinary dashboard of the project.

/** What the gallery's verbs need: the store, and TQL to look for each template's data. */
export type TemplateCtx = Ctx<DomainDeps & { tql: TqlService }>;

/** How long a project's "has data" answers are reused: opening the gallery twice costs one query. */
export const HAS_DATA_TTL_MS = 30_000;

type DataFound = ReadonlyMap<string, boolean | null>;
/** Per TQL service (one per process), per project: the answers and when they were asked. */
const cachesByService = new WeakMap<
  TqlService,
  Map<string, { at: number; found: Promise<DataFound> }>
>();

/**
 * Every template's data check in one query (one engine round, one place in the project's TQL
 * admission): each check answers a row when its data exists, so the union names the templates
 * with data. A failure leaves every answer unknown (null) rather than failing the gallery.
 */
async function findData(tql: TqlService, projectId: string): Promise<DataFound> {
  const union = DASHBOARD_TEMPLATES.map(
    (t) => `SELECT '${t.id}' AS template FROM (${t.dataCheck}) LIMIT 1`,
  ).join(" UNION ALL ");
  try {
    const result = await tql.query(projectId, union, { waitForTurn: true });
    const found = new Set(result.rows.map((row) => String(row[0])));
    return new Map(DASHBOARD_TEMPLATES.map((t) => [t.id, found.has(t.id)]));
  } catch {
    return new Map(DASHBOARD_TEMPLATES.map((t) => [t.id, null]));
  }
}

function dataOf(ctx: TemplateCtx, projectId: string): Promise<DataFound> {
  const { tql } = ctx.deps;
  let cache = cachesByService.get(tql);
  if (!cache) {
    cache = new Map();
    cachesByService.set(tql, cache);
  }
  const now = ctx.deps.clock.now().getTime();
  const cached = cache.get(projectId);
  if (cached && now - cached.at < HAS_DATA_TTL_MS) return cached.found;
  // Old answers go first, so the cache holds only projects asked within the TTL.
  for (const [id, entry] of cache) if (now - entry.at >= HAS_DATA_TTL_MS) cache.delete(id);
  const found = findData(tql, projectId);
  cache.set(projectId, { at: now, found });
  return found;
}

const toView = (template: ParsedTemplate, hasData: boolean | null): DashboardTemplateView => ({
  id: template.id,
  title: template.title,
  description: template.description,
  tags: template.tags,
  panelCount: template.dashboard.panels.length,
  hasData,
  howToSend: template.howToSend,
});

/** The templates, each with whether the project has sent its data (any member, viewers included). */
export async function listDashboardTemplates({
  ctx,
  projectId,
}: {
  ctx: TemplateCtx;
  projectId: string;
}): Promise<DashboardTemplateView[]> {
  await requireProject({ ctx, projectId, access: "read" });
  const found = await dataOf(ctx, projectId);
  return DASHBOARD_TEMPLATES.map((t) => toView(t, found.get(t.id) ?? null));
}

/**
 * Installs a template as a new dashboard of the project (members and above), named after the
 * template unless `input.title` says otherwise; the dashboard remembers the template's id and is
 * then the project's own to edit.
 */
export async function installDashboardTemplate({
  ctx,
  projectId,
  templateId,
  input,
}: {
  ctx: Ctx;
  projectId: string;
  templateId: string;
  input: unknown;
}): Promise<DashboardView> {
  await requireProject({ ctx, projectId, access: "write" });
  const { title } = parseInput(InstallTemplateInput, input ?? {});
  const template = findTemplate(templateId);
  if (!template) throw new NotFoundError("Dashboard template", templateId);
  const { schemaVersion: _version, ...body } = template.dashboard;
  return createDashboard({
    ctx,
    projectId,
    input: { ...body, ...(title ? { title } : {}) },
    templateId: template.id,
  });
}
