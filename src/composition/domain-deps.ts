import { createHmac } from "node:crypto";
import { LoginThrottle } from "../auth/login-throttle.js";
import type { SignInDeps } from "../auth/sign-in-sessions.js";
import type { Config } from "../config/config-schema.js";
import type { DomainDeps } from "../context.js";
import { AppUrl } from "../lib/app-url.js";
import { type Clock, systemClock } from "../lib/clock.js";
import { type IdGenerator, newId } from "../lib/ids.js";
import type { Metrics } from "../lib/metrics.js";
import { PasswordHasher } from "../lib/password-hasher.js";
import type { MetaStore } from "../meta/meta-store.js";
import { MemoryRateLimitCounter, type RateLimitCounter } from "../server/rate-limit-counter.js";
import { createStatusPageEngine } from "../status-pages/engine.js";
import type { StatusPageSignalDeps } from "../status-pages/signals.js";

export interface AuthDepsOptions {
  metrics?: Metrics;
  /** Where the sign-in limits count: the server's rate-limit counter; in memory when not given. */
  rateLimits?: RateLimitCounter;
  /** The server's key; the sign-in counters' keys are digested with a key derived from it. */
  secretKey?: Buffer;
}

/** Password hashing and the sign-in limits as `auth` configures them (refusals counted in metrics). */
export function createAuthDeps(
  auth: Config["auth"],
  options: AuthDepsOptions,
): Pick<DomainDeps, "passwords"> & SignInDeps {
  const refused = options.metrics?.authRefused;
  return {
    passwords: new PasswordHasher(
      { maxConcurrent: auth.maxConcurrentHashes, maxQueued: auth.maxQueuedHashes },
      () => refused?.inc({ reason: "hashing" }),
    ),
    loginThrottle: new LoginThrottle(
      // Shared across nodes when it is Redis. In memory, the sign-in limits get a counter of their
      // own: its windows are evicted oldest first, so a flood of API keys or sign-in addresses
      // must not push out the other's (known addresses most of all).
      options.rateLimits instanceof MemoryRateLimitCounter || !options.rateLimits
        ? new MemoryRateLimitCounter()
        : options.rateLimits,
      {
        failuresPerAddress: auth.loginFailuresPerAddress,
        addressWindowMinutes: auth.loginAddressWindowMinutes,
        failuresPerAccount: auth.loginFailuresPerAccount,
        accountWindowMinutes: auth.loginAccountWindowMinutes,
        knownAddressDays: auth.knownAddressDays,
      },
      (reason) => refused?.inc({ reason }),
      // A key of its own, derived from the server's: the counter keys' digests cannot be reversed.
      options.secretKey &&
        createHmac("sha256", options.secretKey).update("login counter keys").digest(),
    ),
  };
}

/**
 * The base every domain verb's ctx holds (the metadata store, clock, ids, password hashing) with
 * the two sections the composition root builds first: the sign-in limits and the status pages'
 * signals.
 */
export type CoreDeps = DomainDeps & SignInDeps & StatusPageSignalDeps;

export function createDomainDeps(
  config: Config,
  meta: MetaStore,
  options: AuthDepsOptions & { clock?: Clock; newId?: IdGenerator },
): CoreDeps {
  const clock = options.clock ?? systemClock;
  return {
    meta,
    clock,
    newId: options.newId ?? newId,
    sessionTtlHours: config.auth.sessionTtlHours,
    appUrl: new AppUrl(config.publicUrl),
    ...createAuthDeps(config.auth, options),
    statusPages: createStatusPageEngine({ clock }),
  };
}
