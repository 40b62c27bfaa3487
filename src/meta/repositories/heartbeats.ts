import type { Kysely, Selectable } from "kysely";
import type { MetaSchema } from "../schema.js";
import type { MonitorHeartbeatsTable } from "../tables/heartbeats.js";

/** A heartbeat monitor's ping token and deadline (migration 0020). */
export interface HeartbeatRecord {
  monitorId: string;
  /** Hex sha-256 of the ping token. */
  tokenHash: string;
  /** The token sealed with the server key. */
  tokenSealed: string;
  lastPingAt: string | null;
  /** The last /start not yet followed by a success or failure ping. */
  startedAt: string | null;
  /** When a missing ping is recorded next; null while the monitor is paused. */
  nextDeadlineAt: string | null;
  createdAt: string;
}

/** A heartbeat whose deadline passed, as the watcher reads it. */
export interface DueHeartbeat {
  monitorId: string;
  nextDeadlineAt: string;
  lastPingAt: string | null;
  createdAt: string;
}

const toRecord = (row: Selectable<MonitorHeartbeatsTable>): HeartbeatRecord => ({
  monitorId: row.monitor_id,
  tokenHash: row.token_hash,
  tokenSealed: row.token_sealed,
  lastPingAt: row.last_ping_at,
  startedAt: row.started_at,
  nextDeadlineAt: row.next_deadline_at,
  createdAt: row.created_at,
});

const CHUNK = 500;

export function createHeartbeatRepository(db: Kysely<MetaSchema>) {
  return {
    async insert(heartbeat: HeartbeatRecord): Promise<void> {
      await db
        .insertInto("monitor_heartbeats")
        .values({
          monitor_id: heartbeat.monitorId,
          token_hash: heartbeat.tokenHash,
          token_sealed: heartbeat.tokenSealed,
          last_ping_at: heartbeat.lastPingAt,
          started_at: heartbeat.startedAt,
          next_deadline_at: heartbeat.nextDeadlineAt,
          created_at: heartbeat.createdAt,
        })
        .execute();
    },
    async findByMonitorId(monitorId: string): Promise<HeartbeatRecord | undefined> {
      const row = await db
        .selectFrom("monitor_heartbeats")
        .selectAll()
        .where("monitor_id", "=", monitorId)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /** The heartbeats of these monitors (monitors without one are left out). */
    async findByMonitorIds(monitorIds: readonly string[]): Promise<HeartbeatRecord[]> {
      const out: HeartbeatRecord[] = [];
      for (let at = 0; at < monitorIds.length; at += CHUNK) {
        const rows = await db
          .selectFrom("monitor_heartbeats")
          .selectAll()
          .where("monitor_id", "in", monitorIds.slice(at, at + CHUNK))
          .execute();
        out.push(...rows.map(toRecord));
      }
      return out;
    },
    /**
     * The heartbeat a ping token's digest belongs to (an index lookup), with its monitor's status
     * and definition: all a ping reads before its record.
     */
    async findByTokenHash(
      tokenHash: string,
    ): Promise<(HeartbeatRecord & { status: string; definition: unknown }) | undefined> {
      const row = await db
        .selectFrom("monitor_heartbeats as h")
        .innerJoin("monitors as m", "m.id", "h.monitor_id")
        .selectAll("h")
        .select(["m.status", "m.definition"])
        .where("h.token_hash", "=", tokenHash)
        .executeTakeFirst();
      return (
        row && { ...toRecord(row), status: row.status, definition: JSON.parse(row.definition) }
      );
    },
    /** A success or failure ping: the last ping, no start pending, the next deadline. */
    async recordPing(monitorId: string, at: string, nextDeadlineAt: string): Promise<void> {
      await db
        .updateTable("monitor_heartbeats")
        .set({ last_ping_at: at, started_at: null, next_deadline_at: nextDeadlineAt })
        .where("monitor_id", "=", monitorId)
        .execute();
    },
    /** A /start ping: the job began (the next success or failure ping's duration runs from it). */
    async recordStart(monitorId: string, at: string): Promise<void> {
      await db
        .updateTable("monitor_heartbeats")
        .set({ started_at: at })
        .where("monitor_id", "=", monitorId)
        .execute();
    },
    /** Sets the deadline (a resume or an edit of the period), or clears it (a pause). */
    async setDeadline(monitorId: string, nextDeadlineAt: string | null): Promise<void> {
      await db
        .updateTable("monitor_heartbeats")
        .set({ next_deadline_at: nextDeadlineAt })
        .where("monitor_id", "=", monitorId)
        .execute();
    },
    /**
     * Up to `limit` heartbeats of active monitors whose deadline is at or before `now`, the most
     * overdue first (an index range on next_deadline_at).
     */
    async listDue(now: string, limit: number): Promise<DueHeartbeat[]> {
      const rows = await db
        .selectFrom("monitor_heartbeats as h")
        .innerJoin("monitors as m", "m.id", "h.monitor_id")
        .select(["h.monitor_id", "h.next_deadline_at", "h.last_ping_at", "h.created_at"])
        .where("h.next_deadline_at", "<=", now)
        .where("m.status", "=", "active")
        .orderBy("h.next_deadline_at")
        .limit(limit)
        .execute();
      return rows.flatMap((r) =>
        r.next_deadline_at === null
          ? []
          : [
              {
                monitorId: r.monitor_id,
                nextDeadlineAt: r.next_deadline_at,
                lastPingAt: r.last_ping_at,
                createdAt: r.created_at,
              },
            ],
      );
    },
    /**
     * The fence of a missed-ping record: moves the deadline from `seen` to `next` only while it
     * is still `seen`, so of several watchers that saw the same deadline exactly one records it
     * (run in the record's transaction, after the monitor's row lock).
     */
    async advanceDeadline(monitorId: string, seen: string, next: string): Promise<boolean> {
      const result = await db
        .updateTable("monitor_heartbeats")
        .set({ next_deadline_at: next })
        .where("monitor_id", "=", monitorId)
        .where("next_deadline_at", "=", seen)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
export type HeartbeatRepository = ReturnType<typeof createHeartbeatRepository>;
