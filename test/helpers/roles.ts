import { createUser } from "../../src/auth/users.js";
import type { DepsOptions } from "../../src/composition/app-deps.js";
import type { ServerOptions } from "../../src/server/server.js";
import { signIn, startTestService, type TestService } from "./test-service.js";

/** The three people every management API test acts as. */
export const OWNER = { email: "owner@example.com", password: "correct horse battery" };
export const VIEWER = { email: "viewer@example.com", password: "viewer secret 1" };
export const OUTSIDER = { email: "outsider@example.com", password: "outsider secret 1" };

export type Session = Awaited<ReturnType<typeof signIn>>;

/**
 * The service with its first admin (OWNER, who owns the default organization and project), a
 * VIEWER of that organization and an OUTSIDER with an organization of their own, all signed in.
 */
export async function startWithRoles(
  dataDir: string,
  env: Record<string, string> = {},
  depsOptions: Pick<DepsOptions, "clock" | "newId"> = {},
  serverOptions: ServerOptions = {},
) {
  const service: TestService = await startTestService(
    dataDir,
    { VIGIL_ADMIN_EMAIL: OWNER.email, VIGIL_ADMIN_PASSWORD: OWNER.password, ...env },
    serverOptions,
    depsOptions,
  );
  const { users, projects } = service.deps.meta.repos;
  const ownerUser = await users.findByEmail(OWNER.email);
  const [membership] = ownerUser ? await users.listMemberships(ownerUser.id) : [];
  const orgId = membership?.orgId ?? "";
  const ctx = { deps: service.deps.domain, actor: { kind: "system" as const } };
  await createUser({ ctx, input: { ...VIEWER, orgId, role: "viewer" } });
  await createUser({ ctx, input: { ...OUTSIDER, newOrg: "Elsewhere" } });
  const [project] = await projects.listByOrgs([orgId]);
  return {
    service,
    orgId,
    ownerId: ownerUser?.id ?? "",
    projectId: project?.id ?? "",
    owner: await signIn(service, OWNER.email, OWNER.password),
    viewer: await signIn(service, VIEWER.email, VIEWER.password),
    outsider: await signIn(service, OUTSIDER.email, OUTSIDER.password),
  };
}
