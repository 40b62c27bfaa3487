import type { Kysely } from "kysely";
import { MEMBER_ROLES, type MemberRole } from "../../contracts/auth.js";
import type { MetaSchema, UserRow } from "../schema.js";

// An unrecognised stored role reads as the least privileged one.
const toRole = (role: string): MemberRole => MEMBER_ROLES.find((r) => r === role) ?? "viewer";

export interface User {
  id: string;
  email: string;
  name: string;
  createdAt: string;
}

export interface UserWithPassword extends User {
  passwordHash: string;
}

export interface Membership {
  orgId: string;
  orgName: string;
  role: MemberRole;
}

/** One member of an organization: the user and their role there. */
export interface OrgMember {
  userId: string;
  email: string;
  name: string;
  role: MemberRole;
  joinedAt: string;
}

const toUser = (row: UserRow): UserWithPassword => ({
  id: row.id,
  email: row.email,
  name: row.name,
  createdAt: row.created_at,
  passwordHash: row.password_hash,
});

export function createUserRepository(db: Kysely<MetaSchema>) {
  return {
    async insert(user: UserWithPassword): Promise<User> {
      await db
        .insertInto("users")
        .values({
          id: user.id,
          email: user.email,
          name: user.name,
          password_hash: user.passwordHash,
          created_at: user.createdAt,
        })
        .execute();
      const { passwordHash: _, ...publicUser } = user;
      return publicUser;
    },
    async findByEmail(email: string): Promise<UserWithPassword | undefined> {
      const row = await db
        .selectFrom("users")
        .selectAll()
        .where("email", "=", email)
        .executeTakeFirst();
      return row && toUser(row);
    },
    async findById(id: string): Promise<UserWithPassword | undefined> {
      const row = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
      return row && toUser(row);
    },
    async count(): Promise<number> {
      const row = await db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async addMembership(
      orgId: string,
      userId: string,
      role: MemberRole,
      createdAt: string,
    ): Promise<void> {
      await db
        .insertInto("memberships")
        .values({ org_id: orgId, user_id: userId, role, created_at: createdAt })
        .execute();
    },
    async listMemberships(userId: string): Promise<Membership[]> {
      const rows = await db
        .selectFrom("memberships")
        .innerJoin("organizations", "organizations.id", "memberships.org_id")
        .select(["memberships.org_id", "organizations.name", "memberships.role"])
        .where("memberships.user_id", "=", userId)
        .orderBy("memberships.created_at")
        .execute();
      return rows.map((r) => ({ orgId: r.org_id, orgName: r.name, role: toRole(r.role) }));
    },
    /** An organization's members, in the order they joined. */
    async listMembers(orgId: string): Promise<OrgMember[]> {
      const rows = await db
        .selectFrom("memberships")
        .innerJoin("users", "users.id", "memberships.user_id")
        .select([
          "users.id",
          "users.email",
          "users.name",
          "memberships.role",
          "memberships.created_at",
        ])
        .where("memberships.org_id", "=", orgId)
        .orderBy("memberships.created_at")
        .orderBy("users.id")
        .execute();
      return rows.map((r) => ({
        userId: r.id,
        email: r.email,
        name: r.name,
        role: toRole(r.role),
        joinedAt: r.created_at,
      }));
    },
    async setMembershipRole(orgId: string, userId: string, role: MemberRole): Promise<void> {
      await db
        .updateTable("memberships")
        .set({ role })
        .where("org_id", "=", orgId)
        .where("user_id", "=", userId)
        .execute();
    },
    async removeMembership(orgId: string, userId: string): Promise<void> {
      await db
        .deleteFrom("memberships")
        .where("org_id", "=", orgId)
        .where("user_id", "=", userId)
        .execute();
    },
  };
}
export type UserRepository = ReturnType<typeof createUserRepository>;
