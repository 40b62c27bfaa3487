import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../src/auth/users.js";
import { OWNER, type Session, startWithRoles, VIEWER } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn } from "./helpers/test-service.js";

interface Member {
  userId: string;
  email: string;
  name: string;
  role: string;
  joinedAt: string;
}
interface Problem {
  status: number;
  code: string;
  detail: string;
  errors?: { field: string; message: string }[];
}

const ADMIN = { email: "admin@example.com", password: "admin secret 12" };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** /api/orgs/:orgId/members: who is in an organization, and owners changing roles. */
describe("organization members", () => {
  const dir = makeTempDir();
  let roles: Awaited<ReturnType<typeof startWithRoles>>;
  let admin: Session;
  let adminId: string;

  const path = (orgId = roles.orgId) => `/api/orgs/${orgId}/members`;
  const json = async <T>(response: Response) => ({
    status: response.status,
    body: (response.status === 204 ? null : await response.json()) as T,
  });
  const members = async (session: Session = roles.owner) =>
    (await json<{ data: Member[] }>(await session.get(path()))).body.data;

  beforeAll(async () => {
    roles = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
    });
    const ctx = { deps: roles.service.deps.domain, actor: { kind: "system" as const } };
    const created = await createUser({
      ctx,
      input: { ...ADMIN, orgId: roles.orgId, role: "admin" },
    });
    adminId = created.user.id;
    admin = await signIn(roles.service, ADMIN.email, ADMIN.password);
  }, 60_000);
  afterAll(async () => {
    await roles?.service.stop();
    dir.remove();
  });

  it("lists the members with their roles to any member, and to no one else", async () => {
    const list = await json<{ data: Member[]; pagination: { total: number } }>(
      await roles.viewer.get(path()),
    );
    expect(list.status).toBe(200);
    expect(list.body.pagination.total).toBe(3);
    expect(list.body.data.map((m) => [m.email, m.role])).toEqual([
      [OWNER.email, "owner"],
      [VIEWER.email, "viewer"],
      [ADMIN.email, "admin"],
    ]);
    expect(list.body.data[0]).toEqual({
      userId: roles.ownerId,
      email: OWNER.email,
      name: "owner",
      role: "owner",
      joinedAt: expect.stringMatching(ISO),
    });
    // No password hash or anything else of the account.
    expect(JSON.stringify(list.body)).not.toContain("scrypt");
    expect((await json<Problem>(await roles.outsider.get(path()))).status).toBe(404);
    const anonymous = await roles.service.fetch(path());
    expect(anonymous.status).toBe(401);
    await anonymous.arrayBuffer();
    expect((await json<Problem>(await roles.owner.get(path("org_missing")))).status).toBe(404);
  });

  it("lets only owners change roles or remove members", async () => {
    const viewerId = (await members()).find((m) => m.email === VIEWER.email)?.userId ?? "";
    for (const [session, status] of [
      [roles.viewer, 403],
      [admin, 403],
      [roles.outsider, 404],
    ] as const) {
      const patched = await json<Problem>(
        await session.patch(`${path()}/${viewerId}`, { role: "member" }),
      );
      expect(patched.status).toBe(status);
      expect((await json<Problem>(await session.delete(`${path()}/${viewerId}`))).status).toBe(
        status,
      );
    }
    expect((await members()).find((m) => m.userId === viewerId)?.role).toBe("viewer");

    const bad = await json<Problem>(
      await roles.owner.patch(`${path()}/${viewerId}`, { role: "god" }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.map((e) => e.field)).toEqual(["role"]);
    const unknown = await json<Problem>(
      await roles.owner.patch(`${path()}/usr_nobody`, { role: "member" }),
    );
    expect(unknown.status).toBe(404);

    const promoted = await json<Member>(
      await roles.owner.patch(`${path()}/${viewerId}`, { role: "member" }),
    );
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ userId: viewerId, email: VIEWER.email, role: "member" });
    // The change applies to the member's next request: a member may now write.
    const channel = await roles.viewer.post(`/api/projects/${roles.projectId}/channels`, {
      name: "promoted",
      type: "webhook",
    });
    expect(channel.status).toBe(201);
    await channel.arrayBuffer();
    const demoted = await json<Member>(
      await roles.owner.patch(`${path()}/${viewerId}`, { role: "viewer" }),
    );
    expect(demoted.body.role).toBe("viewer");
  });

  it("never demotes or removes the last owner, and keeps one when there are two", async () => {
    const self = `${path()}/${roles.ownerId}`;
    const demote = await json<Problem>(await roles.owner.patch(self, { role: "admin" }));
    expect(demote.status).toBe(409);
    expect(demote.body.detail).toContain("last owner");
    const remove = await json<Problem>(await roles.owner.delete(self));
    expect(remove.status).toBe(409);

    // With a second owner, the first may step down; the second is then the last one.
    const second = await json<Member>(
      await roles.owner.patch(`${path()}/${adminId}`, { role: "owner" }),
    );
    expect(second.body.role).toBe("owner");
    const stepDown = await json<Member>(await roles.owner.patch(self, { role: "admin" }));
    expect(stepDown.status).toBe(200);
    expect(stepDown.body.role).toBe("admin");
    // No longer an owner: the former owner cannot change members now.
    expect((await json<Problem>(await roles.owner.patch(self, { role: "owner" }))).status).toBe(
      403,
    );
    expect(
      (await json<Problem>(await admin.patch(`${path()}/${adminId}`, { role: "member" }))).status,
    ).toBe(409);
    const restored = await json<Member>(await admin.patch(self, { role: "owner" }));
    expect(restored.body.role).toBe("owner");
  });

  it("removes a member: their access to the organization ends at once, their account stays", async () => {
    const ctx = { deps: roles.service.deps.domain, actor: { kind: "system" as const } };
    const leaving = { email: "leaving@example.com", password: "leaving secret 1" };
    const created = await createUser({
      ctx,
      input: { ...leaving, orgId: roles.orgId, role: "member" },
    });
    const session = await signIn(roles.service, leaving.email, leaving.password);
    const before = await session.get(`/api/projects/${roles.projectId}`);
    expect(before.status).toBe(200);
    await before.arrayBuffer();
    const removed = await roles.owner.delete(`${path()}/${created.user.id}`);
    expect(removed.status).toBe(204);
    await removed.arrayBuffer();
    expect((await members()).map((m) => m.email)).not.toContain(leaving.email);
    const after = await session.get(`/api/projects/${roles.projectId}`);
    expect(after.status).toBe(404);
    await after.arrayBuffer();
    expect(await roles.service.deps.meta.repos.users.findById(created.user.id)).toBeDefined();
    const again = await roles.owner.delete(`${path()}/${created.user.id}`);
    expect(again.status).toBe(404);
    await again.arrayBuffer();
  });
});
