import { type Kysely, type Selectable, sql } from "kysely";
import type { MetaSchema } from "../schema.js";
import type { IncidentEscalationsTable } from "../tables/escalation.js";
import type { EscalationStepRecord } from "./escalation-policies.js";
import { isSqlite } from "./raw-sql.js";

export type EscalationStatus = "active" | "stopped" | "completed";

/** The policy as an escalation copied it when its incident opened. */
export interface EscalationPolicyCopy {
  name: string;
  steps: EscalationStepRecord[];
  repeat: number;
}

/** One incident's escalation: where it stands in its policy's steps and rounds. */
export interface IncidentEscalationRecord {
  incidentId: string;
  projectId: string;
  policyId: string;
  policy: EscalationPolicyCopy;
  /** The problem notification each step sends (its shape is the notifications domain's). */
  payload: unknown;
  status: EscalationStatus;
  /** Why it stopped (acknowledged, resolved); null otherwise. */
  stopReason: string | null;
  /** The next step to send, 0-based, and its round, 1-based. */
  step: number;
  round: number;
  /** When the next step is due; null once stopped or completed. */
  nextAt: string | null;
  claimedUntil: string | null;
  /** The fence: every claim and every write raises it; a write names the version it read. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** What a fenced write changes. */
export type EscalationChange = Pick<
  IncidentEscalationRecord,
  "status" | "stopReason" | "step" | "round" | "nextAt" | "updatedAt"
>;

type Row = Selectable<IncidentEscalationsTable>;

const toRecord = (row: Row): IncidentEscalationRecord => ({
  incidentId: row.incident_id,
  projectId: row.project_id,
  policyId: row.policy_id,
  policy: JSON.parse(row.policy) as EscalationPolicyCopy,
  payload: JSON.parse(row.payload) as unknown,
  status: row.status as EscalationStatus,
  stopReason: row.stop_reason,
  step: Number(row.step),
  round: Number(row.round),
  nextAt: row.next_at,
  claimedUntil: row.claimed_until,
  version: Number(row.version),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function createIncidentEscalationRepository(db: Kysely<MetaSchema>) {
  return {
    /** Starts an incident's escalation; meant for the transaction that opened the incident. */
    async insert(record: IncidentEscalationRecord): Promise<void> {
      await db
        .insertInto("incident_escalations")
        .values({
          incident_id: record.incidentId,
          project_id: record.projectId,
          policy_id: record.policyId,
          policy: JSON.stringify(record.policy),
          payload: JSON.stringify(record.payload),
          status: record.status,
          stop_reason: record.stopReason,
          step: record.step,
          round: record.round,
          next_at: record.nextAt,
          claimed_until: record.claimedUntil,
          version: record.version,
          created_at: record.createdAt,
          updated_at: record.updatedAt,
        })
        .execute();
    },
    async findByIncident(incidentId: string): Promise<IncidentEscalationRecord | undefined> {
      const row = await db
        .selectFrom("incident_escalations")
        .selectAll()
        .where("incident_id", "=", incidentId)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /**
     * Claims up to `limit` active escalations due at `now`, oldest due first, until `claimUntil`:
     * their version is raised, so a write of another worker that read them before fails its
     * fence, and other claimers skip them until the claim runs out (a dead worker's share comes
     * back then). SQLite runs one writer at a time; PostgreSQL skips rows another claimer locked.
     */
    async claimDue(
      now: string,
      limit: number,
      claimUntil: string,
    ): Promise<IncidentEscalationRecord[]> {
      const due = sql`status = 'active' AND next_at <= ${now}
        AND (claimed_until IS NULL OR claimed_until <= ${now})`;
      const query = isSqlite(db)
        ? sql<Row>`
            UPDATE incident_escalations
            SET claimed_until = ${claimUntil}, version = version + 1
            WHERE incident_id IN (
              SELECT incident_id FROM incident_escalations WHERE ${due}
              ORDER BY next_at, incident_id LIMIT ${limit}
            ) RETURNING *`
        : sql<Row>`
            WITH chosen AS (
              SELECT incident_id FROM incident_escalations WHERE ${due}
              ORDER BY next_at, incident_id LIMIT ${limit} FOR UPDATE SKIP LOCKED
            )
            UPDATE incident_escalations AS t
            SET claimed_until = ${claimUntil}, version = t.version + 1
            FROM chosen WHERE t.incident_id = chosen.incident_id RETURNING t.*`;
      const rows = (await query.execute(db)).rows;
      return rows
        .map(toRecord)
        .sort(
          (a, b) =>
            (a.nextAt ?? "").localeCompare(b.nextAt ?? "") ||
            a.incidentId.localeCompare(b.incidentId),
        );
    },
    /**
     * Active escalations whose incident was acknowledged or resolved (up to `limit`), with the
     * reason: what the worker stops at once rather than when their next step comes due.
     */
    async listStoppable(
      limit: number,
    ): Promise<{ escalation: IncidentEscalationRecord; reason: "acknowledged" | "resolved" }[]> {
      const rows = await db
        .selectFrom("incident_escalations as e")
        .innerJoin("incidents as i", "i.id", "e.incident_id")
        .selectAll("e")
        .select(["i.status as incident_status", "i.acknowledged_at as incident_acknowledged_at"])
        .where("e.status", "=", "active")
        .where((w) =>
          w.or([w("i.status", "=", "resolved"), w("i.acknowledged_at", "is not", null)]),
        )
        .orderBy("e.incident_id")
        .limit(limit)
        .execute();
      return rows.map(({ incident_status, incident_acknowledged_at, ...row }) => ({
        escalation: toRecord(row),
        reason: incident_acknowledged_at !== null ? "acknowledged" : "resolved",
      }));
    },
    /**
     * Stops an incident's active escalation for good, unfenced: meant for the transaction that
     * acknowledges or resolves the incident. Raises the version, so a worker holding a claim on
     * it fails its fence and sends nothing (on PostgreSQL it waits for a worker writing the row
     * right now, then finds it changed). Returns the escalation as stopped, or undefined when it
     * was not active (none, stopped or completed already).
     */
    async stopActive(
      incidentId: string,
      reason: "acknowledged" | "resolved",
      at: string,
    ): Promise<IncidentEscalationRecord | undefined> {
      const row = await db
        .updateTable("incident_escalations")
        .set({
          status: "stopped",
          stop_reason: reason,
          next_at: null,
          claimed_until: null,
          updated_at: at,
          version: sql<number>`version + 1`,
        })
        .where("incident_id", "=", incidentId)
        .where("status", "=", "active")
        .returningAll()
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /**
     * Replaces an incident's escalation with `record` (a reopened incident's restart from step
     * 1), raising the version past the old row's so a stale claim fails its fence. False when
     * the incident has no escalation row.
     */
    async restart(record: IncidentEscalationRecord): Promise<boolean> {
      const result = await db
        .updateTable("incident_escalations")
        .set({
          policy_id: record.policyId,
          policy: JSON.stringify(record.policy),
          payload: JSON.stringify(record.payload),
          status: record.status,
          stop_reason: record.stopReason,
          step: record.step,
          round: record.round,
          next_at: record.nextAt,
          claimed_until: null,
          version: sql<number>`version + 1`,
          updated_at: record.updatedAt,
        })
        .where("incident_id", "=", record.incidentId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /**
     * Writes a step's outcome or a stop, fenced: only while the row is still at `version` and
     * active. Raises the version and releases the claim; false (nothing written) when another
     * worker claimed or wrote it since.
     */
    async advance(incidentId: string, version: number, change: EscalationChange): Promise<boolean> {
      const result = await db
        .updateTable("incident_escalations")
        .set({
          status: change.status,
          stop_reason: change.stopReason,
          step: change.step,
          round: change.round,
          next_at: change.nextAt,
          updated_at: change.updatedAt,
          claimed_until: null,
          version: version + 1,
        })
        .where("incident_id", "=", incidentId)
        .where("version", "=", version)
        .where("status", "=", "active")
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
export type IncidentEscalationRepository = ReturnType<typeof createIncidentEscalationRepository>;
