import { createAuthDeps } from "../../src/composition/domain-deps.js";
import { loadConfig } from "../../src/config/load-config.js";
import type { DomainDeps } from "../../src/context.js";

/** Password hashing and the sign-in limits with the default settings, for domain deps built by hand. */
export function defaultAuthDeps(): Pick<DomainDeps, "passwords" | "loginThrottle"> {
  return createAuthDeps(loadConfig({ env: {} }).auth, {});
}
