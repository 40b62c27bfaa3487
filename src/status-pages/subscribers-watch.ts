import type { Clock } from "../lib/clock.js";
import type { IdGenerator } from "../lib/ids.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { NewStatusPageNotification } from "../meta/repositories/status-page-notifications.js";
import type { StaleCursor } from "../meta/repositories/status-page-subscribers.js";
import { buildStatusPageData } from "./public-data.js";
import { followsAny, pageChanges, readSnapshot } from "./subscribers-changes.js";

// Turns what changed on watched pages into queued messages. A page is looked at when its data
// version moved past its cursor's; the cursor moves in the same transaction as the messages are
// queued, fenced on what was read, so two workers never queue a change twice.

const PAGES_PER_RUN = 50;

export interface WatchDeps {
  meta: MetaAccess;
  clock: Clock;
  newId: IdGenerator;
}

/** One page's changes queued for its confirmed subscribers; how many messages were queued. */
async function announcePage(deps: WatchDeps, cursor: StaleCursor): Promise<number> {
  const { meta, clock } = deps;
  const page = await meta.repos.statusPages.findById(cursor.pageId);
  if (!page) return 0;
  const now = clock.now();
  const at = now.toISOString();
  const from = { pageId: page.id, dataVersion: cursor.dataVersion, checkedAt: cursor.checkedAt };
  // Nobody to tell: the page is looked at afresh from now when someone confirms.
  if (cursor.confirmed === 0) {
    await meta.repos.statusPageSubscribers.advanceCursor(from, {
      dataVersion: page.dataVersion,
      snapshot: null,
      checkedAt: at,
    });
    return 0;
  }
  const [data, windows] = await Promise.all([
    buildStatusPageData(meta, page, now),
    meta.repos.statusPageMaintenances.listByPage(page.id),
  ]);
  const { announcements, snapshot } = pageChanges(
    readSnapshot(cursor.snapshot),
    cursor.checkedAt,
    data,
    windows,
    now,
  );
  return meta.transaction(async (tx) => {
    const moved = await tx.repos.statusPageSubscribers.advanceCursor(from, {
      dataVersion: page.dataVersion,
      snapshot: JSON.stringify(snapshot),
      checkedAt: at,
    });
    if (!moved || announcements.length === 0) return 0;
    const subscribers = await tx.repos.statusPageSubscribers.confirmedOf(page.id);
    const pageRef = { id: page.id, slug: page.slug, title: page.title };
    const rows: NewStatusPageNotification[] = announcements.flatMap((a) =>
      subscribers
        .filter((s) => followsAny(s.componentIds, a.componentIds))
        .map((s) => ({
          id: deps.newId("spn"),
          pageId: page.id,
          subscriberId: s.id,
          event: a.event,
          payload: { ...a, page: pageRef },
          createdAt: at,
        })),
    );
    await tx.repos.statusPageNotifications.insertMany(rows);
    return rows.length;
  });
}

/**
 * Looks at every page whose data moved since its subscribers were last told; messages queued. A
 * page that fails is reported and left for the next run, without holding up the others.
 */
export async function announceChanges(
  deps: WatchDeps & { onPageError?(pageId: string, error: unknown): void },
): Promise<number> {
  let queued = 0;
  for (const cursor of await deps.meta.repos.statusPageSubscribers.staleCursors(PAGES_PER_RUN))
    try {
      queued += await announcePage(deps, cursor);
    } catch (error) {
      deps.onPageError?.(cursor.pageId, error);
    }
  return queued;
}
