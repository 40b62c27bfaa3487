import { z } from "zod";
import { generateApiKeySecret } from "../auth/api-keys.js";
import { API_KEY_ROLES } from "../auth/permissions.js";
import { Email, Password } from "../auth/users.js";
import type { DomainDeps } from "../context.js";
import { hashPassword } from "../lib/crypto.js";
import { ConflictError } from "../lib/errors.js";
import { parseInput } from "../lib/validation.js";

export const InitializeInput = z
  .object({
    email: Email,
    password: Password,
    org: z.string().trim().min(1).max(100).default("Default"),
    project: z.string().trim().min(1).max(100).default("default"),
    /** Whether to issue a `full` API key for the new project. */
    withApiKey: z.boolean().default(true),
  })
  .strict();
export type InitializeInput = z.input<typeof InitializeInput>;

export interface InitializeResult {
  orgId: string;
  projectId: string;
  userId: string;
  /** The `full` key's secret, shown this once. */
  apiKey?: string;
}

/** True when nobody can sign in yet: the state `vigil init` and the admin env vars act on. */
export async function needsInitialization(deps: DomainDeps): Promise<boolean> {
  return (await deps.meta.repos.users.count()) === 0;
}

/**
 * Sets up an empty installation in one transaction: organization, project, owner and optionally
 * a `full` API key. Refuses when any user exists.
 */
export async function initialize(
  deps: DomainDeps,
  input: InitializeInput,
): Promise<InitializeResult> {
  const data = parseInput(InitializeInput, input);
  const passwordHash = await hashPassword(data.password);
  const createdAt = deps.clock.now().toISOString();
  return deps.meta.transaction(async (repos) => {
    if ((await repos.users.count()) > 0) {
      throw new ConflictError(
        "This data directory is already initialized; use `vigil users create` or `vigil keys create` instead",
      );
    }
    const orgId = deps.newId("org");
    const projectId = deps.newId("prj");
    const userId = deps.newId("usr");
    await repos.organizations.insert({ id: orgId, name: data.org, createdAt });
    await repos.projects.insert({ id: projectId, orgId, name: data.project, createdAt });
    await repos.users.insert({
      id: userId,
      email: data.email,
      name: data.email.split("@")[0] ?? data.email,
      passwordHash,
      createdAt,
    });
    await repos.users.addMembership(orgId, userId, "owner", createdAt);
    if (!data.withApiKey) return { orgId, projectId, userId };
    const { secret, keyHash, keyPrefix } = generateApiKeySecret();
    await repos.apiKeys.insert({
      id: deps.newId("key"),
      projectId,
      name: "Initial key",
      keyHash,
      keyPrefix,
      role: "full",
      permissions: [...API_KEY_ROLES.full],
      createdBy: userId,
      createdAt,
      lastUsedAt: null,
      revokedAt: null,
    });
    return { orgId, projectId, userId, apiKey: secret };
  });
}
