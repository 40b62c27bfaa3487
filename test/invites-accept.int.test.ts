import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVITATION_LOOKUPS_PER_MINUTE } from "../src/server/routes/api/invite-routes.js";
import { OUTSIDER, OWNER, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn } from "./helpers/test-service.js";

interface CreatedInvite {
  id: string;
  link: string;
  emailed: boolean;
  emailError: string | null;
}
interface Problem {
  status: number;
  code: string;
  detail: string;
  errors?: { field: string; message: string }[];
}
interface Accepted {
  orgId: string;
  me: { user: { id: string; email: string; name: string }; organizations: { id: string }[] };
}

const DAY_MS = 86_400_000;

/** The accept page's API without SMTP: the link from the response, preview, accept, expiry, limits. */
describe("member invitations: accepting a link", () => {
  const dir = makeTempDir();
  let roles: Awaited<ReturnType<typeof startWithRoles>>;
  // The service's clock: real time plus an offset the expiry test moves.
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs) };

  const json = async <T>(response: Response) => ({
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as T,
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    roles.service
      .fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json", origin: roles.service.url, ...headers },
        body: JSON.stringify(body),
      })
      .then((r) => json<Problem & Record<string, unknown>>(r));
  const invite = async (email: string, role = "member") => {
    const created = await json<CreatedInvite>(
      await roles.owner.post(`/api/orgs/${roles.orgId}/invites`, { email, role }),
    );
    expect(created.status).toBe(201);
    return { ...created.body, token: new URL(created.body.link).pathname.slice(8) };
  };
  const preview = (token: string) => post("/api/invitations/preview", { token });
  const accept = (body: Record<string, unknown>, headers?: Record<string, string>) =>
    post("/api/invitations/accept", body, headers);
  const cookieOf = (headers: Headers) => (headers.get("set-cookie") ?? "").split(";")[0] ?? "";

  beforeAll(async () => {
    roles = await startWithRoles(
      dir.path,
      { VIGIL_MONITORS_ENABLED: "false", VIGIL_ALERTS_ENABLED: "false" },
      { clock },
    );
  }, 60_000);
  afterAll(async () => {
    await roles?.service.stop();
    dir.remove();
  });

  it("without SMTP, returns the link to share and says why nothing was emailed", async () => {
    const created = await invite("hana@example.com");
    expect(created.emailed).toBe(false);
    expect(created.emailError).toContain("VIGIL_SMTP_URL");
    // Without VIGIL_PUBLIC_URL, the link is where the server listens.
    expect(created.link).toBe(`${roles.service.url}/invite/${created.token}`);
  });

  it("creates the account, signs in and joins with the invited role; the link works once", async () => {
    const { token } = await invite("ivan@example.com", "viewer");
    const shown = await preview(token);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      orgName: "Default",
      email: "ivan@example.com",
      role: "viewer",
      invitedBy: "owner",
      expiresAt: expect.any(String),
      hasAccount: false,
    });

    const short = await accept({ token, password: "short" });
    expect(short.status).toBe(400);
    expect(short.body.errors?.map((e) => e.field)).toEqual(["password"]);
    const missing = await accept({ token });
    expect(missing.body.errors?.map((e) => e.field)).toEqual(["password"]);
    // A failed attempt does not use the link up.
    expect((await preview(token)).status).toBe(200);

    const accepted = await accept({ token, password: "ivan's long secret", name: "Ivan" });
    expect(accepted.status).toBe(200);
    const body = accepted.body as unknown as Accepted;
    expect(body.orgId).toBe(roles.orgId);
    expect(body.me.user).toMatchObject({ email: "ivan@example.com", name: "Ivan" });
    expect(body.me.organizations.map((o) => o.id)).toEqual([roles.orgId]);
    const cookie = cookieOf(accepted.headers);
    expect(cookie).toMatch(/^vigil_session=/);
    expect(accepted.headers.get("set-cookie")).toContain("HttpOnly");

    // Signed in: the session works, and the new member is listed with the invited role.
    const me = await roles.service.fetch("/api/auth/me", { headers: { cookie } });
    expect(me.status).toBe(200);
    await me.arrayBuffer();
    const members = await json<{ data: { email: string; role: string }[] }>(
      await roles.owner.get(`/api/orgs/${roles.orgId}/members`),
    );
    expect(members.body.data).toContainEqual(
      expect.objectContaining({ email: "ivan@example.com", role: "viewer" }),
    );
    const pending = await json<{ data: { email: string }[] }>(
      await roles.owner.get(`/api/orgs/${roles.orgId}/invites`),
    );
    expect(pending.body.data.map((i) => i.email)).not.toContain("ivan@example.com");

    // Used: the same answer as an unknown link, and the password works for signing in too.
    const twice = await accept({ token, password: "ivan's long secret" });
    const unknown = await accept({ token: "A".repeat(43), password: "whatever long" });
    expect(twice.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(twice.body.detail).toBe(unknown.body.detail);
    expect(twice.body.detail).not.toContain(token);
    expect((await preview(token)).status).toBe(404);
    const login = await post("/api/auth/login", {
      email: "ivan@example.com",
      password: "ivan's long secret",
    });
    expect(login.status).toBe(200);
  });

  it("adds an existing account after its password, keeping its other organizations", async () => {
    const { token } = await invite(OUTSIDER.email, "member");
    expect((await preview(token)).body.hasAccount).toBe(true);
    const wrong = await accept({ token, password: "not the password" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors?.map((e) => e.field)).toEqual(["password"]);
    // The browser was signed in as someone else: that session ends, the invitee's begins.
    const ownerCookie = (await signIn(roles.service, OWNER.email, OWNER.password)).cookie;
    const accepted = await accept(
      { token, password: OUTSIDER.password, name: "ignored" },
      { cookie: ownerCookie },
    );
    expect(accepted.status).toBe(200);
    const body = accepted.body as unknown as Accepted;
    expect(body.me.user.email).toBe(OUTSIDER.email);
    expect(body.me.user.name).toBe("outsider");
    expect(body.me.organizations.map((o) => o.id)).toContain(roles.orgId);
    expect(body.me.organizations).toHaveLength(2);
    const old = await roles.service.fetch("/api/auth/me", { headers: { cookie: ownerCookie } });
    expect(old.status).toBe(401);
    await old.arrayBuffer();
  });

  it("names the token when it is missing, and answers one 404 for a revoked link", async () => {
    const empty = await preview("");
    expect(empty.status).toBe(400);
    expect(empty.body.errors?.map((e) => e.field)).toEqual(["token"]);
    const long = await preview("x".repeat(500));
    expect(long.body.errors?.map((e) => e.field)).toEqual(["token"]);
    const { id, token } = await invite("jan@example.com");
    const { owner } = roles;
    const revoked = await owner.delete(`/api/orgs/${roles.orgId}/invites/${id}`);
    expect(revoked.status).toBe(204);
    const gone = await accept({ token, password: "jan's long secret" });
    expect(gone.status).toBe(404);
    expect(
      await roles.service.deps.meta.repos.users.findByEmail("jan@example.com"),
    ).toBeUndefined();
  });

  it("accepts one of two accepts at once", async () => {
    const { token } = await invite("kim@example.com");
    const [a, b] = await Promise.all([
      accept({ token, password: "kim's long secret" }),
      accept({ token, password: "kim's long secret" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 404]);
    const members = await json<{ data: { email: string }[] }>(
      await roles.owner.get(`/api/orgs/${roles.orgId}/members`),
    );
    expect(members.body.data.filter((m) => m.email === "kim@example.com")).toHaveLength(1);
  });

  it("expires after 7 days", async () => {
    const { token } = await invite("lea@example.com");
    offsetMs = 7 * DAY_MS - 60_000;
    try {
      expect((await preview(token)).status).toBe(200);
      offsetMs = 7 * DAY_MS + 1000;
      const late = await accept({ token, password: "lea's long secret" });
      expect(late.status).toBe(404);
      expect(late.body.detail).toContain("expired");
    } finally {
      offsetMs = 0;
    }
    const pending = await json<{ data: { email: string }[] }>(
      await roles.owner.get(`/api/orgs/${roles.orgId}/invites`),
    );
    expect(pending.body.data.map((i) => i.email)).toContain("lea@example.com");
  });

  it("limits previews and accepts per client address", async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i <= INVITATION_LOOKUPS_PER_MINUTE; i++) {
      const answer = await preview(`guess${i}`);
      statuses.push(answer.status);
      if (answer.status === 429) retryAfter = answer.headers.get("retry-after");
    }
    expect(statuses.at(-1)).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    const blocked = await accept({ token: "guess", password: "whatever long" });
    expect(blocked.status).toBe(429);
  });
});
