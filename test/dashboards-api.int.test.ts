import { randomBytes } from "node:crypto";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DashboardSummary, DashboardView } from "../src/contracts/dashboards.js";
import { openMetaDatabase } from "../src/meta/database.js";
import { checkoutBody, fields, json, ok, type Page, refused } from "./helpers/dashboards-api.js";
import {
  findPostgresBin,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "./helpers/postgres.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

const postgresBin = findPostgresBin();
const ENGINES = ["SQLite", ...(postgresBin ? ["PostgreSQL"] : [])];

/** Dashboards over HTTP: CRUD, versions, roles, projects apart, duplicate, stars. */
describe.each(ENGINES)("dashboards API on %s", (engine) => {
  const dir = makeTempDir();
  let postgres: ThrowawayPostgres | undefined;
  let service: TestService;
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let projectId: string;
  let ownerId: string;
  let orgId: string;
  let checkout: DashboardView;

  /** Deletes a project's row over a connection of the test's own (SQLite: no checkpoint worker). */
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
  const base = () => `/api/projects/${projectId}/dashboards`;
  const list = async (session: Session, query = "") =>
    (await ok<Page<DashboardSummary>>(await session.get(`${base()}${query}`))).data;

  beforeAll(async () => {
    if (engine === "PostgreSQL") postgres = await startThrowawayPostgres(postgresBin ?? "");
    ({ service, owner, viewer, outsider, projectId, ownerId, orgId } = await startWithRoles(
      dir.path,
      {
        VIGIL_MONITORS_ENABLED: "false",
        VIGIL_ALERTS_ENABLED: "false",
        ...(postgres
          ? { VIGIL_META_URL: postgres.url, VIGIL_SECRET_KEY: randomBytes(32).toString("base64") }
          : {}),
      },
    ));
  });
  afterAll(async () => {
    await service?.stop();
    await postgres?.stop();
    dir.remove();
  });

  it("creates a dashboard: a dsh_ id, version 1, defaults, and an id for each panel", async () => {
    checkout = await ok<DashboardView>(await owner.post(base(), checkoutBody()), 201);
    expect(checkout.id).toMatch(/^dsh_/);
    expect(checkout).toMatchObject({
      projectId,
      title: "Checkout",
      version: 1,
      starred: false,
      templateId: null,
      createdBy: ownerId,
      timeRange: "1h",
      refresh: "off",
      rows: [],
    });
    const [requests, notes] = checkout.panels;
    expect(requests?.id).toMatch(/^pnl_/);
    expect(notes).toMatchObject({ id: "notes", queries: [], unit: "none", options: {} });
    expect(await ok<DashboardView>(await owner.get(`${base()}/${checkout.id}`))).toEqual(checkout);
    // The smallest body works as is.
    const minimal = await ok<DashboardView>(
      await owner.post(base(), {
        title: "Hosts",
        panels: [
          {
            title: "CPU",
            type: "timeseries",
            gridPos: { x: 0, y: 0, w: 6, h: 4 },
            queries: [{ tql: "SELECT count() FROM metrics" }],
          },
        ],
      }),
      201,
    );
    expect(minimal.tags).toEqual([]);
  });

  it("refuses invalid bodies, naming the field", async () => {
    const panel = checkoutBody().panels?.[0];
    for (const [body, field] of [
      [{ panels: [] }, "title"],
      [{ title: "x", panels: [{ ...panel, type: "gauge3d" }] }, "panels.0.type"],
      [
        { title: "x", panels: [{ ...panel, gridPos: { x: 8, y: 0, w: 6, h: 2 } }] },
        "panels.0.gridPos.w",
      ],
      [{ title: "x", panels: [{ ...panel, queries: [] }] }, "panels.0.queries"],
      [
        {
          title: "x",
          panels: [
            { ...panel, id: "a" },
            { ...panel, id: "a" },
          ],
        },
        "panels",
      ],
      [{ title: "x", variables: [{ type: "text", name: "from" }] }, "variables.0.name"],
      [{ title: "x", owner: "me" }, "owner"],
    ] as const) {
      const problem = await refused(await owner.post(base(), body), 400);
      expect(fields(problem), JSON.stringify(body).slice(0, 80)).toContain(field);
    }
  });

  it("saves a partial change on the current version; panel ids stay, new panels get one", async () => {
    const renamed = await ok<DashboardView>(
      await owner.patch(`${base()}/${checkout.id}`, { version: 1, title: "Checkout (prod)" }),
    );
    expect(renamed).toMatchObject({ title: "Checkout (prod)", version: 2 });
    expect(renamed.panels).toEqual(checkout.panels);
    expect(renamed.description).toBe(checkout.description);
    const added = await ok<DashboardView>(
      await owner.patch(`${base()}/${checkout.id}`, {
        version: 2,
        panels: [
          ...renamed.panels,
          {
            title: "Errors",
            type: "stat",
            gridPos: { x: 0, y: 8, w: 3, h: 4 },
            queries: [{ tql: "SELECT 1" }],
          },
        ],
      }),
    );
    expect(added.version).toBe(3);
    expect(added.panels.slice(0, 2)).toEqual(checkout.panels);
    expect(added.panels[2]?.id).toMatch(/^pnl_/);
    checkout = await ok<DashboardView>(await owner.get(`${base()}/${checkout.id}`));
    expect(checkout).toEqual(added);
  });

  it("refuses a save made on a stale version (409 naming version), writing nothing", async () => {
    const problem = await refused(
      await owner.patch(`${base()}/${checkout.id}`, { version: 1, title: "Overwritten" }),
      409,
    );
    expect(problem.code).toBe("conflict");
    expect(fields(problem)).toEqual(["version"]);
    expect(problem.detail).toContain("version 3");
    expect((await ok<DashboardView>(await owner.get(`${base()}/${checkout.id}`))).title).toBe(
      "Checkout (prod)",
    );
  });

  it("lets exactly one of two concurrent saves on one version win", async () => {
    const path = `${base()}/${checkout.id}`;
    const version = checkout.version;
    const answers = await Promise.all(
      ["Left", "Right", "Middle", "Last"].map((title) => owner.patch(path, { version, title })),
    );
    const statuses = answers.map((a) => a.status).sort();
    const bodies = await Promise.all(answers.map((a) => json<DashboardView>(a)));
    expect(statuses).toEqual([200, 409, 409, 409]);
    const winner = bodies[answers.findIndex((a) => a.status === 200)];
    const now = await ok<DashboardView>(await owner.get(path));
    expect(now).toMatchObject({ version: version + 1, title: winner?.title });
    checkout = await ok<DashboardView>(
      await owner.patch(path, { version: now.version, title: "Checkout" }),
    );
  });

  it("duplicates a dashboard under a new id, at version 1", async () => {
    const copy = await ok<DashboardView>(
      await owner.post(`${base()}/${checkout.id}/duplicate`, {}),
      201,
    );
    expect(copy.id).not.toBe(checkout.id);
    expect(copy).toMatchObject({ title: `${checkout.title} (copy)`, version: 1 });
    expect(copy.panels).toEqual(checkout.panels);
    const named = await ok<DashboardView>(
      await owner.post(`${base()}/${checkout.id}/duplicate`, { title: "Checkout staging" }),
      201,
    );
    expect(named.title).toBe("Checkout staging");
  });

  it("stars per user, lists starred first, and searches titles and tags", async () => {
    const before = await list(owner);
    expect(before.map((d) => d.title)).toEqual([
      "Checkout",
      "Checkout (copy)",
      "Checkout staging",
      "Hosts",
    ]);
    const hosts = before.find((d) => d.title === "Hosts");
    expect(hosts).toMatchObject({ panelCount: 1, starred: false, version: 1 });
    expect(await ok(await viewer.put(`${base()}/${hosts?.id}/star`, { starred: true }))).toEqual({
      starred: true,
    });
    expect((await list(viewer))[0]).toMatchObject({ title: "Hosts", starred: true });
    // The owner's list is not the viewer's.
    expect((await list(owner))[0]?.title).not.toBe("Hosts");
    expect((await ok<DashboardView>(await owner.get(`${base()}/${hosts?.id}`))).starred).toBe(
      false,
    );
    expect((await list(viewer, "?starred=true")).map((d) => d.title)).toEqual(["Hosts"]);
    expect((await list(owner, "?q=STAGING")).map((d) => d.title)).toEqual(["Checkout staging"]);
    expect((await list(owner, "?q=payments%20checkout")).length).toBe(3);
    expect((await list(owner, "?tag=prod&sort=title")).map((d) => d.title)).toEqual([
      "Checkout",
      "Checkout (copy)",
      "Checkout staging",
    ]);
    const updated = await list(owner, "?sort=updated");
    expect(updated[0]?.title).toBe("Checkout staging");
    await ok(await viewer.put(`${base()}/${hosts?.id}/star`, { starred: false }));
    expect((await list(viewer, "?starred=true")).length).toBe(0);
    const problem = await refused(await owner.get(`${base()}?sort=popular`), 400);
    expect(fields(problem)).toEqual(["sort"]);
  });

  it("lets a viewer read, export and star but not write (403)", async () => {
    const path = `${base()}/${checkout.id}`;
    expect((await ok<DashboardView>(await viewer.get(path))).id).toBe(checkout.id);
    await ok(await viewer.get(`${path}/export`));
    for (const response of [
      await viewer.post(base(), checkoutBody("Mine")),
      await viewer.patch(path, { version: checkout.version, title: "Mine" }),
      await viewer.delete(path),
      await viewer.post(`${path}/duplicate`, {}),
      await viewer.post(`${base()}/import`, { schemaVersion: 1, ...checkoutBody("Mine") }),
    ]) {
      const problem = await refused(response, 403);
      expect(problem.detail).toContain("viewer");
    }
    expect(await list(owner)).toHaveLength(4);
  });

  it("hides the project from an outsider, and another project's dashboard from its path (404)", async () => {
    const path = `${base()}/${checkout.id}`;
    for (const response of [
      await outsider.get(base()),
      await outsider.get(path),
      await outsider.get(`${path}/export`),
      await outsider.post(base(), checkoutBody()),
      await outsider.patch(path, { version: 1, title: "x" }),
      await outsider.delete(path),
      await outsider.put(`${path}/star`, { starred: true }),
    ])
      await refused(response, 404);
    const me = await json<{ organizations: { id: string }[] }>(await outsider.get("/api/auth/me"));
    const theirs = await ok<{ id: string }>(
      await outsider.post("/api/projects", { name: "Theirs", orgId: me.organizations[0]?.id }),
      201,
    );
    const foreign = `/api/projects/${theirs.id}/dashboards/${checkout.id}`;
    await refused(await outsider.get(foreign), 404);
    await refused(await outsider.patch(foreign, { version: checkout.version, title: "x" }), 404);
    await refused(await outsider.post(`${foreign}/duplicate`, {}), 404);
    await refused(await outsider.delete(foreign), 404);
  });

  it("deletes a dashboard once; then it is not found", async () => {
    const copy = (await list(owner)).find((d) => d.title.endsWith("(copy)"));
    const path = `${base()}/${copy?.id}`;
    const deleted = await owner.delete(path);
    expect(deleted.status).toBe(204);
    await deleted.arrayBuffer();
    await refused(await owner.delete(path), 404);
    await refused(await owner.get(path), 404);
    expect(await list(owner)).toHaveLength(3);
  });

  it("leaves no dashboard or star behind when its project is deleted", async () => {
    const { dashboards, projects } = service.deps.meta.repos;
    await projects.insert({
      id: "prj_doomed",
      orgId,
      name: "Doomed",
      createdAt: new Date().toISOString(),
    });
    const doomed = await ok<DashboardView>(
      await owner.post("/api/projects/prj_doomed/dashboards", checkoutBody()),
      201,
    );
    await ok(
      await owner.put(`/api/projects/prj_doomed/dashboards/${doomed.id}/star`, { starred: true }),
    );
    expect(await dashboards.isStarred(ownerId, doomed.id)).toBe(true);
    // No verb deletes a project: the store's foreign keys are what cleans up.
    await deleteProjectRow("prj_doomed");
    expect(await dashboards.findById(doomed.id)).toBeUndefined();
    expect(await dashboards.isStarred(ownerId, doomed.id)).toBe(false);
    expect(await list(owner)).toHaveLength(3);
  });

  it("needs a session (401)", async () => {
    await refused(await service.fetch(base()), 401);
  });
});
