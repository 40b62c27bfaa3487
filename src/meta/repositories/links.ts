import { type Kysely, sql } from "kysely";
import type { MetaSchema } from "../schema.js";

/**
 * A table linking an owner to the items it names: a monitor or an alert rule to the channels it
 * notifies, a maintenance window or an incident to the status page components it covers.
 */
export type LinkTable =
  | { table: "monitor_channels"; owner: "monitor_id"; item: "channel_id" }
  | { table: "alert_rule_channels"; owner: "rule_id"; item: "channel_id" }
  | { table: "status_page_maintenance_components"; owner: "maintenance_id"; item: "component_id" }
  | { table: "status_page_incident_components"; owner: "incident_id"; item: "component_id" };

/** Reads and replaces owners' item ids in one link table; bound to the db or a transaction. */
export interface Links {
  /** Each owner's item ids, sorted; owners without items are absent. */
  of(ownerIds: readonly string[]): Promise<Map<string, string[]>>;
  /** Replaces the owner's items with these. */
  set(ownerId: string, itemIds: readonly string[]): Promise<void>;
  /** Attaches each row's item ids to its record. */
  attach<R extends { id: string }, T>(
    rows: readonly R[],
    toRecord: (row: R, itemIds: string[]) => T,
  ): Promise<T[]>;
}

export function links(db: Kysely<MetaSchema>, { table, owner, item }: LinkTable): Links {
  const self: Links = {
    async of(ownerIds) {
      const byOwner = new Map<string, string[]>();
      if (ownerIds.length === 0) return byOwner;
      const { rows } = await sql<{ owner_id: string; item_id: string }>`
        select ${sql.ref(owner)} as owner_id, ${sql.ref(item)} as item_id from ${sql.table(table)}
        where ${sql.ref(owner)} in (${sql.join(ownerIds)}) order by ${sql.ref(item)}`.execute(db);
      for (const row of rows) {
        const list = byOwner.get(row.owner_id) ?? [];
        list.push(row.item_id);
        byOwner.set(row.owner_id, list);
      }
      return byOwner;
    },
    async set(ownerId, itemIds) {
      await sql`delete from ${sql.table(table)} where ${sql.ref(owner)} = ${ownerId}`.execute(db);
      if (itemIds.length === 0) return;
      const values = itemIds.map((itemId) => sql`(${ownerId}, ${itemId})`);
      await sql`insert into ${sql.table(table)} (${sql.ref(owner)}, ${sql.ref(item)})
        values ${sql.join(values)}`.execute(db);
    },
    async attach(rows, toRecord) {
      const items = await self.of(rows.map((row) => row.id));
      return rows.map((row) => toRecord(row, items.get(row.id) ?? []));
    },
  };
  return self;
}
