import type { Actor, AnonymousActor, Ctx, DomainDeps, UserActor } from "../context.js";
import { nowIso } from "../context.js";
import { LoginInput } from "../contracts/auth.js";
import { randomBase62, sha256Hex } from "../lib/crypto.js";
import { UnauthorizedError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import type { Membership, User, UserWithPassword } from "../meta/repositories/users.js";
import type { LoginThrottle } from "./login-throttle.js";

/** Sessions are extended on use, but the store is written at most this often per session. */
const TOUCH_INTERVAL_MS = 5 * 60_000;
// Verified against when the email is unknown, so both failures take the same time.
const DUMMY_HASH =
  "scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==";

export interface AuthenticatedUser {
  user: User;
  memberships: Membership[];
  sessionId: string;
  expiresAt: string;
  /** True when this request extended the session, so the cookie should be re-sent. */
  renewed?: boolean;
}

/** Signing in, and checking a session, is done by anyone: before authentication, or as an actor. */
/** The sign-in limits, counted where every rate limit counts: the section sign-in verbs add. */
export interface SignInDeps {
  loginThrottle: LoginThrottle;
}

type SessionCtx = Ctx<DomainDeps, Actor | AnonymousActor>;
type SignInCtx = Ctx<DomainDeps & SignInDeps, Actor | AnonymousActor>;

const sessionExpiry = (deps: DomainDeps, now: Date): string =>
  new Date(now.getTime() + deps.sessionTtlHours * 3_600_000).toISOString();

export const toUserActor = (auth: AuthenticatedUser): UserActor => ({
  kind: "user",
  userId: auth.user.id,
  memberships: auth.memberships,
});

function publicUser(user: User & { passwordHash?: string }): User {
  return { id: user.id, email: user.email, name: user.name, createdAt: user.createdAt };
}

/**
 * Checks credentials and opens a session; the token is returned once, for the cookie. `address`
 * is the client's: the sign-in limits count failures per address and per email
 * (RateLimitedError beyond them), and the password check waits for a turn (UnavailableError).
 */
export async function login({
  ctx,
  input,
  address,
}: {
  ctx: SignInCtx;
  input: LoginInput;
  address: string;
}): Promise<AuthenticatedUser & { token: string }> {
  const { deps } = ctx;
  const { email, password } = parseInput(LoginInput, input);
  const attempt = await deps.loginThrottle.admit(address, email);
  let user: UserWithPassword | undefined;
  let valid: boolean;
  try {
    user = await deps.meta.repos.users.findByEmail(email);
    valid = await deps.passwords.verify(password, user?.passwordHash ?? DUMMY_HASH);
  } catch (error) {
    await attempt.abandoned();
    throw error;
  }
  if (!user || !valid) throw new UnauthorizedError("Invalid email or password");
  await attempt.succeeded();
  return openSession(deps, user);
}

/**
 * Opens a session for a user whose credentials were just checked (a sign-in, an accepted
 * invitation); the token is returned once, for the cookie, and stored only as its SHA-256.
 */
export async function openSession(
  deps: DomainDeps,
  user: User,
): Promise<AuthenticatedUser & { token: string }> {
  const token = randomBase62(43);
  const now = deps.clock.now();
  const expiresAt = sessionExpiry(deps, now);
  const session = await deps.meta.repos.signInSessions.insert({
    id: deps.newId("ses"),
    tokenHash: sha256Hex(token),
    userId: user.id,
    createdAt: now.toISOString(),
    expiresAt,
    lastSeenAt: now.toISOString(),
  });
  const memberships = await deps.meta.repos.users.listMemberships(user.id);
  return { user: publicUser(user), memberships, sessionId: session.id, expiresAt, token };
}

/** Resolves a session cookie to its user, extending the session; unknown or expired → UnauthorizedError. */
export async function authenticateSession({
  ctx,
  token,
}: {
  ctx: SessionCtx;
  token: string | undefined;
}): Promise<AuthenticatedUser> {
  if (!token || token.length > 128) throw new UnauthorizedError("Not signed in");
  const { deps } = ctx;
  const { signInSessions: sessions, users } = deps.meta.repos;
  const session = await sessions.findByTokenHash(sha256Hex(token));
  const now = deps.clock.now();
  if (!session || Date.parse(session.expiresAt) <= now.getTime()) {
    if (session) await sessions.delete(session.id);
    throw new UnauthorizedError("Your session has expired; sign in again");
  }
  const user = await users.findById(session.userId);
  if (!user) throw new UnauthorizedError("Not signed in");
  const renewed = now.getTime() - Date.parse(session.lastSeenAt) > TOUCH_INTERVAL_MS;
  const expiresAt = renewed ? sessionExpiry(deps, now) : session.expiresAt;
  if (renewed) await sessions.touch(session.id, now.toISOString(), expiresAt);
  const memberships = await users.listMemberships(user.id);
  return { user: publicUser(user), memberships, sessionId: session.id, expiresAt, renewed };
}

/** The signed-in user of a session token, or undefined when signed out (none, ended, unknown). */
export async function findSession({
  ctx,
  token,
}: {
  ctx: SessionCtx;
  token: string | undefined;
}): Promise<AuthenticatedUser | undefined> {
  try {
    return await authenticateSession({ ctx, token });
  } catch (error) {
    if (error instanceof UnauthorizedError) return undefined;
    throw error;
  }
}

/** Deletes sessions past their expiry; returns how many. */
export function purgeExpiredSessions({ ctx }: { ctx: Ctx }): Promise<number> {
  return ctx.deps.meta.repos.signInSessions.deleteExpired(nowIso(ctx.deps));
}

/** Ends the session of a token; an unknown or ended one is no error (signing out twice is fine). */
export async function logout({
  ctx,
  token,
}: {
  ctx: SessionCtx;
  token: string | undefined;
}): Promise<void> {
  if (!token || token.length > 128) return;
  const { signInSessions } = ctx.deps.meta.repos;
  const session = await signInSessions.findByTokenHash(sha256Hex(token));
  if (session) await signInSessions.delete(session.id);
}
