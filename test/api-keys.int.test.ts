import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requirePermission } from "../src/server/plugins/auth.js";
import { V1_ROUTES } from "../src/server/server.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn, startTestService, type TestService } from "./helpers/test-service.js";

const OWNER = { email: "keys-owner@example.com", password: "correct horse battery" };

// A /v1 route guarded by the `ingest` permission, registered through the same route registry
// the real modules use: it exercises the production auth, permission and rate-limit plumbing.
const ingestProbe = (): FastifyPluginAsyncZod => async (app) => {
  app.post("/probe-ingest", { preHandler: requirePermission("ingest") }, async () => ({
    accepted: true,
  }));
};

interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
  role: string;
  permissions: string[];
}

describe("API keys on /v1", () => {
  const dir = makeTempDir();
  let service: TestService;
  let session: Awaited<ReturnType<typeof signIn>>;
  let projectId: string;

  const createKey = async (body: object, project = projectId): Promise<CreatedKey> => {
    const response = await session.post(`/api/projects/${project}/api-keys`, body);
    expect(response.status).toBe(201);
    return (await response.json()) as CreatedKey;
  };
  const whoami = (key?: string) =>
    service.fetch("/v1/whoami", key === undefined ? {} : { headers: { "x-api-key": key } });

  beforeAll(async () => {
    service = await startTestService(
      dir.path,
      { VIGIL_ADMIN_EMAIL: OWNER.email, VIGIL_ADMIN_PASSWORD: OWNER.password },
      { v1Routes: [...V1_ROUTES, ingestProbe] },
    );
    session = await signIn(service, OWNER.email, OWNER.password);
    const projects = (await (await session.get("/api/projects")).json()) as {
      data: { id: string }[];
    };
    projectId = projects.data[0]?.id ?? "";
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("shows a key's secret once, at creation, and never again", async () => {
    const created = await createKey({ name: "ci", role: "full" });
    expect(created.key).toMatch(/^vgl_[0-9A-Za-z]{32}$/);
    expect(created.prefix).toBe(created.key.slice(0, 8));
    const list = await session.get(`/api/projects/${projectId}/api-keys`);
    const text = await list.text();
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(created.key.slice(8));
    const listed = (JSON.parse(text) as { data: Record<string, unknown>[] }).data.find(
      (k) => k.id === created.id,
    );
    expect(listed).toMatchObject({
      id: created.id,
      prefix: created.prefix,
      role: "full",
      revokedAt: null,
    });
    expect(listed).not.toHaveProperty("key");
    // Only the hash is stored.
    const stored = await service.deps.meta.repos.apiKeys.findById(created.id);
    expect(JSON.stringify(stored)).not.toContain(created.key);
  });

  it("authenticates a valid key and records when it was used", async () => {
    const created = await createKey({ role: "read_only" });
    const response = await whoami(created.key);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      keyId: created.id,
      projectId,
      permissions: created.permissions,
    });
    const stored = await service.deps.meta.repos.apiKeys.findById(created.id);
    expect(stored?.lastUsedAt).not.toBeNull();
  });

  it("answers 401 for a missing, malformed or unknown key", async () => {
    for (const key of [undefined, "", "not-a-key", `vgl_${"x".repeat(32)}`]) {
      const response = await whoami(key);
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
    }
  });

  it("answers 401 for a revoked key", async () => {
    const created = await createKey({ role: "full" });
    expect((await whoami(created.key)).status).toBe(200);
    const revoke = await session.delete(`/api/projects/${projectId}/api-keys/${created.id}`);
    expect(revoke.status).toBe(200);
    expect(((await revoke.json()) as { revokedAt: string | null }).revokedAt).not.toBeNull();
    const after = await whoami(created.key);
    expect(after.status).toBe(401);
    expect(((await after.json()) as { detail: string }).detail).toContain("revoked");
  });

  it("answers 403 when a read_only key uses a permission it lacks, 200 for ingest and full keys", async () => {
    const readOnly = await createKey({ role: "read_only" });
    expect(readOnly.permissions).not.toContain("ingest");
    expect(readOnly.permissions).toContain("tql:query");
    const post = (key: string) =>
      service.fetch("/v1/probe-ingest", { method: "POST", headers: { "x-api-key": key } });
    const denied = await post(readOnly.key);
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { code: string }).code).toBe("forbidden");
    expect((await post((await createKey({ role: "ingest" })).key)).status).toBe(200);
    expect((await post((await createKey({ role: "full" })).key)).status).toBe(200);
  });

  it("accepts explicit permissions and rejects unknown ones with 400 naming the field", async () => {
    const custom = await createKey({ name: "logs only", permissions: ["logs:read"] });
    expect(custom).toMatchObject({ role: "custom", permissions: ["logs:read"] });
    const bad = await session.post(`/api/projects/${projectId}/api-keys`, {
      permissions: ["root"],
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: { field: string }[] }).errors[0]?.field).toBe(
      "permissions.0",
    );
    const both = await session.post(`/api/projects/${projectId}/api-keys`, {
      role: "full",
      permissions: ["ingest"],
    });
    expect(both.status).toBe(400);
  });

  it("lists the permissions a key can hold and the roles that bundle them, for the key form", async () => {
    const response = await session.get("/api/api-key-permissions");
    expect(response.status).toBe(200);
    const catalogue = (await response.json()) as {
      permissions: { name: string; description: string }[];
      roles: { name: string; permissions: string[] }[];
    };
    expect(catalogue.permissions.map((p) => p.name)).toEqual([
      "ingest",
      "logs:read",
      "traces:read",
      "errors:read",
      "incidents:read",
      "alerts:read",
      "status_pages:read",
      "infra:read",
      "http_metrics:read",
      "ai:read",
      "sessions:read",
      "tql:query",
    ]);
    for (const p of catalogue.permissions) expect(p.description.length).toBeGreaterThan(10);
    expect(catalogue.roles.map((r) => r.name)).toEqual(["read_only", "ingest", "full"]);
    expect(catalogue.roles.find((r) => r.name === "ingest")?.permissions).toEqual(["ingest"]);
    // Each role's list is what a key created with it holds.
    for (const role of catalogue.roles) {
      const key = await createKey({ name: `role ${role.name}`, role: role.name });
      expect(key.permissions).toEqual(role.permissions);
    }
    // Signed-in users only, like the rest of /api.
    expect((await service.fetch("/api/api-key-permissions")).status).toBe(401);
  });

  it("binds each key to its own project", async () => {
    const other = (await (await session.post("/api/projects", { name: "second" })).json()) as {
      id: string;
    };
    const key = await createKey({ role: "read_only" }, other.id);
    expect(((await (await whoami(key.key)).json()) as { projectId: string }).projectId).toBe(
      other.id,
    );
  });

  it("limits each key to 100 requests a minute, with RateLimit headers and Retry-After on 429", async () => {
    const { key } = await createKey({ role: "read_only" });
    const other = await createKey({ role: "read_only" });
    for (let i = 1; i <= 100; i++) {
      const response = await whoami(key);
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-limit")).toBe("100");
      expect(response.headers.get("ratelimit-remaining")).toBe(String(100 - i));
      expect(Number(response.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    }
    const limited = await whoami(key);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("content-type")).toContain("application/problem+json");
    expect(((await limited.json()) as { code: string }).code).toBe("rate_limited");
    // The limit is per key: another key of the same project is unaffected.
    expect((await whoami(other.key)).status).toBe(200);
  });

  it("authenticates and limits unknown /v1 paths like known ones", async () => {
    expect((await service.fetch("/v1/no-such-endpoint")).status).toBe(401);
    const { key } = await createKey({ role: "read_only" });
    const response = await service.fetch("/v1/no-such-endpoint", { headers: { "x-api-key": key } });
    expect(response.status).toBe(404);
    expect(response.headers.get("ratelimit-limit")).toBe("100");
  });

  it("answers 404 when revoking a key through another project's path", async () => {
    const other = (await (await session.post("/api/projects", { name: "third" })).json()) as {
      id: string;
    };
    const foreign = await createKey({ role: "full" }, other.id);
    expect((await session.delete(`/api/projects/${projectId}/api-keys/${foreign.id}`)).status).toBe(
      404,
    );
    expect((await whoami(foreign.key)).status).toBe(200);
  });

  // Last but one: it spends this client address's budget for failed authentication.
  it("limits requests with bad keys per client address, with RateLimit headers on the 401s", async () => {
    let response = await whoami("vgl_notARealKeyButWellFormed0000000");
    expect(response.status).toBe(401);
    expect(response.headers.get("ratelimit-limit")).toBe("100");
    for (let i = 0; i < 100 && response.status === 401; i++) response = await whoami("bogus");
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    // Valid keys keep their own budgets.
    expect((await whoami((await createKey({ role: "read_only" })).key)).status).toBe(200);
  });

  it("never writes keys, passwords or cookies to the log", async () => {
    const created = await createKey({ role: "full" });
    await whoami(created.key);
    await service.fetch("/v1/whoami", { headers: { "x-api-key": `${created.key}x` } });
    const all = service.logs.join("");
    expect(all).toContain('"msg":"request"');
    expect(all).not.toContain(created.key);
    expect(all).not.toContain(OWNER.password);
    expect(all).not.toContain(session.cookie.split("=")[1]);
  });
});
