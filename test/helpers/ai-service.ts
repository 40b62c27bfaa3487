// The service the AI dashboard tests read: project A's and B's AI spans (ai-fixtures.ts), and keys
// of A (full, logs-only, rate-limited, revoked), of B and of an empty project C.
import { createApiKey, revokeApiKey } from "../../src/auth/api-keys.js";
import { systemCtx } from "../../src/context.js";
import { createProject } from "../../src/projects/projects.js";
import { initialize } from "../../src/setup/initialize.js";
import { insertProjectA, insertProjectB } from "./ai-fixtures.js";
import { startTestService } from "./test-service.js";

/** Starts the service over `dataDir` with the AI fixtures in the hour from `T0`. */
export async function startAiService(dataDir: string, T0: number) {
  const keys = { a: "", b: "", c: "", logsOnly: "", revoked: "", limited: "" };
  const service = await startTestService(dataDir);
  const setup = await initialize({
    ctx: systemCtx(service.deps.domain),
    input: {
      email: "ai@example.com",
      password: "correct horse battery",
    },
  });
  keys.a = setup.apiKey ?? "";
  const owner = {
    deps: service.deps.domain,
    actor: {
      kind: "user" as const,
      userId: setup.userId,
      memberships: [{ orgId: setup.orgId, orgName: "Default", role: "owner" as const }],
    },
  };
  const key = async (projectId: string, input: Parameters<typeof createApiKey>[0]["input"]) =>
    createApiKey({ ctx: owner, projectId, input });
  const projectB = await createProject({ ctx: owner, input: { name: "b" } });
  const projectC = await createProject({ ctx: owner, input: { name: "c" } });
  keys.b = (await key(projectB.id, { name: "b", role: "read_only" })).key;
  keys.c = (await key(projectC.id, { name: "c", role: "read_only" })).key;
  keys.logsOnly = (await key(setup.projectId, { name: "l", permissions: ["logs:read"] })).key;
  keys.limited = (await key(setup.projectId, { name: "rl", role: "read_only" })).key;
  const revoked = await key(setup.projectId, { name: "r", role: "read_only" });
  keys.revoked = revoked.key;
  await revokeApiKey({ ctx: owner, projectId: setup.projectId, keyId: revoked.id });

  await insertProjectA(service.deps.telemetry, setup.projectId, T0);
  await insertProjectB(service.deps.telemetry, projectB.id, T0);
  return { service, keys };
}
