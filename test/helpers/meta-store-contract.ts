import { expect, it } from "vitest";
import {
  authenticateApiKey,
  createApiKey,
  listApiKeys,
  revokeApiKey,
} from "../../src/auth/api-keys.js";
import { authenticateSession, login, logout } from "../../src/auth/sign-in-sessions.js";
import { createUser } from "../../src/auth/users.js";
import type { CoreDeps } from "../../src/composition/domain-deps.js";
import { anonymousCtx, systemCtx } from "../../src/context.js";
import { AppUrl } from "../../src/lib/app-url.js";
import { ConflictError, UnauthorizedError } from "../../src/lib/domain-errors.js";
import type { MetaStore } from "../../src/meta/meta-store.js";
import { createProject, listProjects } from "../../src/projects/projects.js";
import { initialize } from "../../src/setup/initialize.js";
import { createStatusPageEngine } from "../../src/status-pages/engine.js";
import { alertStoreContract } from "./alert-store-contract.js";
import { defaultAuthDeps } from "./auth-deps.js";
import { dashboardStoreContract } from "./dashboard-store-contract.js";
import { escalationStoreContract } from "./escalation-store-contract.js";
import { heartbeatStoreContract } from "./heartbeat-store-contract.js";
import { incidentResponseStoreContract } from "./incident-response-store-contract.js";
import { inviteStoreContract } from "./invite-store-contract.js";
import { monitorStoreContract } from "./monitor-store-contract.js";
import { notificationStoreContract } from "./notification-store-contract.js";
import { savedQueryStoreContract } from "./saved-query-store-contract.js";
import { savedViewStoreContract } from "./saved-view-store-contract.js";
import { statusPageSubscriberStoreContract } from "./status-page-subscriber-store-contract.js";
import { webhookDeliveryContract } from "./webhook-delivery-store-contract.js";
import { webhookEndpointContract } from "./webhook-endpoint-store-contract.js";
import { workLeaseContract } from "./work-lease-contract.js";

/**
 * The behaviour every metadata engine must show: migrations, the auth repositories through the
 * domain verbs, unique constraints and transactions. Run once per engine.
 */
export function metaStoreContract(getStore: () => MetaStore): void {
  const clock = { now: () => new Date() };
  const deps = (): CoreDeps => ({
    meta: getStore(),
    clock,
    newId: (prefix) => `${prefix}_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`,
    sessionTtlHours: 1,
    appUrl: new AppUrl(undefined),
    ...defaultAuthDeps(),
    statusPages: createStatusPageEngine({ clock }),
  });
  const system = () => systemCtx(deps());
  const anon = () => anonymousCtx(deps());

  it("runs the migrations once; a second run has nothing to do", async () => {
    expect(await getStore().migrate()).toEqual([]);
    await getStore().ping();
  });

  it("initializes an installation atomically and refuses to do it twice", async () => {
    const result = await initialize({
      ctx: systemCtx(deps()),
      input: {
        email: "Admin@Example.com",
        password: "password-1",
        org: "Acme",
      },
    });
    expect(result.apiKey).toMatch(/^vgl_/);
    await expect(
      initialize({
        ctx: systemCtx(deps()),
        input: { email: "second@example.com", password: "password-2" },
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(await getStore().repos.users.count()).toBe(1);
    expect(await getStore().repos.organizations.count()).toBe(1);
    const actor = await authenticateApiKey({ ctx: anon(), presented: result.apiKey });
    expect(actor.projectId).toBe(result.projectId);
    const [key] = await getStore().repos.apiKeys.listByProject(result.projectId);
    expect(key).toMatchObject({ role: "full", createdBy: result.userId });
  });

  it("lets a verb join the caller's transaction, so a later failure undoes its writes", async () => {
    const abort = new Error("abort after createUser");
    await expect(
      getStore().transaction(async (meta) => {
        await createUser({
          ctx: { deps: { ...deps(), meta }, actor: { kind: "system" } },
          input: { email: "rolled-back@example.com", password: "password-9", newOrg: "Gone" },
        });
        expect(await meta.repos.users.findByEmail("rolled-back@example.com")).toBeDefined();
        throw abort;
      }),
    ).rejects.toBe(abort);
    expect(await getStore().repos.users.findByEmail("rolled-back@example.com")).toBeUndefined();
    expect((await getStore().repos.organizations.list()).map((o) => o.name)).not.toContain("Gone");
  });

  it("logs in by case-insensitive email, resolves and ends the session", async () => {
    const session = await login({
      ctx: anon(),
      input: { email: "ADMIN@example.com", password: "password-1" },
      address: "192.0.2.1",
    });
    expect(session.user.email).toBe("admin@example.com");
    expect(session.memberships).toEqual([
      expect.objectContaining({ orgName: "Acme", role: "owner" }),
    ]);
    const resolved = await authenticateSession({ ctx: anon(), token: session.token });
    expect(resolved.user.id).toBe(session.user.id);
    await logout({ ctx: anon(), token: session.token });
    await expect(authenticateSession({ ctx: anon(), token: session.token })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await expect(
      login({
        ctx: anon(),
        input: { email: "admin@example.com", password: "wrong-password" },
        address: "192.0.2.1",
      }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it("expires sessions after their time to live", async () => {
    const session = await login({
      ctx: anon(),
      input: { email: "admin@example.com", password: "password-1" },
      address: "192.0.2.1",
    });
    const later: CoreDeps = {
      ...deps(),
      clock: { now: () => new Date(Date.now() + 2 * 3_600_000) },
    };
    await expect(
      authenticateSession({ ctx: anonymousCtx(later), token: session.token }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it("rejects a duplicate email with a ConflictError", async () => {
    await expect(
      createUser({ ctx: system(), input: { email: "admin@example.com", password: "password-3" } }),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it("keeps organizations apart and manages API keys per project", async () => {
    const other = await createUser({
      ctx: system(),
      input: { email: "other@example.com", password: "password-4", newOrg: "Other" },
    });
    const otherSession = await login({
      ctx: anon(),
      input: { email: "other@example.com", password: "password-4" },
      address: "192.0.2.1",
    });
    const ctx = {
      deps: deps(),
      actor: {
        kind: "user" as const,
        userId: other.user.id,
        memberships: otherSession.memberships,
      },
    };
    const project = await createProject({ ctx, input: { name: "shop" } });
    expect((await listProjects({ ctx })).map((p) => p.id)).toEqual([project.id]);

    const key = await createApiKey({
      ctx,
      projectId: project.id,
      input: { name: "k", role: "ingest" },
    });
    expect((await listApiKeys({ ctx, projectId: project.id })).map((k) => k.id)).toContain(key.id);
    expect((await authenticateApiKey({ ctx: anon(), presented: key.key })).permissions).toEqual([
      "ingest",
    ]);
    await revokeApiKey({ ctx, projectId: project.id, keyId: key.id });
    await expect(authenticateApiKey({ ctx: anon(), presented: key.key })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
  });

  notificationStoreContract(getStore);
  monitorStoreContract(getStore);
  incidentResponseStoreContract(getStore);
  escalationStoreContract(getStore);
  webhookEndpointContract(getStore);
  webhookDeliveryContract(getStore);
  alertStoreContract(getStore);
  savedQueryStoreContract(getStore);
  savedViewStoreContract(getStore);
  dashboardStoreContract(getStore);
  workLeaseContract(getStore);
  inviteStoreContract(getStore);
  heartbeatStoreContract(getStore);
  statusPageSubscriberStoreContract(getStore);
}
