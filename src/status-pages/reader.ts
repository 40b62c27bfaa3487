import type { StatusPageData } from "../contracts/status-page-data.js";
import type { Clock } from "../lib/clock.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { StatusPageRecord } from "../meta/repositories/status-pages.js";
import { utcDay } from "./history.js";
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
  memo(key: string, make: () => Buffer): Buffer;
}

/**
 * Public reads of status pages: one indexed read by slug per request (the page row with its
 * data_version), and the payload built once per version. A build older than
 * STATUS_PAGE_MAX_AGE_MS (today's counts move without a version) is served on while a newer one
 * builds in the background, up to twice that age, so on a busy page no request waits for a
 * rebuild unless the version moved.
 * Keyed on the stored version, so several nodes never serve a change another one made.
 */
export interface StatusPageReader {
  bySlug(slug: string): Promise<CachedStatusPage | undefined>;
  /** A page already loaded (the /v1 routes, after their organization check). */
  of(page: StatusPageRecord): Promise<CachedStatusPage>;
}

const MAX_CACHED_PAGES = 1000;
const MAX_RENDERS = 64;

interface Slot {
  /** The newest finished build. */
  ready?: CachedStatusPage;
  /** A build under way, shared by every request that waits for it. */
  building?: Promise<CachedStatusPage>;
}

export function createStatusPageReader(deps: {
  meta: MetaAccess;
  clock: Clock;
  maxAgeMs?: number;
}): StatusPageReader {
  const maxAge = deps.maxAgeMs ?? STATUS_PAGE_MAX_AGE_MS;
  const slots = new Map<string, Slot>();

  async function build(page: StatusPageRecord): Promise<CachedStatusPage> {
    const now = deps.clock.now();
    const data = await buildStatusPageData(deps.meta, page, now);
    const renders = new Map<string, Buffer>();
    return {
      page,
      data,
      etag: `"${page.id}-${page.dataVersion}-${now.getTime().toString(36)}"`,
      builtAtMs: now.getTime(),
      memo(key, make) {
        const kept = renders.get(key);
        if (kept !== undefined) return kept;
        const made = make();
        // Keys carry request input (the badge's label): past a few, make without keeping.
        if (renders.size < MAX_RENDERS) renders.set(key, made);
        return made;
      },
    };
  }

  /** Starts a build of the page (one at a time per page) and files it when done. */
  function rebuild(page: StatusPageRecord, slot: Slot): Promise<CachedStatusPage> {
    if (slot.building) return slot.building;
    const building = build(page).finally(() => {
      if (slot.building === building) delete slot.building;
    });
    slot.building = building;
    building.then(
      (entry) => {
        if (!slot.ready || slot.ready.page.dataVersion <= entry.page.dataVersion)
          slot.ready = entry;
      },
      () => undefined,
    );
    return building;
  }

  function slotOf(pageId: string): Slot {
    let slot = slots.get(pageId);
    if (!slot) {
      if (slots.size >= MAX_CACHED_PAGES) {
        const oldest = slots.keys().next().value;
        if (oldest !== undefined) slots.delete(oldest);
      }
      slot = {};
      slots.set(pageId, slot);
    }
    return slot;
  }

  async function of(page: StatusPageRecord): Promise<CachedStatusPage> {
    const slot = slotOf(page.id);
    const { ready } = slot;
    // A build of another UTC day is never served: its history ends on the wrong day.
    const nowMs = deps.clock.now().getTime();
    const current =
      ready &&
      ready.page.dataVersion === page.dataVersion &&
      ready.page.slug === page.slug &&
      utcDay(ready.builtAtMs) === utcDay(nowMs);
    if (!current) {
      // A building one may be of an older version: wait for it, then look again.
      const built = await (slot.building ?? rebuild(page, slot));
      const fresh =
        built.page.dataVersion >= page.dataVersion && utcDay(built.builtAtMs) === utcDay(nowMs);
      return fresh ? built : rebuild(page, slot);
    }
    const age = nowMs - ready.builtAtMs;
    if (age < maxAge) return ready;
    // A busy page is served on while the next build runs; a page nobody read for a while waits.
    if (age >= 2 * maxAge) return rebuild(page, slot);
    rebuild(page, slot).catch(() => undefined);
    return ready;
  }

  return {
    of,
    async bySlug(slug) {
      const page = await deps.meta.repos.statusPages.findBySlug(slug);
      return page ? of(page) : undefined;
    },
  };
}
