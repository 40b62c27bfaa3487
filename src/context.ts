import type { Permission } from "./contracts/auth.js";
import type { AppUrl } from "./lib/app-url.js";
import type { Clock } from "./lib/clock.js";
import type { IdGenerator } from "./lib/ids.js";
import type { PasswordHasher } from "./lib/password-hasher.js";
import type { MetaAccess } from "./meta/meta-store.js";
import type { Membership } from "./meta/repositories/users.js";

/**
 * What every domain verb may use; built once by the composition root. A domain's own services
 * are sections its verbs add to this (`Ctx<DomainDeps & { monitors: MonitorDeps }>`), so this
 * file knows no domain.
 */
export interface DomainDeps {
  meta: MetaAccess;
  clock: Clock;
  newId: IdGenerator;
  sessionTtlHours: number;
  /** Every password hash and check, bounded so sign-ins cannot hold libuv's thread pool. */
  passwords: PasswordHasher;
  /** Absolute links to the app for what leaves the server (notifications, emails). */
  appUrl: AppUrl;
}

export interface UserActor {
  kind: "user";
  userId: string;
  memberships: readonly Membership[];
}

export interface ApiKeyActor {
  kind: "api_key";
  keyId: string;
  projectId: string;
  permissions: readonly Permission[];
}

/** The CLI and start-up bootstrap act as the system: the operator owns the machine. */
export interface SystemActor {
  kind: "system";
}

export type Actor = UserActor | ApiKeyActor | SystemActor;

/**
 * A request not yet authenticated: only the sign-in verbs (login, session and key checks) take
 * it. It is no `Actor`, so no other verb can be called with it.
 */
export interface AnonymousActor {
  kind: "anonymous";
}

/**
 * Passed to every domain verb: who is acting, and with what. A verb names the dependencies it
 * needs as `D` (the base plus its domain's section, e.g. `DomainDeps & { monitors: … }`); the
 * composition root's `domain` holds every section, so one ctx serves every verb.
 */
export interface Ctx<D extends DomainDeps = DomainDeps, A extends Actor | AnonymousActor = Actor> {
  deps: D;
  actor: A;
}

/** The operator's context (CLI commands, start-up bootstrap). */
export const systemCtx = <D extends DomainDeps>(deps: D): Ctx<D> => ({
  deps,
  actor: { kind: "system" },
});

/** The context of a request before it is authenticated, for the sign-in verbs. */
export const anonymousCtx = <D extends DomainDeps>(deps: D): Ctx<D, AnonymousActor> => ({
  deps,
  actor: { kind: "anonymous" },
});

export const nowIso = (deps: Pick<DomainDeps, "clock">): string => deps.clock.now().toISOString();
