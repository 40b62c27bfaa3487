import type { Kysely, Selectable } from "kysely";
import type { MetaSchema } from "../schema.js";
import type { EscalationPoliciesTable } from "../tables/escalation.js";

/** One step of a policy: how long to wait (after the incident opened, or the previous step), then whom to notify. */
export interface EscalationStepRecord {
  delayMinutes: number;
  channelIds: string[];
}

/** A project's escalation policy: ordered steps, repeated `repeat` more times. */
export interface EscalationPolicyRecord {
  id: string;
  projectId: string;
  name: string;
  steps: EscalationStepRecord[];
  repeat: number;
  /** The user who created it; null once that user is gone. */
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

const toRecord = (row: Selectable<EscalationPoliciesTable>): EscalationPolicyRecord => ({
  id: row.id,
  projectId: row.project_id,
  name: row.name,
  steps: JSON.parse(row.steps) as EscalationStepRecord[],
  repeat: Number(row.repeat),
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function createEscalationPolicyRepository(db: Kysely<MetaSchema>) {
  return {
    async insert(policy: EscalationPolicyRecord): Promise<EscalationPolicyRecord> {
      await db
        .insertInto("escalation_policies")
        .values({
          id: policy.id,
          project_id: policy.projectId,
          name: policy.name,
          steps: JSON.stringify(policy.steps),
          repeat: policy.repeat,
          created_by: policy.createdBy,
          created_at: policy.createdAt,
          updated_at: policy.updatedAt,
        })
        .execute();
      return policy;
    },
    async findById(id: string): Promise<EscalationPolicyRecord | undefined> {
      const row = await db
        .selectFrom("escalation_policies")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async findByName(projectId: string, name: string): Promise<EscalationPolicyRecord | undefined> {
      const row = await db
        .selectFrom("escalation_policies")
        .selectAll()
        .where("project_id", "=", projectId)
        .where("name", "=", name)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /** A project's policies, by name. */
    async listByProject(projectId: string): Promise<EscalationPolicyRecord[]> {
      const rows = await db
        .selectFrom("escalation_policies")
        .selectAll()
        .where("project_id", "=", projectId)
        .orderBy("name")
        .orderBy("id")
        .execute();
      return rows.map(toRecord);
    },
    async update(
      id: string,
      change: Pick<EscalationPolicyRecord, "name" | "steps" | "repeat" | "updatedAt">,
    ): Promise<void> {
      await db
        .updateTable("escalation_policies")
        .set({
          name: change.name,
          steps: JSON.stringify(change.steps),
          repeat: change.repeat,
          updated_at: change.updatedAt,
        })
        .where("id", "=", id)
        .execute();
    },
    /** False when it was already gone. */
    async delete(id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("escalation_policies")
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
export type EscalationPolicyRepository = ReturnType<typeof createEscalationPolicyRepository>;
