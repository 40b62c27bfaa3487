import { z } from "zod";
import type { Ctx, DomainDeps } from "../context.js";
import { type Page, pageInfo } from "../contracts/pagination.js";
import type { StatusPageSummary } from "../contracts/status-page-data.js";
import { PAGE_STATES, STATE_RANK } from "../contracts/status-pages.js";
import { NotFoundError } from "../lib/domain-errors.js";
import { listQuery, resolveWindow } from "../lib/list-params.js";
import type { StatusPageRecord } from "../meta/repositories/status-pages.js";
import type { CachedStatusPage, StatusPageReader } from "./reader.js";

// The /v1 status page reads: the pages of the key's project's organization.

/** What the /v1 reads need beside the base deps: the cached public builds and the public URL. */
export interface StatusPageReadDeps {
  reader: StatusPageReader;
  /** VIGIL_PUBLIC_URL: a page's `url` is absolute when it is set. */
  publicUrl: string | undefined;
}

type StatusPageReadCtx = Ctx<DomainDeps & { statusPageReads: StatusPageReadDeps }>;

export const LIST_STATUS_PAGE_SORTS = ["updated_at", "title", "slug", "status"] as const;

/** What each `sort_by` sorts on (ties by id). */
const SORT_KEYS: Record<
  (typeof LIST_STATUS_PAGE_SORTS)[number],
  (page: StatusPageRecord) => string | number
> = {
  updated_at: (p) => p.updatedAt,
  title: (p) => p.title.toLowerCase(),
  slug: (p) => p.slug,
  status: (p) => STATE_RANK[p.state],
};

/**
 * The shared list query (docs/design.md §4): `status`, the sorts, `page`/`limit` and the window
 * (`time_range`, `from`, `to`), which keeps the pages last changed in it: `updatedAt`, the time
 * of the last change only, is in it (a page changed in the window and again after it is left out).
 */
export const ListStatusPagesQuery = listQuery(LIST_STATUS_PAGE_SORTS, {
  status: z.enum(PAGE_STATES).optional().describe("Only pages in this state"),
});
export type ListStatusPagesQuery = z.infer<typeof ListStatusPagesQuery>;

/** The organization of the key's project: status pages belong to organizations. */
async function orgOfKey(ctx: Ctx): Promise<string> {
  if (ctx.actor.kind !== "api_key") throw new NotFoundError("Project", "(none)");
  const project = await ctx.deps.meta.repos.projects.findById(ctx.actor.projectId);
  if (!project) throw new NotFoundError("Project", ctx.actor.projectId);
  return project.orgId;
}

const publicPath = (slug: string, publicUrl: string | undefined) =>
  `${publicUrl ? publicUrl.replace(/\/+$/, "") : ""}/status/${slug}`;

/** GET /v1/status-pages: the key's organization's pages with their state and counts. */
export async function readStatusPages({
  ctx,
  query,
}: {
  ctx: StatusPageReadCtx;
  query: ListStatusPagesQuery;
}): Promise<Page<StatusPageSummary>> {
  const { reader, publicUrl } = ctx.deps.statusPageReads;
  const orgId = await orgOfKey(ctx);
  const window = resolveWindow(query, ctx.deps.clock.now().getTime());
  const changedIn = (p: StatusPageRecord) => {
    if (!window) return true;
    const at = Date.parse(p.updatedAt);
    return at >= window.fromMs && at < window.toMs;
  };
  const pages = (await ctx.deps.meta.repos.statusPages.listByOrg(orgId)).filter(
    (p) => (query.status === undefined || p.state === query.status) && changedIn(p),
  );
  const key = SORT_KEYS[query.sort_by];
  const direction = query.sort_order === "asc" ? 1 : -1;
  pages.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return (x < y ? -1 : x > y ? 1 : a.id.localeCompare(b.id)) * direction;
  });
  const slice = pages.slice((query.page - 1) * query.limit, query.page * query.limit);
  const data = await Promise.all(
    slice.map(async (page): Promise<StatusPageSummary> => {
      const { data } = await reader.of(page);
      return {
        id: page.id,
        slug: page.slug,
        title: page.title,
        description: page.description,
        status: page.state,
        url: publicPath(page.slug, publicUrl),
        components: data.services.length,
        activeIncidents: data.activeIncidents.length,
        updatedAt: page.updatedAt,
      };
    }),
  );
  return { data, pagination: pageInfo(query, pages.length) };
}

/**
 * GET /v1/status-pages/:slug/data: the public payload of one of the organization's pages, as
 * the reader built it (the route sends its cached serialization).
 */
export async function readStatusPageData({
  ctx,
  slug,
}: {
  ctx: StatusPageReadCtx;
  slug: string;
}): Promise<CachedStatusPage> {
  const orgId = await orgOfKey(ctx);
  const page = await ctx.deps.meta.repos.statusPages.findBySlug(slug);
  // Another organization's page is as unknown as a missing one.
  if (!page || page.orgId !== orgId) throw new NotFoundError("Status page", slug);
  return ctx.deps.statusPageReads.reader.of(page);
}
