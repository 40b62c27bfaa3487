import { randomBytes } from "node:crypto";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../src/auth/users.js";
import { MAX_SAVED_VIEW_URL, type SavedView } from "../src/contracts/saved-views.js";
import { openMetaDatabase } from "../src/meta/database.js";
import {
  findPostgresBin,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "./helpers/postgres.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn, type TestService } from "./helpers/test-service.js";

interface Problem {
  status: number;
  detail: string;
  errors?: { field: string; message: string }[];
}
interface Page<T> {
  data: T[];
  pagination: { total: number; hasMore: boolean };
}

const postgresBin = findPostgresBin();
const ENGINES = ["SQLite", ...(postgresBin ? ["PostgreSQL"] : [])];
const MEMBER = { email: "member@example.com", password: "member secret 1" };

/** Saved views over HTTP: members write, viewers read, outsiders see nothing; gone with the project. */
describe.each(ENGINES)("saved views API on %s", (engine) => {
  const dir = makeTempDir();
  let postgres: ThrowawayPostgres | undefined;
  let service: TestService;
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;
  let projectId: string;
  let orgId: string;
  let memberId: string;

  const base = (project = projectId) => `/api/projects/${project}/saved-views`;
  const at = (path: string, project = projectId) => `/projects/${project}${path}`;
  const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;
  const ok = async <T>(response: Response, status = 200): Promise<T> => {
    const body = await json<T>(response);
    expect(response.status, JSON.stringify(body)).toBe(status);
    return body;
  };
  const refused = async (response: Response, status: number) => {
    const problem = await json<Problem>(response);
    expect(response.status, JSON.stringify(problem)).toBe(status);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    return problem;
  };
  const fields = (problem: Problem) => (problem.errors ?? []).map((e) => e.field);
  const names = async (query = "") =>
    (await ok<Page<SavedView>>(await owner.get(`${base()}${query}`))).data.map((v) => [
      v.kind,
      v.name,
    ]);

  /** Deletes a project's row over a connection of the test's own (no verb deletes a project). */
  async function deleteProjectRow(id: string) {
    if (postgres) {
      const database = openMetaDatabase({ url: postgres.url, dataDir: dir.path });
      await database.db.deleteFrom("projects").where("id", "=", id).execute();
      await database.db.destroy();
      return;
    }
    const sqlite = new SQLite(join(dir.path, "meta.sqlite"));
    sqlite.pragma("foreign_keys = ON");
    sqlite.prepare("DELETE FROM projects WHERE id = ?").run(id);
    sqlite.close();
  }

  beforeAll(async () => {
    if (engine === "PostgreSQL") postgres = await startThrowawayPostgres(postgresBin ?? "");
    ({ service, owner, viewer, outsider, projectId, orgId } = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      ...(postgres
        ? { VIGIL_META_URL: postgres.url, VIGIL_SECRET_KEY: randomBytes(32).toString("base64") }
        : {}),
    }));
    const ctx = { deps: service.deps.domain, actor: { kind: "system" as const } };
    memberId = (await createUser({ ctx, input: { ...MEMBER, orgId, role: "member" } })).user.id;
    member = await signIn(service, MEMBER.email, MEMBER.password);
  });
  afterAll(async () => {
    await service?.stop();
    await postgres?.stop();
    dir.remove();
  });

  it("saves a view, lists the project's by explorer and name, of one kind when asked", async () => {
    const url = at("/logs?level=error&filters=%5B%7B%22field%22%3A%22service_name%22%7D%5D");
    const errors = await ok<SavedView>(
      await member.post(base(), { name: " Checkout errors ", kind: "logs", url }),
      201,
    );
    expect(errors).toMatchObject({ projectId, name: "Checkout errors", kind: "logs", url });
    expect(errors.id).toMatch(/^svw_/);
    expect(errors.createdBy).toBe(memberId);
    expect(errors.createdAt).toBe(errors.updatedAt);
    for (const [name, kind, path] of [
      ["Slow routes", "traces", "/traces?min_duration=500"],
      ["Checkout errors", "traces", "/traces?status=error"],
      ["api", "services", "/services/api"],
      ["Queue depth", "metrics", "/metrics?metric=queue.depth"],
      ["p95 by route", "query", "/tql?q=SELECT%201"],
    ] as const)
      await ok(await owner.post(base(), { name, kind, url: at(path) }), 201);
    expect(await names()).toEqual([
      ["logs", "Checkout errors"],
      ["metrics", "Queue depth"],
      ["query", "p95 by route"],
      ["services", "api"],
      ["traces", "Checkout errors"],
      ["traces", "Slow routes"],
    ]);
    expect(await names("?kind=traces")).toEqual([
      ["traces", "Checkout errors"],
      ["traces", "Slow routes"],
    ]);
    const paged = await ok<Page<SavedView>>(
      await owner.get(`${base()}?kind=traces&limit=1&page=2`),
    );
    expect(paged.data.map((v) => v.name)).toEqual(["Slow routes"]);
    expect(paged.pagination.total).toBe(2);
    expect(await ok<SavedView>(await viewer.get(`${base()}/${errors.id}`))).toEqual(errors);
  });

  it("refuses invalid input, naming the field", async () => {
    const valid = { name: "x", kind: "logs", url: at("/logs") };
    for (const [change, field] of [
      [{ name: "" }, "name"],
      [{ name: "n".repeat(101) }, "name"],
      [{ kind: "dashboards" }, "kind"],
      [{ url: "https://evil.example/logs" }, "url"],
      [{ url: "//evil.example/logs" }, "url"],
      [{ url: "javascript:alert(1)" }, "url"],
      [{ url: "logs?level=error" }, "url"],
      [{ url: at("/logs#top") }, "url"],
      [{ url: at("/logs?q=a b") }, "url"],
      [{ url: "/\\evil.example" }, "url"],
      [{ url: at("/../../elsewhere") }, "url"],
      [{ url: at(`/logs?q=${"a".repeat(MAX_SAVED_VIEW_URL)}`) }, "url"],
      // Another project's path, or none.
      [{ url: at("/logs", "prj_someone_else") }, "url"],
      [{ url: "/alerts" }, "url"],
      [{ shared: true }, "shared"],
    ] as const) {
      const problem = await refused(await owner.post(base(), { ...valid, ...change }), 400);
      expect(fields(problem), JSON.stringify(change).slice(0, 80)).toContain(field);
    }
    const list = await refused(await owner.get(`${base()}?kind=everything`), 400);
    expect(fields(list)).toContain("kind");
  });

  it("keeps names unique per explorer: 409 naming the field", async () => {
    const clash = await refused(
      await owner.post(base(), { name: "Checkout errors", kind: "logs", url: at("/logs") }),
      409,
    );
    expect(clash.detail).toContain("Checkout errors");
    expect(fields(clash)).toEqual(["name"]);
    const traces = (await ok<Page<SavedView>>(await owner.get(`${base()}?kind=traces`))).data;
    const slow = traces.find((v) => v.name === "Slow routes");
    const rename = await refused(
      await member.patch(`${base()}/${slow?.id}`, { name: "Checkout errors" }),
      409,
    );
    expect(fields(rename)).toEqual(["name"]);
  });

  it("renames a view and replaces its location; its own name is no clash", async () => {
    const traces = (await ok<Page<SavedView>>(await owner.get(`${base()}?kind=traces`))).data;
    const slow = traces.find((v) => v.name === "Slow routes");
    const renamed = await ok<SavedView>(
      await member.patch(`${base()}/${slow?.id}`, {
        name: "Slow checkout routes",
        url: at("/traces?service=checkout&min_duration=500"),
      }),
    );
    expect(renamed).toMatchObject({
      name: "Slow checkout routes",
      kind: "traces",
      url: at("/traces?service=checkout&min_duration=500"),
      createdAt: slow?.createdAt,
    });
    expect(renamed.updatedAt >= renamed.createdAt).toBe(true);
    const same = await ok<SavedView>(
      await owner.patch(`${base()}/${slow?.id}`, { name: "Slow checkout routes" }),
    );
    expect(same.url).toBe(renamed.url);
    const bad = await refused(await owner.patch(`${base()}/${slow?.id}`, { url: "/x" }), 400);
    expect(fields(bad)).toContain("url");
  });

  it("lets a viewer read but not write (403)", async () => {
    const list = await ok<Page<SavedView>>(await viewer.get(base()));
    expect(list.data).toHaveLength(6);
    const path = `${base()}/${list.data[0]?.id}`;
    for (const response of [
      await viewer.post(base(), { name: "mine", kind: "logs", url: at("/logs") }),
      await viewer.patch(path, { name: "renamed" }),
      await viewer.delete(path),
    ]) {
      const problem = await refused(response, 403);
      expect(problem.detail).toContain("viewer");
    }
    expect((await ok<Page<SavedView>>(await owner.get(base()))).data).toHaveLength(6);
  });

  it("hides the project from an outsider (404), and another project's view from its path", async () => {
    const list = await ok<Page<SavedView>>(await owner.get(base()));
    const path = `${base()}/${list.data[0]?.id}`;
    for (const response of [
      await outsider.get(base()),
      await outsider.get(path),
      await outsider.post(base(), { name: "x", kind: "logs", url: at("/logs") }),
      await outsider.patch(path, { name: "x" }),
      await outsider.delete(path),
    ])
      await refused(response, 404);
    const me = await json<{ organizations: { id: string }[] }>(await outsider.get("/api/auth/me"));
    const created = await ok<{ id: string }>(
      await outsider.post("/api/projects", { name: "Theirs", orgId: me.organizations[0]?.id }),
      201,
    );
    const foreign = `${base(created.id)}/${list.data[0]?.id}`;
    await refused(await outsider.get(foreign), 404);
    await refused(await outsider.delete(foreign), 404);
  });

  it("deletes a view once (a member may); then it is not found", async () => {
    const list = await ok<Page<SavedView>>(await owner.get(base()));
    const path = `${base()}/${list.data[0]?.id}`;
    const deleted = await member.delete(path);
    expect(deleted.status).toBe(204);
    await deleted.arrayBuffer();
    await refused(await owner.delete(path), 404);
    await refused(await owner.get(path), 404);
    expect((await ok<Page<SavedView>>(await owner.get(base()))).data).toHaveLength(5);
  });

  it("leaves no view behind when its project is deleted", async () => {
    await service.deps.meta.repos.projects.insert({
      id: "prj_doomed_views",
      orgId,
      name: "Doomed",
      createdAt: new Date().toISOString(),
    });
    const doomed = await ok<SavedView>(
      await owner.post(base("prj_doomed_views"), {
        name: "Errors",
        kind: "logs",
        url: at("/logs?level=error", "prj_doomed_views"),
      }),
      201,
    );
    await deleteProjectRow("prj_doomed_views");
    expect(await service.deps.meta.repos.savedViews.findById(doomed.id)).toBeUndefined();
    expect(await service.deps.meta.repos.savedViews.listByProject("prj_doomed_views")).toEqual([]);
  });

  it("needs a session (401)", async () => {
    await refused(await service.fetch(base()), 401);
  });
});
