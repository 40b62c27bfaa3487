import { z } from "zod";
import { createApiKey } from "../auth/api-keys.js";
import { createUser } from "../auth/users.js";
import type { Ctx } from "../context.js";
import { Email, Password } from "../contracts/auth.js";
import { ConflictError, ForbiddenError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import { createProject } from "../projects/projects.js";

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
export async function needsInitialization({ ctx }: { ctx: Ctx }): Promise<boolean> {
  return (await ctx.deps.meta.repos.users.count()) === 0;
}

/**
 * Sets up an empty installation in one transaction: the operator creates the owner with a new
 * organization, then the owner creates the first project and, optionally, a `full` API key.
 * Refuses when any user exists.
 */
export async function initialize({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: InitializeInput;
}): Promise<InitializeResult> {
  if (ctx.actor.kind !== "system") throw new ForbiddenError("Only the operator can initialize");
  const data = parseInput(InitializeInput, input);
  return ctx.deps.meta.transaction(async (meta) => {
    if ((await meta.repos.users.count()) > 0) {
      throw new ConflictError(
        "This data directory is already initialized; use `vigil users create` or `vigil keys create` instead",
      );
    }
    const txDeps = { ...ctx.deps, meta };
    const { user, orgId, role } = await createUser({
      ctx: { deps: txDeps, actor: ctx.actor },
      input: { email: data.email, password: data.password, newOrg: data.org },
    });
    const owner = {
      deps: txDeps,
      actor: {
        kind: "user" as const,
        userId: user.id,
        memberships: [{ orgId, orgName: data.org, role }],
      },
    };
    const project = await createProject({ ctx: owner, input: { name: data.project } });
    const result = { orgId, projectId: project.id, userId: user.id };
    if (!data.withApiKey) return result;
    const key = await createApiKey({
      ctx: owner,
      projectId: project.id,
      input: { name: "Initial key", role: "full" },
    });
    return { ...result, apiKey: key.key };
  });
}
