import type { Clock } from "../lib/clock.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { StatusPageRecord } from "../meta/repositories/status-pages.js";
import type { StatusPageData } from "./model.js";
import { buildStatusPageData } from "./public-data.js";

/**
 * How long a built payload is served before it is built again even though nothing changed: the
 * history's "today" and uptime counts move with checks, which do not bump the data version.
 */
export const STATUS_PAGE_MAX_AGE_MS = 30_000;

/** One page's payload as built at one data version, and what was rendered from it. */
export interface CachedStatusPage {
  page: StatusPageRecord;
  data: StatusPageData;
  /** Strong validator of this build: data version and build time. */
  etag: string;
  builtAtMs: number;
  /** Renders of this payload (HTML, JSON, feeds, badges, compressed), each made once. */
  memo<T extends string | Buffer>(key: string, make: () => T): T;
}

/**
 * Public reads of status pages: one indexed read by slug per request (the page row with its
 * data_version), and the payload built at most once per version and STATUS_PAGE_MAX_AGE_MS.
 * Keyed on the stored version, so several nodes never serve a change another one made for long.
 */
export interface StatusPageReader {
  bySlug(slug: string): Promise<CachedStatusPage | undefined>;
  /** A page already loaded (the /v1 routes, after their organization check). */
  of(page: StatusPageRecord): Promise<CachedStatusPage>;
}

const MAX_CACHED_PAGES = 1000;
const MAX_RENDERS = 64;

export function createStatusPageReader(deps: {
  meta: MetaAccess;
  clock: Clock;
  maxAgeMs?: number;
}): StatusPageReader {
  const maxAge = deps.maxAgeMs ?? STATUS_PAGE_MAX_AGE_MS;
  const cache = new Map<string, Promise<CachedStatusPage>>();

  async function build(page: StatusPageRecord): Promise<CachedStatusPage> {
    const now = deps.clock.now();
    const data = await buildStatusPageData(deps.meta, page, now);
    const renders = new Map<string, string | Buffer>();
    return {
      page,
      data,
      etag: `"${page.id}-${page.dataVersion}-${now.getTime().toString(36)}"`,
      builtAtMs: now.getTime(),
      memo<T extends string | Buffer>(key: string, make: () => T): T {
        const kept = renders.get(key) as T | undefined;
        if (kept !== undefined) return kept;
        const made = make();
        // Keys carry request input (origin, badge label): past a few, make without keeping.
        if (renders.size < MAX_RENDERS) renders.set(key, made);
        return made;
      },
    };
  }

  async function of(page: StatusPageRecord): Promise<CachedStatusPage> {
    const cached = cache.get(page.id);
    if (cached) {
      const entry = await cached.catch(() => undefined);
      const fresh =
        entry &&
        entry.page.dataVersion === page.dataVersion &&
        entry.page.slug === page.slug &&
        deps.clock.now().getTime() - entry.builtAtMs < maxAge;
      if (fresh) return entry;
      // Another request may already be building the newer one.
      if (cache.get(page.id) !== cached) return of(page);
    }
    // Concurrent requests for a stale page share one build.
    const building = build(page);
    cache.delete(page.id);
    if (cache.size >= MAX_CACHED_PAGES) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(page.id, building);
    building.catch(() => {
      if (cache.get(page.id) === building) cache.delete(page.id);
    });
    return building;
  }

  return {
    of,
    async bySlug(slug) {
      const page = await deps.meta.repos.statusPages.findBySlug(slug);
      return page ? of(page) : undefined;
    },
  };
}
