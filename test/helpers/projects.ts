import { createApiKey } from "../../src/auth/api-keys.js";
import type { CreateApiKeyInput } from "../../src/contracts/auth.js";
import type { TestService } from "./test-service.js";

/**
 * Another project in the organization, with a key of its own: the "other tenant" of the
 * isolation cases. A full-access key unless told otherwise.
 */
export async function addProjectWithKey(
  service: TestService,
  orgId: string,
  id: string,
  input: CreateApiKeyInput = { name: "other", role: "full" },
): Promise<{ projectId: string; key: string }> {
  const project = await service.deps.domain.meta.repos.projects.insert({
    id,
    orgId,
    name: id,
    createdAt: new Date().toISOString(),
  });
  const { key } = await createApiKey({
    ctx: { deps: service.deps.domain, actor: { kind: "system" } },
    projectId: project.id,
    input,
  });
  return { projectId: project.id, key };
}

/** Another API key of an existing project, made by the system (no signed-in owner needed). */
export async function addKey(
  service: TestService,
  projectId: string,
  input: CreateApiKeyInput,
): Promise<string> {
  const ctx = { deps: service.deps.domain, actor: { kind: "system" as const } };
  return (await createApiKey({ ctx, projectId, input })).key;
}
