import type { Kysely } from "kysely";
import type { MetaSchema } from "../schema.js";

// The one-click acknowledge links of incidents (src/incidents/ack-links.ts): only the SHA-256 of
// each token is stored, with its incident, what sent it, its expiry and when it was used.

export interface IncidentAckLinkRecord {
  tokenHash: string;
  incidentId: string;
  /** The channel that sent it; null when none did or it was since deleted. */
  channelId: string | null;
  /** What sent it, as the timeline names the acknowledger. */
  viaLabel: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export function createIncidentAckLinkRepository(db: Kysely<MetaSchema>) {
  return {
    async insert(link: IncidentAckLinkRecord): Promise<void> {
      await db
        .insertInto("incident_ack_links")
        .values({
          token_hash: link.tokenHash,
          incident_id: link.incidentId,
          channel_id: link.channelId,
          via_label: link.viaLabel,
          created_at: link.createdAt,
          expires_at: link.expiresAt,
          used_at: link.usedAt,
        })
        .execute();
    },
    async findByHash(tokenHash: string): Promise<IncidentAckLinkRecord | undefined> {
      const row = await db
        .selectFrom("incident_ack_links")
        .selectAll()
        .where("token_hash", "=", tokenHash)
        .executeTakeFirst();
      return (
        row && {
          tokenHash: row.token_hash,
          incidentId: row.incident_id,
          channelId: row.channel_id,
          viaLabel: row.via_label,
          createdAt: row.created_at,
          expiresAt: row.expires_at,
          usedAt: row.used_at,
        }
      );
    },
    /**
     * Uses a link: true only for the one caller that found it unused and unexpired at `at`
     * (two clicks racing: one wins).
     */
    async markUsed(tokenHash: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable("incident_ack_links")
        .set({ used_at: at })
        .where("token_hash", "=", tokenHash)
        .where("used_at", "is", null)
        .where("expires_at", ">", at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Removes an incident's links that expired before `before`; returns how many. */
    async deleteExpired(incidentId: string, before: string): Promise<number> {
      const result = await db
        .deleteFrom("incident_ack_links")
        .where("incident_id", "=", incidentId)
        .where("expires_at", "<", before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type IncidentAckLinkRepository = ReturnType<typeof createIncidentAckLinkRepository>;
