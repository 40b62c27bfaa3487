import type { Ctx } from "../context.js";
import { ChangeMemberRoleInput, type MemberView } from "../contracts/auth.js";
import { ConflictError, ForbiddenError, NotFoundError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import type { Repositories } from "../meta/meta-store.js";
import type { OrgMember } from "../meta/repositories/users.js";
import { requireOrg } from "../projects/projects.js";

type OrgArgs = { ctx: Ctx; orgId: string };
type MemberArgs = OrgArgs & { userId: string };

/** Any member of the organization may see who else is in it. */
export async function listMembers({ ctx, orgId }: OrgArgs): Promise<MemberView[]> {
  await requireOrg({ ctx, orgId, access: "read" });
  return ctx.deps.meta.repos.users.listMembers(orgId);
}

/**
 * Membership changes are for owners only: an admin could otherwise make themselves an owner or
 * push the owners out. The signed-in user's memberships are read on each request, so a change
 * applies to the member's next request.
 */
async function requireOwner(ctx: Ctx, orgId: string): Promise<void> {
  await requireOrg({ ctx, orgId, access: "manage" });
  const { actor } = ctx;
  const role = actor.kind === "user" ? actor.memberships.find((m) => m.orgId === orgId)?.role : "";
  if (actor.kind === "user" && role !== "owner")
    throw new ForbiddenError(`Your role '${role}' cannot change members; only owners can`);
}

/**
 * Runs a change of one member with the organization's row held, so two owners demoting each
 * other at the same moment cannot both succeed and leave the organization without an owner.
 */
async function changeMember<T>(
  { ctx, orgId, userId }: MemberArgs,
  change: (member: OrgMember, owners: number, repos: Repositories) => Promise<T>,
): Promise<T> {
  await requireOwner(ctx, orgId);
  return ctx.deps.meta.transaction(async ({ repos }) => {
    await repos.organizations.lock(orgId);
    const members = await repos.users.listMembers(orgId);
    const member = members.find((m) => m.userId === userId);
    if (!member) throw new NotFoundError("Member", userId);
    return change(member, members.filter((m) => m.role === "owner").length, repos);
  });
}

/** Gives a member another role; the last owner keeps theirs (409). */
export async function changeMemberRole(
  args: MemberArgs & { input: ChangeMemberRoleInput },
): Promise<MemberView> {
  const { role } = parseInput(ChangeMemberRoleInput, args.input);
  return changeMember(args, async (member, owners, repos) => {
    if (member.role === "owner" && role !== "owner" && owners <= 1)
      throw new ConflictError(
        `${member.email} is the organization's last owner; make another member an owner first`,
      );
    if (member.role !== role) await repos.users.setMembershipRole(args.orgId, member.userId, role);
    return { ...member, role };
  });
}

/** Removes a member from the organization (their account stays); never the last owner (409). */
export async function removeMember(args: MemberArgs): Promise<void> {
  await changeMember(args, async (member, owners, repos) => {
    if (member.role === "owner" && owners <= 1)
      throw new ConflictError(
        `${member.email} is the organization's last owner and cannot be removed`,
      );
    await repos.users.removeMembership(args.orgId, member.userId);
  });
}
