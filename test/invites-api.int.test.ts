import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../src/auth/users.js";
import { sha256Hex } from "../src/lib/crypto.js";
import { OUTSIDER, OWNER, type Session, startWithRoles, VIEWER } from "./helpers/roles.js";
import { linksIn, useSmtpSink } from "./helpers/smtp-sink.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn } from "./helpers/test-service.js";

interface Invite {
  id: string;
  orgId: string;
  email: string;
  role: string;
  invitedBy: { name: string; email: string } | null;
  createdAt: string;
  expiresAt: string;
}
interface CreatedInvite extends Invite {
  link: string | null;
  emailed: boolean;
  emailError: string | null;
}
interface Problem {
  status: number;
  code: string;
  detail: string;
  errors?: { field: string; message: string }[];
}

const ADMIN = { email: "admin@example.com", password: "admin secret 12" };
const DAY_MS = 86_400_000;

/** /api/orgs/:orgId/invites: owners and admins invite by email (SMTP configured), list, revoke. */
describe("member invitations: sending, listing, revoking", () => {
  const dir = makeTempDir();
  const sink = useSmtpSink();
  let roles: Awaited<ReturnType<typeof startWithRoles>>;
  let admin: Session;

  const path = (orgId = roles.orgId) => `/api/orgs/${orgId}/invites`;
  const json = async <T>(response: Response) => ({
    status: response.status,
    body: (response.status === 204 ? null : await response.json()) as T,
  });
  /** Invites; an emailed invitation's link (not in the answer) is read from its email. */
  const invite = async (session: Session, body: unknown, orgId?: string) => {
    const to = (body as { email?: string }).email?.trim().toLowerCase() ?? "";
    const before = sink.to(to).length;
    const created = await session
      .post(path(orgId), body)
      .then((r) => json<CreatedInvite & Problem>(r));
    if (created.status !== 201 || !created.body.emailed) return { ...created, emailedLink: "" };
    expect(created.body.link).toBeNull();
    await sink.waitFor(() => sink.to(to).length > before);
    const mail = sink.to(to)[before];
    if (!mail) throw new Error(`no invitation email to ${to}`);
    const [link = ""] = linksIn(mail);
    return { ...created, emailedLink: link };
  };
  const pending = async (session: Session = roles.owner) =>
    (await json<{ data: Invite[] }>(await session.get(path()))).body.data;
  const preview = (token: string) =>
    roles.service
      .fetch("/api/invitations/preview", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token }),
      })
      .then((r) => json<Problem & { email: string }>(r));
  const tokenOf = (link: string) => new URL(link).pathname.replace("/invite/", "");

  beforeAll(async () => {
    roles = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_SMTP_URL: sink.url,
      VIGIL_SMTP_FROM: "vigil@example.com",
    });
    const ctx = { deps: roles.service.deps.domain, actor: { kind: "system" as const } };
    await createUser({ ctx, input: { ...ADMIN, orgId: roles.orgId, role: "admin" } });
    admin = await signIn(roles.service, ADMIN.email, ADMIN.password);
  }, 60_000);
  afterAll(async () => {
    await roles?.service.stop();
    dir.remove();
  });

  it("emails the invitation with its single-use link, and keeps the link out of the answer", async () => {
    const before = Date.now();
    const created = await invite(roles.owner, { email: " Dana@Example.com ", role: "member" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^inv_/),
      orgId: roles.orgId,
      email: "dana@example.com",
      role: "member",
      invitedBy: { name: "owner", email: OWNER.email },
      emailed: true,
      emailError: null,
    });
    // Absolute (where the server listens, without VIGIL_PUBLIC_URL); valid for 7 days.
    expect(created.emailedLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/invite\/[0-9A-Za-z]{43}$/);
    const ttl = Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt);
    expect(ttl).toBe(7 * DAY_MS);
    expect(Date.parse(created.body.createdAt)).toBeGreaterThanOrEqual(before - 1000);

    const mail = await sink.waitFor((m) => m.recipients.includes("dana@example.com"));
    expect(mail.envelopeFrom).toBe("vigil@example.com");
    expect(mail.subject).toBe("owner invited you to Default on Vigil");
    expect(mail.text).toContain("as a member");
    expect(mail.html).toContain("Accept the invitation");
    expect(linksIn(mail)).toEqual([created.emailedLink]);

    // Stored as its SHA-256 only; the list never shows the token or the link.
    const token = tokenOf(created.emailedLink);
    const stored = await roles.service.deps.meta.repos.invites.findById(created.body.id);
    expect(stored?.tokenHash).toBe(sha256Hex(token));
    const list = await json<{ data: Invite[]; pagination: { total: number } }>(
      await roles.owner.get(path()),
    );
    expect(list.body.pagination.total).toBe(1);
    expect(list.body.data[0]).toEqual({
      id: created.body.id,
      orgId: roles.orgId,
      email: "dana@example.com",
      role: "member",
      invitedBy: { name: "owner", email: OWNER.email },
      createdAt: created.body.createdAt,
      expiresAt: created.body.expiresAt,
    });
    expect(JSON.stringify(list.body)).not.toContain(token);
    // The token never reaches the request log, from the API or from the accept page's path.
    const page = await roles.service.fetch(`/invite/${token}`);
    await page.arrayBuffer();
    expect((await preview(token)).body.email).toBe("dana@example.com");
    expect(roles.service.logs.join("")).not.toContain(token);
  });

  it("names the field of bad input", async () => {
    for (const [body, field] of [
      [{ email: "not an email", role: "member" }, "email"],
      [{ email: "x@example.com", role: "god" }, "role"],
      [{ role: "member" }, "email"],
      [{ email: "x@example.com" }, "role"],
    ] as const) {
      const bad = await invite(roles.owner, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.errors?.map((e) => e.field)).toEqual([field]);
    }
    const extra = await invite(roles.owner, { email: "x@example.com", role: "member", x: 1 });
    expect(extra.status).toBe(400);
  });

  it("lets owners and admins invite, never into a role above their own", async () => {
    expect((await invite(roles.viewer, { email: "v@example.com", role: "viewer" })).status).toBe(
      403,
    );
    expect((await json(await roles.viewer.get(path()))).status).toBe(403);
    // Another organization's invitations do not exist for an outsider.
    expect((await invite(roles.outsider, { email: "o@example.com", role: "viewer" })).status).toBe(
      404,
    );
    expect((await json(await roles.outsider.get(path()))).status).toBe(404);
    expect((await json(await roles.owner.get(path("org_missing")))).status).toBe(404);

    const byAdmin = await invite(admin, { email: "erin@example.com", role: "admin" });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.invitedBy?.email).toBe(ADMIN.email);
    const ownerByAdmin = await invite(admin, { email: "boss@example.com", role: "owner" });
    expect(ownerByAdmin.status).toBe(403);
    expect(ownerByAdmin.body.detail).toContain("only owners");
    const ownerByOwner = await invite(roles.owner, { email: "boss@example.com", role: "owner" });
    expect(ownerByOwner.status).toBe(201);
    // An admin cannot revoke an owner's invitation either, nor can a viewer revoke any.
    const revokeOwner = await admin.delete(`${path()}/${ownerByOwner.body.id}`);
    expect(revokeOwner.status).toBe(403);
    await revokeOwner.arrayBuffer();
    const byViewer = await roles.viewer.delete(`${path()}/${byAdmin.body.id}`);
    expect(byViewer.status).toBe(403);
    await byViewer.arrayBuffer();
    expect((await pending(admin)).map((i) => i.email)).toEqual(
      expect.arrayContaining(["boss@example.com", "erin@example.com"]),
    );
  });

  it("refuses to invite a member, whatever the case of the address", async () => {
    for (const email of [VIEWER.email, OWNER.email.toUpperCase()]) {
      const again = await invite(roles.owner, { email, role: "member" });
      expect(again.status).toBe(409);
      expect(again.body.errors?.map((e) => e.field)).toEqual(["email"]);
    }
    // An outsider's account is not a member here: they can be invited.
    const outsider = await invite(roles.owner, { email: OUTSIDER.email, role: "viewer" });
    expect(outsider.status).toBe(201);
  });

  it("replaces the pending invitation of an email; the old link opens nothing", async () => {
    const first = await invite(roles.owner, { email: "frank@example.com", role: "viewer" });
    const second = await invite(roles.owner, { email: "frank@example.com", role: "member" });
    expect(second.status).toBe(201);
    const franks = (await pending()).filter((i) => i.email === "frank@example.com");
    expect(franks.map((i) => [i.id, i.role])).toEqual([[second.body.id, "member"]]);
    const old = await preview(tokenOf(first.emailedLink));
    expect(old.status).toBe(404);
    expect((await preview(tokenOf(second.emailedLink))).status).toBe(200);
    expect(sink.to("frank@example.com")).toHaveLength(2);
  });

  it("does not let an admin replace (so revoke) an owner's invitation by inviting the email again", async () => {
    const owners = await invite(roles.owner, { email: "olga@example.com", role: "owner" });
    expect(owners.status).toBe(201);
    const replaced = await invite(admin, { email: "olga@example.com", role: "viewer" });
    expect(replaced.status).toBe(403);
    const olgas = (await pending()).filter((i) => i.email === "olga@example.com");
    expect(olgas.map((i) => [i.id, i.role])).toEqual([[owners.body.id, "owner"]]);
    expect((await preview(tokenOf(owners.emailedLink))).status).toBe(200);
  });

  it("revokes an invitation: gone from the list, its link opens nothing, twice is 404", async () => {
    const created = await invite(admin, { email: "gina@example.com", role: "viewer" });
    const revoked = await admin.delete(`${path()}/${created.body.id}`);
    expect(revoked.status).toBe(204);
    await revoked.arrayBuffer();
    expect((await pending()).map((i) => i.email)).not.toContain("gina@example.com");
    const link = await preview(tokenOf(created.emailedLink));
    expect(link.status).toBe(404);
    const again = await json<Problem>(await admin.delete(`${path()}/${created.body.id}`));
    expect(again.status).toBe(404);
    const unknown = await json<Problem>(await admin.delete(`${path()}/inv_nothing`));
    expect(unknown.status).toBe(404);
  });

  it("is in the OpenAPI document", async () => {
    const doc = (await (await roles.service.fetch("/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths["/api/orgs/{orgId}/invites"] ?? {}).sort()).toEqual([
      "get",
      "post",
    ]);
    expect(doc.paths["/api/orgs/{orgId}/invites/{inviteId}"]).toHaveProperty("delete");
    expect(doc.paths["/api/invitations/preview"]).toHaveProperty("post");
    expect(doc.paths["/api/invitations/accept"]).toHaveProperty("post");
  });
});
