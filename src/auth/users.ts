import { z } from "zod";
import type { Ctx } from "../context.js";
import { nowIso } from "../context.js";
import { Email, MemberRole, Password } from "../contracts/auth.js";
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
} from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import type { User } from "../meta/repositories/users.js";

export const CreateUserInput = z
  .object({
    email: Email,
    password: Password,
    name: z.string().trim().min(1).max(100).optional(),
    /** Organization to join; when omitted, the only organization, or a new one when none exists. */
    orgId: z.string().min(1).optional(),
    /** Creates a new organization with this name, owned by the user. */
    newOrg: z.string().trim().min(1).max(100).optional(),
    role: MemberRole.optional(),
  })
  .strict()
  .refine((v) => !(v.orgId && v.newOrg), {
    message: "give orgId or newOrg, not both",
    path: ["newOrg"],
  });
export type CreateUserInput = z.input<typeof CreateUserInput>;

export interface CreatedUser {
  user: User;
  orgId: string;
  role: MemberRole;
}

/**
 * Creates a user and their membership (operator only: CLI and start-up bootstrap). The first user
 * of a new organization is its owner; later users default to admin.
 */
export async function createUser({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: CreateUserInput;
}): Promise<CreatedUser> {
  if (ctx.actor.kind !== "system") throw new ForbiddenError("Only the operator can create users");
  const data = parseInput(CreateUserInput, input);
  const passwordHash = await ctx.deps.passwords.hash(data.password);
  const createdAt = nowIso(ctx.deps);
  return ctx.deps.meta.transaction(async ({ repos }) => {
    if (await repos.users.findByEmail(data.email))
      throw new ConflictError(`A user with email ${data.email} already exists`);
    let orgId = data.orgId;
    let role: MemberRole = data.role ?? "admin";
    if (orgId) {
      if (!(await repos.organizations.findById(orgId)))
        throw new NotFoundError("Organization", orgId);
    } else {
      const orgs = data.newOrg ? [] : await repos.organizations.list();
      if (orgs.length > 1) {
        throw InvalidInputError.forField(
          "orgId",
          "several organizations exist; name one with --org",
        );
      }
      orgId = orgs[0]?.id;
      if (!orgId) {
        orgId = ctx.deps.newId("org");
        await repos.organizations.insert({ id: orgId, name: data.newOrg ?? "Default", createdAt });
        role = data.role ?? "owner";
      }
    }
    const user = await repos.users.insert({
      id: ctx.deps.newId("usr"),
      email: data.email,
      name: data.name ?? data.email.split("@")[0] ?? data.email,
      passwordHash,
      createdAt,
    });
    await repos.users.addMembership(orgId, user.id, role, createdAt);
    return { user, orgId, role };
  });
}
