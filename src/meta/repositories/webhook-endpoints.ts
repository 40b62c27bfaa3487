import type { Kysely } from "kysely";
import type { MetaSchema, WebhookEndpointRow } from "../schema.js";
import { parametersFor, runStatement } from "./raw-sql.js";

/** A stored webhook endpoint; its signing secret stays sealed. */
export interface WebhookEndpointRecord {
  id: string;
  projectId: string;
  url: string;
  events: string[];
  isActive: boolean;
  /** The signing secret, sealed with the server key (SecretBox). */
  secret: string;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export type WebhookEndpointChange = Partial<
  Pick<WebhookEndpointRecord, "url" | "events" | "isActive">
> &
  Pick<WebhookEndpointRecord, "updatedAt">;

function parseEvents(text: string): string[] {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

const toRecord = (row: WebhookEndpointRow): WebhookEndpointRecord => ({
  id: row.id,
  projectId: row.project_id,
  url: row.url,
  events: parseEvents(row.events),
  isActive: Number(row.is_active) === 1,
  secret: row.secret,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function createWebhookEndpointRepository(db: Kysely<MetaSchema>) {
  return {
    async insert(endpoint: WebhookEndpointRecord): Promise<WebhookEndpointRecord> {
      await db
        .insertInto("webhook_endpoints")
        .values({
          id: endpoint.id,
          project_id: endpoint.projectId,
          url: endpoint.url,
          events: JSON.stringify(endpoint.events),
          is_active: endpoint.isActive ? 1 : 0,
          secret: endpoint.secret,
          created_by: endpoint.createdBy,
          created_at: endpoint.createdAt,
          updated_at: endpoint.updatedAt,
        })
        .execute();
      return endpoint;
    },
    async findById(id: string): Promise<WebhookEndpointRecord | undefined> {
      const row = await db
        .selectFrom("webhook_endpoints")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /**
     * These endpoints (e.g. those of a batch of deliveries), in no particular order. Runs for
     * every claim and hand-over, so it is SQL text (the query builder costs more than the read).
     */
    async findByIds(ids: readonly string[]): Promise<WebhookEndpointRecord[]> {
      if (ids.length === 0) return [];
      const p = parametersFor(db);
      const list = ids.map((id) => p(id)).join(", ");
      const { rows } = await runStatement<WebhookEndpointRow>(
        db,
        `SELECT * FROM webhook_endpoints WHERE id IN (${list})`,
        p,
      );
      return rows.map(toRecord);
    },
    /** A project's endpoints, oldest first. */
    async listByProject(projectId: string): Promise<WebhookEndpointRecord[]> {
      const rows = await db
        .selectFrom("webhook_endpoints")
        .selectAll()
        .where("project_id", "=", projectId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(toRecord);
    },
    /**
     * The project's enabled endpoints subscribed to this event type, in no particular order.
     * Runs for every published event, so it is SQL text; the publisher hands the records to the
     * deliverer with the deliveries, which spares it reading them again.
     */
    async listSubscribers(projectId: string, event: string): Promise<WebhookEndpointRecord[]> {
      const p = parametersFor(db);
      const { rows } = await runStatement<WebhookEndpointRow>(
        db,
        `SELECT * FROM webhook_endpoints WHERE project_id = ${p(projectId)} AND is_active = 1`,
        p,
      );
      const subscribed: WebhookEndpointRecord[] = [];
      for (const row of rows) {
        const endpoint = toRecord(row);
        if (endpoint.events.includes(event)) subscribed.push(endpoint);
      }
      return subscribed;
    },
    async countByProject(projectId: string): Promise<number> {
      const row = await db
        .selectFrom("webhook_endpoints")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("project_id", "=", projectId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** Writes the given fields only; false when the endpoint no longer exists. */
    async update(id: string, change: WebhookEndpointChange): Promise<boolean> {
      const result = await db
        .updateTable("webhook_endpoints")
        .set({
          ...(change.url === undefined ? {} : { url: change.url }),
          ...(change.events === undefined ? {} : { events: JSON.stringify(change.events) }),
          ...(change.isActive === undefined ? {} : { is_active: change.isActive ? 1 : 0 }),
          updated_at: change.updatedAt,
        })
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Deletes the endpoint; its deliveries and attempt log go with it (foreign keys cascade). */
    async delete(id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("webhook_endpoints")
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
export type WebhookEndpointRepository = ReturnType<typeof createWebhookEndpointRepository>;
