import type { AnonymousActor, Ctx, DomainDeps } from "../context.js";
import { nowIso } from "../context.js";
import { MEMBER_ROLES, type MemberRole, Password } from "../contracts/auth.js";
import {
  AcceptInviteInput,
  type CreatedInvite,
  CreateInviteInput,
  INVITE_TTL_DAYS,
  type Invitation,
  InviteTokenInput,
  type InviteView,
} from "../contracts/invites.js";
import { randomBase62, sha256Hex } from "../lib/crypto.js";
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
} from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import type { InviteRecord, PendingInvite } from "../meta/repositories/invites.js";
import type { User } from "../meta/repositories/users.js";
import { requireOrg } from "../projects/projects.js";
import { type InviteMailer, inviteEmail } from "./invite-email.js";
import { type AuthenticatedUser, openSession, type SignInDeps } from "./sign-in-sessions.js";

/** What the invitation verbs add to the domain deps: the server's mailer, when SMTP is set. */
export interface InviteDeps {
  mailer: InviteMailer | undefined;
}

type InviteCtx = Ctx<DomainDeps & { invites: InviteDeps }>;
type PublicCtx = Ctx<DomainDeps & SignInDeps, AnonymousActor>;
type OrgArgs = { ctx: Ctx; orgId: string };

const DAY_MS = 86_400_000;

/**
 * The one answer for a link that opens nothing: unknown, used, revoked and expired alike, so a
 * guessed token learns nothing, and the message never repeats the token.
 */
export class InviteLinkError extends DomainError {
  constructor() {
    super(
      "not_found",
      "This invitation link is not valid: it was already used, revoked or has expired, or it was not copied whole. Ask for a new invitation.",
    );
  }
}

const rank = (role: MemberRole): number => MEMBER_ROLES.indexOf(role);

/**
 * Owners and admins invite and revoke, never into a role above their own: only owners invite
 * owners. Returns the organization.
 */
async function requireInviter(ctx: Ctx, orgId: string, role?: MemberRole) {
  const org = await requireOrg({ ctx, orgId, access: "manage" });
  if (role) refuseRoleAbove(ctx, orgId, role);
  return org;
}

/** An inviter may invite, revoke or replace invitations up to their own role only. */
function refuseRoleAbove(ctx: Ctx, orgId: string, role: MemberRole): void {
  const { actor } = ctx;
  const own = actor.kind === "user" ? actor.memberships.find((m) => m.orgId === orgId)?.role : "";
  if (own && rank(role) < rank(own))
    throw new ForbiddenError(
      `Your role '${own}' cannot invite or revoke ${role}s; only owners can`,
    );
}

const toView = (invite: InviteRecord, inviter: PendingInvite["inviter"]): InviteView => ({
  id: invite.id,
  orgId: invite.orgId,
  email: invite.email,
  role: invite.role,
  invitedBy: inviter,
  createdAt: invite.createdAt,
  expiresAt: invite.expiresAt,
});

/**
 * Invites an email into the organization with a role: a single-use link valid for 7 days whose
 * token is stored only as its SHA-256. A pending invitation of the same email is replaced. The
 * link is emailed when SMTP is configured, and returned this once either way.
 */
export async function createInvite({
  ctx,
  orgId,
  input,
}: {
  ctx: InviteCtx;
  orgId: string;
  input: unknown;
}): Promise<CreatedInvite> {
  const { email, role } = parseInput(CreateInviteInput, input);
  const org = await requireInviter(ctx, orgId, role);
  const { deps } = ctx;
  const now = deps.clock.now();
  const token = randomBase62(43);
  const inviterId = ctx.actor.kind === "user" ? ctx.actor.userId : null;
  const invite = await deps.meta.transaction(async ({ repos }) => {
    // Held so two invitations of one email at once cannot both stay pending.
    await repos.organizations.lock(orgId);
    const members = await repos.users.listMembers(orgId);
    if (members.some((m) => m.email === email))
      throw new ConflictError(`${email} is already a member of ${org.name}`, [
        { field: "email", message: "is already a member of this organization" },
      ]);
    // Replacing a pending invitation revokes it: only for a role the inviter may revoke.
    const replaced = (await repos.invites.listPending(orgId, now.toISOString())).find(
      (pending) => pending.email === email,
    );
    if (replaced) refuseRoleAbove(ctx, orgId, replaced.role);
    await repos.invites.revokePendingFor(orgId, email, now.toISOString());
    return repos.invites.insert({
      id: deps.newId("inv"),
      orgId,
      email,
      role,
      tokenHash: sha256Hex(token),
      invitedBy: inviterId,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + INVITE_TTL_DAYS * DAY_MS).toISOString(),
      acceptedAt: null,
      acceptedBy: null,
      revokedAt: null,
    });
  });
  const inviter = inviterId ? await deps.meta.repos.users.findById(inviterId) : undefined;
  const link = deps.appUrl.link(`/invite/${token}`);
  const { mailer } = deps.invites;
  let emailError: string | null = "SMTP is not configured on this server (VIGIL_SMTP_URL)";
  if (mailer) {
    const message = inviteEmail({
      to: email,
      orgName: org.name,
      inviterName: inviter?.name ?? null,
      role,
      link,
      expiresAt: invite.expiresAt,
    });
    emailError = await mailer.send(message).then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
  }
  const invitedBy = inviter ? { name: inviter.name, email: inviter.email } : null;
  // An emailed link goes to the invitee only: the inviter opening it could accept as them and
  // hold an account for an address they do not own. Not emailed, it is the inviter's to share.
  const emailed = emailError === null;
  return { ...toView(invite, invitedBy), link: emailed ? null : link, emailed, emailError };
}

/** The organization's pending invitations, newest first (owners and admins). */
export async function listInvites({ ctx, orgId }: OrgArgs): Promise<InviteView[]> {
  await requireInviter(ctx, orgId);
  const pending = await ctx.deps.meta.repos.invites.listPending(orgId, nowIso(ctx.deps));
  return pending.map((invite) => toView(invite, invite.inviter));
}

/** Revokes a pending invitation: its link opens nothing from now on. */
export async function revokeInvite({
  ctx,
  orgId,
  inviteId,
}: OrgArgs & { inviteId: string }): Promise<void> {
  await requireInviter(ctx, orgId);
  const { invites } = ctx.deps.meta.repos;
  const invite = await invites.findById(inviteId);
  const now = nowIso(ctx.deps);
  if (!invite || invite.orgId !== orgId || !isOpen(invite, now))
    throw new NotFoundError("Invitation", inviteId);
  await requireInviter(ctx, orgId, invite.role);
  if (!(await invites.revoke(inviteId, now))) throw new NotFoundError("Invitation", inviteId);
}

/** Closed invitations are kept this long (who accepted, who revoked), then deleted at start-up. */
const CLOSED_KEPT_DAYS = 30;

/** Deletes invitations closed more than 30 days ago; returns how many (the operator's, at start-up). */
export function purgeClosedInvites({ ctx }: { ctx: Ctx }): Promise<number> {
  const cutoff = new Date(ctx.deps.clock.now().getTime() - CLOSED_KEPT_DAYS * DAY_MS);
  return ctx.deps.meta.repos.invites.deleteClosedBefore(cutoff.toISOString());
}

const isOpen = (invite: InviteRecord, now: string): boolean =>
  invite.acceptedAt === null && invite.revokedAt === null && invite.expiresAt > now;

/** The open invitation of a token, or InviteLinkError. */
async function openInvite(ctx: Ctx<DomainDeps, AnonymousActor>, token: string) {
  const invite = await ctx.deps.meta.repos.invites.findByTokenHash(sha256Hex(token));
  if (!invite || !isOpen(invite, nowIso(ctx.deps))) throw new InviteLinkError();
  return invite;
}

/** What the accept page shows of the invitation its link holds (no session needed). */
export async function previewInvite({
  ctx,
  input,
}: {
  ctx: Ctx<DomainDeps, AnonymousActor>;
  input: unknown;
}): Promise<Invitation> {
  const { token } = parseInput(InviteTokenInput, input);
  const invite = await openInvite(ctx, token);
  const { repos } = ctx.deps.meta;
  const org = await repos.organizations.findById(invite.orgId);
  if (!org) throw new InviteLinkError();
  const inviter = invite.invitedBy ? await repos.users.findById(invite.invitedBy) : undefined;
  return {
    orgName: org.name,
    email: invite.email,
    role: invite.role,
    invitedBy: inviter?.name ?? null,
    expiresAt: invite.expiresAt,
    hasAccount: (await repos.users.findByEmail(invite.email)) !== undefined,
  };
}

/**
 * Accepts an invitation and signs in: a new account with the password (and name) given, or,
 * when the email has an account, that account after its password is checked (counted by the
 * sign-in limits like a sign-in). The link works once; the session token is returned once.
 */
export async function acceptInvite({
  ctx,
  input,
  address,
}: {
  ctx: PublicCtx;
  input: unknown;
  address: string;
}): Promise<{ orgId: string; auth: AuthenticatedUser & { token: string } }> {
  const data = parseInput(AcceptInviteInput, input);
  const { deps } = ctx;
  const invite = await openInvite(ctx, data.token);
  const existing = await deps.meta.repos.users.findByEmail(invite.email);
  let user: User;
  let passwordHash: string | undefined;
  if (existing) {
    const attempt = await deps.loginThrottle.admit(address, invite.email);
    let valid: boolean;
    try {
      valid = await deps.passwords.verify(data.password, existing.passwordHash);
    } catch (error) {
      await attempt.abandoned();
      throw error;
    }
    if (!valid)
      throw InvalidInputError.forField(
        "password",
        `is not the password of the account ${invite.email} already has`,
      );
    await attempt.succeeded();
    user = existing;
  } else {
    const password = parseInput(Password, data.password, "password");
    passwordHash = await deps.passwords.hash(password);
    user = {
      id: deps.newId("usr"),
      email: invite.email,
      name: data.name ?? invite.email.split("@")[0] ?? invite.email,
      createdAt: nowIso(deps),
    };
  }
  await deps.meta.transaction(async ({ repos }) => {
    // Held so of two accepts at once the second sees the invitation used (and creates nothing).
    await repos.organizations.lock(invite.orgId);
    const now = nowIso(deps);
    const current = await repos.invites.findById(invite.id);
    if (!current || !isOpen(current, now)) throw new InviteLinkError();
    if (passwordHash !== undefined) {
      if (await repos.users.findByEmail(user.email))
        throw new ConflictError(
          `An account for ${user.email} was created meanwhile; open the link again`,
        );
      await repos.users.insert({ ...user, passwordHash });
    }
    // Single use, fenced: only an open invitation is marked.
    if (!(await repos.invites.markAccepted(invite.id, user.id, now))) throw new InviteLinkError();
    const memberships = await repos.users.listMemberships(user.id);
    if (!memberships.some((m) => m.orgId === invite.orgId))
      await repos.users.addMembership(invite.orgId, user.id, invite.role, now);
  });
  return { orgId: invite.orgId, auth: await openSession(deps, user) };
}
