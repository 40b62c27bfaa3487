import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../src/auth/users.js";
import { sha256Hex } from "../src/lib/crypto.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn, startTestService, type TestService } from "./helpers/test-service.js";

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
const OUTSIDER = { email: "outsider@example.com", password: "another secret 1" };
const VIEWER = { email: "viewer@example.com", password: "viewer secret 1" };

describe("sessions, projects and API key management over /api", () => {
  const dir = makeTempDir();
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService(dir.path, {
      VIGIL_ADMIN_EMAIL: OWNER.email,
      VIGIL_ADMIN_PASSWORD: OWNER.password,
    });
    const ctx = { deps: service.deps.domain, actor: { kind: "system" as const } };
    await createUser({ ctx, input: { ...OUTSIDER, newOrg: "Other Inc" } });
    const owner = await service.deps.meta.repos.users.findByEmail(OWNER.email);
    const [membership] = owner ? await service.deps.meta.repos.users.listMemberships(owner.id) : [];
    await createUser({ ctx, input: { ...VIEWER, orgId: membership?.orgId, role: "viewer" } });
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("creates the first admin from VIGIL_ADMIN_EMAIL/PASSWORD on first start", async () => {
    const session = await signIn(service, OWNER.email, OWNER.password);
    const me = await session.get("/api/auth/me");
    expect(me.status).toBe(200);
    const body = (await me.json()) as {
      user: { email: string };
      organizations: { role: string }[];
    };
    expect(body.user.email).toBe(OWNER.email);
    expect(body.organizations).toEqual([
      expect.objectContaining({ name: "Default", role: "owner" }),
    ]);
  });

  it("sets an HttpOnly SameSite=Lax cookie, and logout ends the session", async () => {
    const response = await service.fetch("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(OWNER),
    });
    const setCookie = response.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^vigil_session=[0-9A-Za-z]{43};/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).not.toContain("Secure");
    const cookie = setCookie.split(";")[0] ?? "";
    expect((await service.fetch("/api/auth/me", { headers: { cookie } })).status).toBe(200);
    const logout = await service.fetch("/api/auth/logout", {
      method: "POST",
      headers: { cookie, origin: service.url },
    });
    expect(logout.status).toBe(204);
    const after = await service.fetch("/api/auth/me", { headers: { cookie } });
    expect(after.status).toBe(401);
    expect(after.headers.get("content-type")).toContain("application/problem+json");
  });

  it("takes a JSON content type with no body as no body; malformed JSON is still a 400", async () => {
    const session = await signIn(service, OWNER.email, OWNER.password);
    const json = {
      cookie: session.cookie,
      origin: service.url,
      "content-type": "application/json",
    };
    const malformed = await service.fetch("/api/auth/login", {
      method: "POST",
      headers: json,
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    // A route that needs a body says so for an empty one.
    const noCredentials = await service.fetch("/api/auth/login", { method: "POST", headers: json });
    expect(noCredentials.status).toBe(400);
    const logout = await service.fetch("/api/auth/logout", { method: "POST", headers: json });
    expect(logout.status).toBe(204);
  });

  it("refuses a cookie logout without Origin, and answers 204 for an already ended session", async () => {
    const session = await signIn(service, OWNER.email, OWNER.password);
    const noOrigin = await service.fetch("/api/auth/logout", {
      method: "POST",
      headers: { cookie: session.cookie },
    });
    expect(noOrigin.status).toBe(403);
    expect((await session.get("/api/auth/me")).status).toBe(200);
    const stale = await service.fetch("/api/auth/logout", {
      method: "POST",
      headers: { cookie: "vigil_session=ended", origin: service.url },
    });
    expect(stale.status).toBe(204);
    expect(stale.headers.get("set-cookie")).toMatch(/^vigil_session=;.*Expires=Thu, 01 Jan 1970/);
  });

  it("re-sends the cookie with the later expiry when a session is extended", async () => {
    const session = await signIn(service, OWNER.email, OWNER.password);
    const first = await session.get("/api/auth/me");
    expect(first.headers.get("set-cookie")).toBeNull();
    // Age the session past the renewal interval, as if the user came back later.
    const stored = await service.deps.meta.repos.signInSessions.findByTokenHash(
      sha256Hex(session.cookie.split("=")[1] ?? ""),
    );
    if (!stored) throw new Error("session not stored");
    const old = new Date(Date.now() - 10 * 60_000).toISOString();
    await service.deps.meta.repos.signInSessions.touch(stored.id, old, stored.expiresAt);
    const renewed = await session.get("/api/auth/me");
    const cookie = renewed.headers.get("set-cookie") ?? "";
    expect(cookie).toContain(session.cookie);
    const expires = Date.parse(/Expires=([^;]+)/.exec(cookie)?.[1] ?? "");
    expect(expires).toBeGreaterThan(Date.parse(stored.expiresAt) - 1000);
  });

  it("rejects a wrong password and an unknown email alike with 401", async () => {
    for (const body of [
      { ...OWNER, password: "wrong password" },
      { email: "nobody@example.com", password: "whatever1" },
    ]) {
      const response = await service.fetch("/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { detail: string }).detail).toBe(
        "Invalid email or password",
      );
    }
  });

  it("answers 400 naming the field for an invalid login body", async () => {
    const response = await service.fetch("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "not-an-email", password: "x" }),
    });
    expect(response.status).toBe(400);
    const problem = (await response.json()) as {
      code: string;
      errors: { field: string }[];
      requestId: string;
    };
    expect(problem.code).toBe("invalid_input");
    expect(problem.errors.map((e) => e.field)).toContain("email");
    expect(problem.requestId).toBe(response.headers.get("x-request-id"));
  });

  it("requires a same-origin Origin on cookie-authenticated writes (CSRF)", async () => {
    const session = await signIn(service, OWNER.email, OWNER.password);
    const attempt = (headers: Record<string, string>) =>
      service.fetch("/api/projects", {
        method: "POST",
        headers: { cookie: session.cookie, "content-type": "application/json", ...headers },
        body: JSON.stringify({ name: "csrf-check" }),
      });
    expect((await attempt({})).status).toBe(403);
    expect((await attempt({ origin: "https://evil.example" })).status).toBe(403);
    expect((await attempt({ origin: "null" })).status).toBe(403);
    expect((await attempt({ origin: service.url })).status).toBe(201);
  });

  it("shows a user only their own organization's projects", async () => {
    const owner = await signIn(service, OWNER.email, OWNER.password);
    const created = await owner.post("/api/projects", { name: "checkout" });
    expect(created.status).toBe(201);
    const project = (await created.json()) as { id: string };

    const outsider = await signIn(service, OUTSIDER.email, OUTSIDER.password);
    const list = (await (await outsider.get("/api/projects")).json()) as { data: { id: string }[] };
    expect(list.data.map((p) => p.id)).not.toContain(project.id);
    expect((await outsider.get(`/api/projects/${project.id}`)).status).toBe(404);
    expect((await outsider.get(`/api/projects/${project.id}/api-keys`)).status).toBe(404);
    expect(
      (await outsider.post(`/api/projects/${project.id}/api-keys`, { role: "full" })).status,
    ).toBe(404);

    const ownList = (await (await owner.get("/api/projects")).json()) as {
      data: { id: string }[];
      pagination: { total: number; page: number; limit: number; hasMore: boolean };
    };
    expect(ownList.data.map((p) => p.id)).toContain(project.id);
    expect(ownList.pagination).toMatchObject({ page: 1, limit: 50, hasMore: false });
  });

  it("lets a viewer read but not create projects or keys", async () => {
    const viewer = await signIn(service, VIEWER.email, VIEWER.password);
    const list = (await (await viewer.get("/api/projects")).json()) as { data: { id: string }[] };
    const projectId = list.data[0]?.id ?? "";
    expect((await viewer.get(`/api/projects/${projectId}/api-keys`)).status).toBe(200);
    expect((await viewer.post("/api/projects", { name: "nope" })).status).toBe(403);
    expect(
      (await viewer.post(`/api/projects/${projectId}/api-keys`, { role: "full" })).status,
    ).toBe(403);
  });

  it("answers a duplicate project name with 409", async () => {
    const owner = await signIn(service, OWNER.email, OWNER.password);
    expect((await owner.post("/api/projects", { name: "dupe" })).status).toBe(201);
    const again = await owner.post("/api/projects", { name: "dupe" });
    expect(again.status).toBe(409);
  });

  it("limits failed sign-ins per email, by the connection's address", async () => {
    const attempt = (email: string) =>
      service.fetch("/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: "guess-guess" }),
      });
    // 10 failures per email (VIGIL_AUTH_LOGIN_FAILURES_PER_ACCOUNT), whatever its case.
    for (let i = 0; i < 10; i++) expect((await attempt("target@example.com")).status).toBe(401);
    const limited = await attempt("Target@Example.com");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another account from the same address is not locked out (its failures are under 20).
    expect((await attempt("someone-else@example.com")).status).toBe(401);
  });

  it("answers whether a session is signed in with 200 either way, so a signed-out page logs no 401", async () => {
    const none = await service.fetch("/api/auth/session");
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual({ signedIn: false, me: null });
    // An ended or forged session is signed out too, and its cookie is cleared.
    const forged = await service.fetch("/api/auth/session", {
      headers: { cookie: "vigil_session=forged" },
    });
    expect(forged.status).toBe(200);
    expect(await forged.json()).toEqual({ signedIn: false, me: null });
    expect(forged.headers.get("set-cookie")).toMatch(/^vigil_session=;/);
    const session = await signIn(service, OWNER.email, OWNER.password);
    const signed = await session.get("/api/auth/session");
    expect(signed.status).toBe(200);
    const body = (await signed.json()) as { signedIn: boolean; me: { user: { email: string } } };
    expect(body.signedIn).toBe(true);
    expect(body.me.user.email).toBe(OWNER.email);
    expect(body.me).toEqual(await (await session.get("/api/auth/me")).json());
  });

  it("rejects /api requests without a session with 401", async () => {
    expect((await service.fetch("/api/projects")).status).toBe(401);
    expect(
      (await service.fetch("/api/projects", { headers: { cookie: "vigil_session=forged" } }))
        .status,
    ).toBe(401);
  });
});
