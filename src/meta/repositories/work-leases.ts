import { type Kysely, sql } from "kysely";
import type { HeldLease, LeaseFence, LeaseKind, WorkLeasePort } from "../../lib/work-lease-port.js";
import type { MetaSchema } from "../schema.js";
import { isSqlite, parametersFor, runStatement, slices } from "./raw-sql.js";

export type { HeldLease, LeaseFence, LeaseKind } from "../../lib/work-lease-port.js";

/** The lease port and what only the engines and diagnostics use: the fenced write and a listing. */
export interface WorkLeaseRepository extends WorkLeasePort {
  advance(fence: LeaseFence): Promise<boolean>;
  list(kind: LeaseKind): Promise<(HeldLease & { owner: string | null })[]>;
}

const CHUNK = 500;

const toHeld = (row: {
  entity_id: string;
  token: number | string;
  last_slot: number | string;
}) => ({
  entityId: row.entity_id,
  token: Number(row.token),
  lastSlot: Number(row.last_slot),
});

// Every fenced record runs it, so it is SQL text (see raw-sql.ts), in a function made once that
// the repository's method calls (docs/monitors.md, "Hot functions").
async function advanceLease(db: Kysely<MetaSchema>, fence: LeaseFence): Promise<boolean> {
  const p = parametersFor(db);
  const { changed } = await runStatement(
    db,
    `UPDATE work_leases SET last_slot = ${p(fence.slot)}
     WHERE kind = ${p(fence.kind)} AND entity_id = ${p(fence.entityId)}
       AND owner = ${p(fence.owner)} AND token = ${p(fence.token)}
       AND last_slot < ${p(fence.slot)}`,
    p,
  );
  return changed > 0;
}

/**
 * Work leases (migration 0008). A lease holds while its owner's heartbeat does: a worker renews
 * its whole share by renewing one `workers` row, and a dead worker's leases are free once its
 * heartbeat runs out. Times are ISO strings from the workers' clocks; correctness does not depend
 * on them agreeing, because every write under a lease is fenced by its token: a worker whose
 * lease was taken over can no longer record anything. Clocks only decide how soon a silent
 * worker's share is taken over.
 */
export function createWorkLeaseRepository(db: Kysely<MetaSchema>): WorkLeaseRepository {
  const sqlite = () => isSqlite(db);
  return {
    /**
     * Records that this worker is alive until `expiresAt`, drops workers that stopped renewing,
     * and resolves with how many workers of this kind are alive (this one included).
     */
    async heartbeat(kind: LeaseKind, workerId: string, now: string, expiresAt: string) {
      await db
        .insertInto("workers")
        .values({ id: workerId, kind, started_at: now, expires_at: expiresAt })
        .onConflict((oc) => oc.columns(["id", "kind"]).doUpdateSet({ expires_at: expiresAt }))
        .execute();
      await db
        .deleteFrom("workers")
        .where("kind", "=", kind)
        .where("expires_at", "<=", now)
        .execute();
      const row = await db
        .selectFrom("workers")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("kind", "=", kind)
        .executeTakeFirstOrThrow();
      return Math.max(1, Number(row.n));
    },
    /** Leaves: frees this worker's leases at once (a clean shutdown hands work over without waiting). */
    async leave(kind: LeaseKind, workerId: string): Promise<void> {
      await db
        .updateTable("work_leases")
        .set({ owner: null })
        .where("kind", "=", kind)
        .where("owner", "=", workerId)
        .execute();
      await db.deleteFrom("workers").where("id", "=", workerId).where("kind", "=", kind).execute();
    },
    /**
     * Makes the lease rows match the entities that exist: new ones get a free lease, leases of
     * entities gone (deleted, paused) are dropped. Resolves with the number of leases.
     */
    async reconcile(kind: LeaseKind, entityIds: readonly string[]): Promise<number> {
      const rows = await db
        .selectFrom("work_leases")
        .select("entity_id")
        .where("kind", "=", kind)
        .execute();
      const existing = new Set(rows.map((r) => r.entity_id));
      const wanted = new Set(entityIds);
      const missing = entityIds.filter((id) => !existing.has(id));
      const gone = [...existing].filter((id) => !wanted.has(id));
      for (const part of slices(missing, CHUNK)) {
        await db
          .insertInto("work_leases")
          .values(part.map((entity_id) => ({ kind, entity_id, owner: null })))
          .onConflict((oc) => oc.columns(["kind", "entity_id"]).doNothing())
          .execute();
      }
      for (const part of slices(gone, CHUNK)) {
        await db
          .deleteFrom("work_leases")
          .where("kind", "=", kind)
          .where("entity_id", "in", part)
          .execute();
      }
      return wanted.size;
    },
    /** The leases this worker holds (a read: the heartbeat is what keeps them). */
    async held(kind: LeaseKind, workerId: string): Promise<HeldLease[]> {
      const rows = await db
        .selectFrom("work_leases")
        .select(["entity_id", "token", "last_slot"])
        .where("kind", "=", kind)
        .where("owner", "=", workerId)
        .execute();
      return rows.map(toHeld);
    },
    /**
     * Claims up to `limit` leases that are free or whose owner's heartbeat ran out, raising each
     * one's token. Two claimers never get the same lease: SQLite has one writer; PostgreSQL locks
     * the chosen rows and skips rows another claimer holds (FOR UPDATE SKIP LOCKED), re-checking
     * each row's latest version.
     */
    async claim(
      kind: LeaseKind,
      workerId: string,
      now: string,
      limit: number,
    ): Promise<HeldLease[]> {
      if (limit <= 0) return [];
      const free = sql`kind = ${kind} AND (owner IS NULL OR NOT EXISTS (
        SELECT 1 FROM workers w WHERE w.id = work_leases.owner AND w.kind = ${kind} AND w.expires_at > ${now}
      ))`;
      const set = sql`owner = ${workerId}, token = token + 1`;
      const query = sqlite()
        ? sql<{ entity_id: string; token: number; last_slot: number }>`
          UPDATE work_leases SET ${set} WHERE kind = ${kind} AND entity_id IN (
            SELECT entity_id FROM work_leases WHERE ${free} ORDER BY entity_id LIMIT ${limit}
          ) RETURNING entity_id, token, last_slot`
        : sql<{ entity_id: string; token: string; last_slot: string }>`
          WITH chosen AS (
            SELECT kind, entity_id FROM work_leases WHERE ${free}
            ORDER BY entity_id LIMIT ${limit} FOR UPDATE SKIP LOCKED
          )
          UPDATE work_leases AS l SET ${set} FROM chosen
          WHERE l.kind = chosen.kind AND l.entity_id = chosen.entity_id
          RETURNING l.entity_id, l.token, l.last_slot`;
      const result = await query.execute(db);
      return result.rows.map(toHeld);
    },
    /** Gives leases back (only those this worker still holds under these tokens). */
    async release(kind: LeaseKind, workerId: string, leases: readonly HeldLease[]): Promise<void> {
      // A statement per 500: handing back half of 20,000 leases must not take a round's time.
      for (const part of slices(leases, CHUNK)) {
        await db
          .updateTable("work_leases")
          .set({ owner: null })
          .where("kind", "=", kind)
          .where("owner", "=", workerId)
          .where((eb) =>
            eb.or(
              part.map((lease) =>
                eb.and([eb("entity_id", "=", lease.entityId), eb("token", "=", lease.token)]),
              ),
            ),
          )
          .execute();
      }
    },
    /**
     * The fenced write: records `slot` as run, only while the lease is still this worker's under
     * the same token and the slot was not recorded before. Meant to run inside the transaction
     * that records the run, so the run and the lease move together or not at all.
     */
    advance: (fence: LeaseFence) => advanceLease(db, fence),
    /** Every lease of a kind (diagnostics and tests). */
    async list(kind: LeaseKind) {
      const rows = await db
        .selectFrom("work_leases")
        .selectAll()
        .where("kind", "=", kind)
        .orderBy("entity_id")
        .execute();
      return rows.map((r) => ({ ...toHeld(r), owner: r.owner }));
    },
  };
}
