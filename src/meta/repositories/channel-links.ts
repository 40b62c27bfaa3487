import { type Kysely, sql } from "kysely";
import type { MetaSchema } from "../schema.js";

/** A table linking an owner (a monitor, an alert rule) to the notification channels it notifies. */
type LinkTable =
  | { table: "monitor_channels"; owner: "monitor_id" }
  | { table: "alert_rule_channels"; owner: "rule_id" };

/** Reads and replaces owners' channel ids in one link table; bound to the db or a transaction. */
export interface ChannelLinks {
  /** Each owner's channel ids, sorted; owners without channels are absent. */
  of(ownerIds: readonly string[]): Promise<Map<string, string[]>>;
  /** Replaces the owner's channels with these. */
  set(ownerId: string, channelIds: readonly string[]): Promise<void>;
  /** Attaches each row's channel ids to its record. */
  attach<R extends { id: string }, T>(
    rows: readonly R[],
    toRecord: (row: R, channelIds: string[]) => T,
  ): Promise<T[]>;
}

export function channelLinks(db: Kysely<MetaSchema>, { table, owner }: LinkTable): ChannelLinks {
  const links: ChannelLinks = {
    async of(ownerIds) {
      const byOwner = new Map<string, string[]>();
      if (ownerIds.length === 0) return byOwner;
      const { rows } = await sql<{ owner_id: string; channel_id: string }>`
        select ${sql.ref(owner)} as owner_id, channel_id from ${sql.table(table)}
        where ${sql.ref(owner)} in (${sql.join(ownerIds)}) order by channel_id`.execute(db);
      for (const row of rows) {
        const list = byOwner.get(row.owner_id) ?? [];
        list.push(row.channel_id);
        byOwner.set(row.owner_id, list);
      }
      return byOwner;
    },
    async set(ownerId, channelIds) {
      await sql`delete from ${sql.table(table)} where ${sql.ref(owner)} = ${ownerId}`.execute(db);
      if (channelIds.length === 0) return;
      const values = channelIds.map((channelId) => sql`(${ownerId}, ${channelId})`);
      await sql`insert into ${sql.table(table)} (${sql.ref(owner)}, channel_id)
        values ${sql.join(values)}`.execute(db);
    },
    async attach(rows, toRecord) {
      const channels = await links.of(rows.map((row) => row.id));
      return rows.map((row) => toRecord(row, channels.get(row.id) ?? []));
    },
  };
  return links;
}
