import type { Kysely } from "kysely";
import type { MetaSchema } from "../schema.js";
import { lockRow } from "./row-lock.js";

export interface Organization {
  id: string;
  name: string;
  createdAt: string;
}

export function createOrganizationRepository(db: Kysely<MetaSchema>) {
  return {
    async insert(org: Organization): Promise<Organization> {
      await db
        .insertInto("organizations")
        .values({ id: org.id, name: org.name, created_at: org.createdAt })
        .execute();
      return org;
    },
    async findById(id: string): Promise<Organization | undefined> {
      const row = await db
        .selectFrom("organizations")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && { id: row.id, name: row.name, createdAt: row.created_at };
    },
    async list(): Promise<Organization[]> {
      const rows = await db
        .selectFrom("organizations")
        .selectAll()
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map((row) => ({ id: row.id, name: row.name, createdAt: row.created_at }));
    },
    /** Holds the organization's row for the transaction: membership changes take turns. */
    lock: (id: string): Promise<boolean> => lockRow(db, "organizations", id),
    async count(): Promise<number> {
      const row = await db
        .selectFrom("organizations")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
export type OrganizationRepository = ReturnType<typeof createOrganizationRepository>;
