import type { CoreDeps } from "../../src/composition/domain-deps.js";
import { createAuthDeps } from "../../src/composition/domain-deps.js";
import { loadConfig } from "../../src/config/load-config.js";

/** Password hashing and the sign-in limits with the default settings, for domain deps built by hand. */
export function defaultAuthDeps(): Pick<CoreDeps, "passwords" | "loginThrottle"> {
  return createAuthDeps(loadConfig({ env: {} }).auth, {});
}
