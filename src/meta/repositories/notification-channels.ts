import type { Kysely } from "kysely";
import type { MetaSchema, NotificationChannelRow } from "../schema.js";

/** A stored notification channel: public settings as parsed JSON, secret settings still sealed. */
export interface NotificationChannelRecord {
  id: string;
  projectId: string;
  name: string;
  type: string;
  config: Record<string, unknown>;
  /** The sealed secret settings (SecretBox), or null when the type has none. */
  secret: string | null;
  createdAt: string;
  updatedAt: string;
}

function parseConfig(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

const toRecord = (row: NotificationChannelRow): NotificationChannelRecord => ({
  id: row.id,
  projectId: row.project_id,
  name: row.name,
  type: row.type,
  config: parseConfig(row.config),
  secret: row.secret,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function createNotificationChannelRepository(db: Kysely<MetaSchema>) {
  return {
    async insert(channel: NotificationChannelRecord): Promise<NotificationChannelRecord> {
      await db
        .insertInto("notification_channels")
        .values({
          id: channel.id,
          project_id: channel.projectId,
          name: channel.name,
          type: channel.type,
          config: JSON.stringify(channel.config),
          secret: channel.secret,
          created_at: channel.createdAt,
          updated_at: channel.updatedAt,
        })
        .execute();
      return channel;
    },
    async findById(id: string): Promise<NotificationChannelRecord | undefined> {
      const row = await db
        .selectFrom("notification_channels")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async findByName(
      projectId: string,
      name: string,
    ): Promise<NotificationChannelRecord | undefined> {
      const row = await db
        .selectFrom("notification_channels")
        .selectAll()
        .where("project_id", "=", projectId)
        .where("name", "=", name)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /** A project's channels, oldest first. */
    async listByProject(projectId: string): Promise<NotificationChannelRecord[]> {
      const rows = await db
        .selectFrom("notification_channels")
        .selectAll()
        .where("project_id", "=", projectId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(toRecord);
    },
    /** Replaces name and settings; the type never changes. */
    async update(
      id: string,
      change: {
        name: string;
        config: Record<string, unknown>;
        secret: string | null;
        updatedAt: string;
      },
    ): Promise<void> {
      await db
        .updateTable("notification_channels")
        .set({
          name: change.name,
          config: JSON.stringify(change.config),
          secret: change.secret,
          updated_at: change.updatedAt,
        })
        .where("id", "=", id)
        .execute();
    },
    /** Deletes the channel (its deliveries and monitor links go with it); false when it was gone. */
    async delete(id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("notification_channels")
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    /** The monitors that notify this channel, by name. */
    async listMonitorsUsing(channelId: string): Promise<{ id: string; name: string }[]> {
      return db
        .selectFrom("monitor_channels")
        .innerJoin("monitors", "monitors.id", "monitor_channels.monitor_id")
        .select(["monitors.id as id", "monitors.name as name"])
        .where("monitor_channels.channel_id", "=", channelId)
        .orderBy("monitors.name")
        .orderBy("monitors.id")
        .execute();
    },
    /** The alert rules that notify this channel, by name. */
    async listAlertRulesUsing(channelId: string): Promise<{ id: string; name: string }[]> {
      return db
        .selectFrom("alert_rule_channels")
        .innerJoin("alert_rules", "alert_rules.id", "alert_rule_channels.rule_id")
        .select(["alert_rules.id as id", "alert_rules.name as name"])
        .where("alert_rule_channels.channel_id", "=", channelId)
        .orderBy("alert_rules.name")
        .orderBy("alert_rules.id")
        .execute();
    },
  };
}
export type NotificationChannelRepository = ReturnType<typeof createNotificationChannelRepository>;
