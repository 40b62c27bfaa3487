import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  StatusPageComponentView,
  StatusPageConfigView,
  StatusPageGroupView,
  StatusPageMaintenanceView,
  StatusPageView,
} from "../src/contracts/status-pages.js";
import { ForbiddenError } from "../src/lib/domain-errors.js";
import { requireOrg } from "../src/projects/projects.js";
import {
  findPostgresBin,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "./helpers/postgres.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { OUTSIDER, type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

interface Problem {
  status: number;
  detail: string;
  errors?: { field: string; message: string }[];
}
interface Page<T> {
  data: T[];
  pagination: { total: number };
}

const HOUR = 3_600_000;

const postgresBin = findPostgresBin();
/** Both metadata engines: the page lock, the version bump and the cascades are SQL of each. */
const ENGINES = ["SQLite", ...(postgresBin ? ["PostgreSQL"] : [])];

/** The status page management API (docs/design.md §4) over HTTP, on the real metadata store. */
describe.each(ENGINES)("status page management API on %s", (engine) => {
  const dir = makeTempDir();
  let postgres: ThrowawayPostgres | undefined;
  let service: TestService;
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let orgId: string;
  let projectId: string;
  /** A monitor and a rule of the owner's organization, and a monitor of the outsider's. */
  let monitorId: string;
  let ruleId: string;
  let foreignMonitorId: string;

  const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;
  const base = () => `/api/orgs/${orgId}/status-pages`;
  const ok = async <T>(response: Response, status = 200): Promise<T> => {
    const body = await json<T>(response);
    expect(response.status, JSON.stringify(body)).toBe(status);
    return body;
  };
  const refused = async (response: Response, status = 400) => {
    const problem = await json<Problem>(response);
    expect(response.status, JSON.stringify(problem)).toBe(status);
    return problem;
  };
  const fields = (problem: Problem) => (problem.errors ?? []).map((e) => e.field);
  let slugs = 0;
  const newPage = async (body: Record<string, unknown> = {}) =>
    ok<StatusPageConfigView>(
      await owner.post(base(), { slug: `page-${++slugs}`, title: "Acme status", ...body }),
      201,
    );
  const version = async (pageId: string) =>
    (await ok<StatusPageConfigView>(await owner.get(`${base()}/${pageId}`))).page.dataVersion;
  const monitorBody = (name: string) => ({
    name,
    type: "api",
    frequency: "1h",
    steps: [{ url: "https://example.com/health" }],
  });

  beforeAll(async () => {
    if (engine === "PostgreSQL") postgres = await startThrowawayPostgres(postgresBin ?? "");
    ({ service, owner, viewer, outsider, orgId, projectId } = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      ...(postgres
        ? { VIGIL_META_URL: postgres.url, VIGIL_SECRET_KEY: randomBytes(32).toString("base64") }
        : {}),
    }));
    monitorId = (
      await ok<{ id: string }>(
        await owner.post(`/api/projects/${projectId}/monitors`, monitorBody("Checkout API")),
        201,
      )
    ).id;
    ruleId = (
      await ok<{ id: string }>(
        await owner.post(`/api/projects/${projectId}/alert-rules`, {
          name: "Error count",
          query: "SELECT count() AS value FROM logs WHERE level = 'error'",
          condition: { op: ">", threshold: 10 },
        }),
        201,
      )
    ).id;
    // The outsider's organization gets a project and a monitor of its own.
    const { users } = service.deps.meta.repos;
    const outsiderUser = await users.findByEmail(OUTSIDER.email);
    const [membership] = outsiderUser ? await users.listMemberships(outsiderUser.id) : [];
    const { projectId: foreignProject } = await addProjectWithKey(
      service,
      membership?.orgId ?? "",
      "prj_elsewhere",
    );
    foreignMonitorId = (
      await ok<{ id: string }>(
        await outsider.post(`/api/projects/${foreignProject}/monitors`, monitorBody("Secret")),
        201,
      )
    ).id;
  });
  afterAll(async () => {
    await service?.stop();
    await postgres?.stop();
    dir.remove();
  });

  it("creates a page with the defaults, lists it and reads its configuration", async () => {
    const created = await newPage({ slug: "acme", timezone: "europe/paris" });
    expect(created.page).toMatchObject({
      orgId,
      slug: "acme",
      title: "Acme status",
      description: "",
      logoUrl: null,
      links: [],
      timezone: "Europe/Paris",
      status: "operational",
      dataVersion: 1,
    });
    expect(created.page.id).toMatch(/^stp_/);
    expect(created).toMatchObject({ groups: [], components: [], maintenances: [] });
    const list = await ok<Page<StatusPageView>>(await owner.get(base()));
    expect(list.data.map((p) => p.slug)).toContain("acme");
    expect(await ok(await owner.get(`${base()}/${created.page.id}`))).toEqual(created);
    const utc = await newPage();
    expect(utc.page.timezone).toBe("UTC");
  });

  it("builds a page of groups, components with their sources and a window, and edits each", async () => {
    const { page } = await newPage();
    const at = `${base()}/${page.id}`;
    const core = await ok<StatusPageGroupView>(
      await owner.post(`${at}/groups`, { name: "Core" }),
      201,
    );
    expect(core).toMatchObject({ pageId: page.id, name: "Core", position: 0 });
    expect(core.id).toMatch(/^spg_/);
    const component = await ok<StatusPageComponentView>(
      await owner.post(`${at}/components`, {
        name: "Checkout",
        description: "Paying for orders",
        groupId: core.id,
        monitorIds: [monitorId, monitorId],
        alertRuleIds: [ruleId],
      }),
      201,
    );
    expect(component).toMatchObject({
      name: "Checkout",
      groupId: core.id,
      position: 0,
      status: "operational",
      monitors: [{ id: monitorId, name: "Checkout API", projectId }],
      alertRules: [{ id: ruleId, name: "Error count", projectId }],
    });
    expect(component.id).toMatch(/^spc_/);

    const patched = await ok<StatusPageComponentView>(
      await owner.patch(`${at}/components/${component.id}`, { name: "Payments", alertRuleIds: [] }),
    );
    expect(patched).toMatchObject({ name: "Payments", groupId: core.id, alertRules: [] });
    expect(patched.monitors.map((m) => m.id)).toEqual([monitorId]);

    const startsAt = new Date(Date.now() + HOUR).toISOString();
    const endsAt = new Date(Date.now() + 3 * HOUR).toISOString();
    const window = await ok<StatusPageMaintenanceView>(
      await owner.post(`${at}/maintenances`, {
        title: "Database upgrade",
        startsAt,
        endsAt,
        componentIds: [component.id],
      }),
      201,
    );
    expect(window).toMatchObject({ phase: "scheduled", message: "", componentIds: [component.id] });
    expect(window.id).toMatch(/^mnt_/);
    expect(await ok(await owner.get(`${at}/maintenances/${window.id}`))).toEqual(window);
    const windows = await ok<Page<StatusPageMaintenanceView>>(
      await owner.get(`${at}/maintenances`),
    );
    expect(windows.data.map((w) => w.id)).toEqual([window.id]);
    // Moved to have started an hour ago: in progress from the clock at write time.
    const moved = await ok<StatusPageMaintenanceView>(
      await owner.patch(`${at}/maintenances/${window.id}`, {
        startsAt: new Date(Date.now() - HOUR).toISOString(),
        message: "Running",
      }),
    );
    expect(moved).toMatchObject({ phase: "in_progress", message: "Running", endsAt });

    const edited = await ok<StatusPageConfigView>(
      await owner.patch(at, {
        title: "Acme",
        logoUrl: "https://acme.example/logo.png",
        links: [{ label: "Home", url: "https://acme.example" }],
      }),
    );
    expect(edited.page).toMatchObject({
      title: "Acme",
      slug: page.slug,
      logoUrl: "https://acme.example/logo.png",
      links: [{ label: "Home", url: "https://acme.example" }],
    });
    expect(edited.groups).toEqual([core]);
    expect(edited.components.map((c) => c.id)).toEqual([component.id]);
    expect(edited.maintenances.map((w) => w.id)).toEqual([window.id]);

    // Deleting the group leaves its component ungrouped.
    expect((await owner.delete(`${at}/groups/${core.id}`)).status).toBe(204);
    const after = await ok<StatusPageConfigView>(await owner.get(at));
    expect(after.groups).toEqual([]);
    expect(after.components[0]?.groupId).toBeNull();

    expect((await owner.delete(`${at}/maintenances/${window.id}`)).status).toBe(204);
    expect((await owner.delete(`${at}/components/${component.id}`)).status).toBe(204);
    const emptied = await ok<StatusPageConfigView>(await owner.get(at));
    expect(emptied).toMatchObject({ components: [], maintenances: [] });
    expect((await owner.delete(at)).status).toBe(204);
    await refused(await owner.get(at), 404);
  });

  it("orders groups and components by position, then id, appending when none is given", async () => {
    const { page } = await newPage();
    const at = `${base()}/${page.id}`;
    const add = async (name: string, position?: number) =>
      ok<StatusPageComponentView>(await owner.post(`${at}/components`, { name, position }), 201);
    const a = await add("a");
    const b = await add("b");
    const c = await add("c", 0);
    expect([a.position, b.position, c.position]).toEqual([0, 1, 0]);
    const ids = (await ok<StatusPageConfigView>(await owner.get(at))).components.map((x) => x.id);
    expect(ids).toEqual([...[a.id, c.id].sort(), b.id]);
    const g1 = await ok<StatusPageGroupView>(
      await owner.post(`${at}/groups`, { name: "One", position: 5 }),
      201,
    );
    const g2 = await ok<StatusPageGroupView>(
      await owner.post(`${at}/groups`, { name: "Two" }),
      201,
    );
    expect(g2.position).toBe(6);
    await ok(await owner.patch(`${at}/groups/${g2.id}`, { position: 1 }));
    const groups = (await ok<StatusPageConfigView>(await owner.get(at))).groups.map((g) => g.id);
    expect(groups).toEqual([g2.id, g1.id]);
  });

  it("names the field of every invalid input", async () => {
    const { page } = await newPage();
    const at = `${base()}/${page.id}`;
    const pageCases: [Record<string, unknown>, string][] = [
      [{ slug: "-acme", title: "x" }, "slug"],
      [{ slug: "acme-", title: "x" }, "slug"],
      [{ slug: "ac--me", title: "x" }, "slug"],
      [{ slug: "Acme", title: "x" }, "slug"],
      [{ slug: "a".repeat(64), title: "x" }, "slug"],
      [{ slug: "", title: "x" }, "slug"],
      [{ slug: "ok-slug", title: "" }, "title"],
      [{ slug: "ok-slug", title: "t".repeat(101) }, "title"],
      [{ slug: "ok-slug", title: "x", description: "d".repeat(1001) }, "description"],
      [{ slug: "ok-slug", title: "x", logoUrl: "ftp://acme.example/logo.png" }, "logoUrl"],
      [
        { slug: "ok-slug", title: "x", links: [{ label: "x", url: "javascript:alert(1)" }] },
        "links.0.url",
      ],
      [
        {
          slug: "ok-slug",
          title: "x",
          links: [{ label: "l".repeat(51), url: "https://a.example" }],
        },
        "links.0.label",
      ],
      [
        {
          slug: "ok-slug",
          title: "x",
          links: Array.from({ length: 11 }, () => ({ label: "x", url: "https://a.example" })),
        },
        "links",
      ],
      [{ slug: "ok-slug", title: "x", timezone: "Mars/Olympus_Mons" }, "timezone"],
      [{ slug: "ok-slug", title: "x", timezone: "+01:00" }, "timezone"],
      [{ slug: "ok-slug", title: "x", colour: "red" }, "colour"],
    ];
    for (const [body, field] of pageCases)
      expect(fields(await refused(await owner.post(base(), body))), JSON.stringify(body)).toContain(
        field,
      );
    expect(fields(await refused(await owner.patch(at, { timezone: "Nowhere/Land" })))).toContain(
      "timezone",
    );

    expect(fields(await refused(await owner.post(`${at}/groups`, { name: "" })))).toContain("name");
    expect(
      fields(await refused(await owner.post(`${at}/groups`, { name: "G", position: -1 }))),
    ).toContain("position");

    const componentCases: [Record<string, unknown>, string][] = [
      [{ name: "" }, "name"],
      [{ name: "n".repeat(101) }, "name"],
      [{ name: "x", groupId: "spg_nope" }, "groupId"],
      [{ name: "x", monitorIds: [monitorId, "mon_nope"] }, "monitorIds.1"],
      [{ name: "x", alertRuleIds: ["alr_nope"] }, "alertRuleIds.0"],
      [{ name: "x", monitorIds: Array.from({ length: 21 }, (_, i) => `mon_${i}`) }, "monitorIds"],
      [
        {
          name: "x",
          monitorIds: Array.from({ length: 11 }, (_, i) => `mon_${i}`),
          alertRuleIds: Array.from({ length: 10 }, (_, i) => `alr_${i}`),
        },
        "alertRuleIds",
      ],
    ];
    for (const [body, field] of componentCases)
      expect(
        fields(await refused(await owner.post(`${at}/components`, body))),
        JSON.stringify(body),
      ).toContain(field);
    const component = await ok<StatusPageComponentView>(
      await owner.post(`${at}/components`, { name: "API" }),
      201,
    );
    expect(
      fields(await refused(await owner.patch(`${at}/components/${component.id}`, {}))),
    ).toContain("body");

    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const windowCases: [Record<string, unknown>, string][] = [
      [
        {
          title: "",
          startsAt: iso(now + HOUR),
          endsAt: iso(now + 2 * HOUR),
          componentIds: [component.id],
        },
        "title",
      ],
      [
        {
          title: "w",
          startsAt: "tomorrow",
          endsAt: iso(now + 2 * HOUR),
          componentIds: [component.id],
        },
        "startsAt",
      ],
      [
        {
          title: "w",
          startsAt: iso(now + 2 * HOUR),
          endsAt: iso(now + HOUR),
          componentIds: [component.id],
        },
        "endsAt",
      ],
      [
        {
          title: "w",
          startsAt: iso(now + HOUR),
          endsAt: iso(now + HOUR + 7 * 24 * HOUR + 1000),
          componentIds: [component.id],
        },
        "endsAt",
      ],
      [
        {
          title: "w",
          startsAt: iso(now - 3 * HOUR),
          endsAt: iso(now - HOUR),
          componentIds: [component.id],
        },
        "endsAt",
      ],
      [
        { title: "w", startsAt: iso(now + HOUR), endsAt: iso(now + 2 * HOUR), componentIds: [] },
        "componentIds",
      ],
      [
        {
          title: "w",
          startsAt: iso(now + HOUR),
          endsAt: iso(now + 2 * HOUR),
          componentIds: [component.id, "spc_nope"],
        },
        "componentIds.1",
      ],
    ];
    for (const [body, field] of windowCases)
      expect(
        fields(await refused(await owner.post(`${at}/maintenances`, body))),
        JSON.stringify(body),
      ).toContain(field);
  });

  it("refuses a taken slug or group name with 409 naming the field", async () => {
    const first = await newPage({ slug: "taken" });
    const second = await newPage();
    expect(
      fields(await refused(await owner.post(base(), { slug: "taken", title: "x" }), 409)),
    ).toEqual(["slug"]);
    expect(
      fields(
        await refused(await owner.patch(`${base()}/${second.page.id}`, { slug: "taken" }), 409),
      ),
    ).toEqual(["slug"]);
    // Its own slug is not a conflict.
    await ok(await owner.patch(`${base()}/${first.page.id}`, { slug: "taken", title: "Same" }));
    const at = `${base()}/${first.page.id}`;
    await ok(await owner.post(`${at}/groups`, { name: "Core" }), 201);
    const other = await ok<StatusPageGroupView>(
      await owner.post(`${at}/groups`, { name: "Edge" }),
      201,
    );
    expect(fields(await refused(await owner.post(`${at}/groups`, { name: "Core" }), 409))).toEqual([
      "name",
    ]);
    expect(
      fields(await refused(await owner.patch(`${at}/groups/${other.id}`, { name: "Core" }), 409)),
    ).toEqual(["name"]);
    // The same name on another page is fine.
    await ok(await owner.post(`${base()}/${second.page.id}/groups`, { name: "Core" }), 201);
  });

  it("lets a viewer read but not write, and answers an outsider 404", async () => {
    const { page } = await newPage();
    const at = `${base()}/${page.id}`;
    const component = await ok<StatusPageComponentView>(
      await owner.post(`${at}/components`, { name: "API" }),
      201,
    );
    const group = await ok<StatusPageGroupView>(
      await owner.post(`${at}/groups`, { name: "G" }),
      201,
    );
    const window = await ok<StatusPageMaintenanceView>(
      await owner.post(`${at}/maintenances`, {
        title: "w",
        startsAt: new Date(Date.now() + HOUR).toISOString(),
        endsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
        componentIds: [component.id],
      }),
      201,
    );
    const reads = [base(), at, `${at}/maintenances`, `${at}/maintenances/${window.id}`];
    const writes: [string, (s: Session) => Promise<Response>][] = [
      ["create page", (s) => s.post(base(), { slug: "viewer-page", title: "x" })],
      ["patch page", (s) => s.patch(at, { title: "x" })],
      ["delete page", (s) => s.delete(at)],
      ["create group", (s) => s.post(`${at}/groups`, { name: "x" })],
      ["patch group", (s) => s.patch(`${at}/groups/${group.id}`, { name: "x" })],
      ["delete group", (s) => s.delete(`${at}/groups/${group.id}`)],
      ["create component", (s) => s.post(`${at}/components`, { name: "x" })],
      ["patch component", (s) => s.patch(`${at}/components/${component.id}`, { name: "x" })],
      ["delete component", (s) => s.delete(`${at}/components/${component.id}`)],
      ["patch window", (s) => s.patch(`${at}/maintenances/${window.id}`, { title: "x" })],
      ["delete window", (s) => s.delete(`${at}/maintenances/${window.id}`)],
    ];
    for (const path of reads) {
      expect((await viewer.get(path)).status, path).toBe(200);
      await refused(await outsider.get(path), 404);
    }
    for (const [label, send] of writes) {
      expect((await send(viewer)).status, label).toBe(403);
      expect((await send(outsider)).status, label).toBe(404);
    }
    // Nothing the refused writes tried happened.
    expect(await version(page.id)).toBe(4);
    await refused(await owner.get(`/api/orgs/org_nope/status-pages`), 404);
    await refused(await owner.get(`${base()}/stp_nope`), 404);
  });

  it("rejects a source of another organization exactly like one that does not exist", async () => {
    const { page } = await newPage();
    const at = `${base()}/${page.id}`;
    const foreign = await refused(
      await owner.post(`${at}/components`, {
        name: "x",
        monitorIds: [monitorId, foreignMonitorId],
      }),
    );
    expect(fields(foreign)).toEqual(["monitorIds.1"]);
    expect(foreign.detail).not.toContain("Secret");
    const missing = await refused(
      await owner.post(`${at}/components`, { name: "x", monitorIds: [monitorId, "mon_missing"] }),
    );
    expect(foreign.errors?.[0]?.message.replace(foreignMonitorId, "ID")).toBe(
      missing.errors?.[0]?.message.replace("mon_missing", "ID"),
    );
    // The outsider cannot bind the owner's monitor to a page of theirs either.
    const component = await ok<StatusPageComponentView>(
      await owner.post(`${at}/components`, { name: "ok" }),
      201,
    );
    expect(
      fields(
        await refused(
          await owner.patch(`${at}/components/${component.id}`, { monitorIds: [foreignMonitorId] }),
        ),
      ),
    ).toEqual(["monitorIds.0"]);
  });

  it("bumps data_version on every write that changes what the page shows", async () => {
    const { page } = await newPage();
    const at = `${base()}/${page.id}`;
    let expected = 1;
    const bumped = async (label: string, response: Response) => {
      expect(response.status, label).toBeLessThan(300);
      expected += 1;
      expect(await version(page.id), label).toBe(expected);
      return response;
    };
    await bumped("patch page", await owner.patch(at, { description: "All systems" }));
    const group = await json<StatusPageGroupView>(
      await bumped("add group", await owner.post(`${at}/groups`, { name: "G" })),
    );
    await bumped("patch group", await owner.patch(`${at}/groups/${group.id}`, { name: "H" }));
    const component = await json<StatusPageComponentView>(
      await bumped(
        "add component",
        await owner.post(`${at}/components`, { name: "API", monitorIds: [monitorId] }),
      ),
    );
    await bumped(
      "patch component",
      await owner.patch(`${at}/components/${component.id}`, { alertRuleIds: [ruleId] }),
    );
    const window = await json<StatusPageMaintenanceView>(
      await bumped(
        "add window",
        await owner.post(`${at}/maintenances`, {
          title: "w",
          startsAt: new Date(Date.now() + HOUR).toISOString(),
          endsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
          componentIds: [component.id],
        }),
      ),
    );
    await bumped(
      "patch window",
      await owner.patch(`${at}/maintenances/${window.id}`, { title: "v" }),
    );
    await bumped("delete window", await owner.delete(`${at}/maintenances/${window.id}`));
    await bumped("delete group", await owner.delete(`${at}/groups/${group.id}`));
    await bumped("delete component", await owner.delete(`${at}/components/${component.id}`));
    // A refused write changes nothing.
    await refused(await owner.patch(at, { slug: "Bad Slug" }));
    expect(await version(page.id)).toBe(expected);
  });

  it("drops a deleted monitor from the components it fed", async () => {
    const doomed = await ok<{ id: string }>(
      await owner.post(`/api/projects/${projectId}/monitors`, monitorBody("Doomed")),
      201,
    );
    const { page } = await newPage();
    const at = `${base()}/${page.id}`;
    const component = await ok<StatusPageComponentView>(
      await owner.post(`${at}/components`, { name: "API", monitorIds: [doomed.id, monitorId] }),
      201,
    );
    expect(component.monitors.map((m) => m.id).sort()).toEqual([doomed.id, monitorId].sort());
    expect((await owner.delete(`/api/projects/${projectId}/monitors/${doomed.id}`)).status).toBe(
      204,
    );
    const after = await ok<StatusPageConfigView>(await owner.get(at));
    expect(after.components[0]?.monitors.map((m) => m.id)).toEqual([monitorId]);
  });

  it("holds at most 100 components a page", async () => {
    const { page } = await newPage();
    const at = `${base()}/${page.id}`;
    for (let i = 0; i < 100; i++)
      expect((await owner.post(`${at}/components`, { name: `c${i}` })).status).toBe(201);
    const problem = await refused(
      await owner.post(`${at}/components`, { name: "one too many" }),
      409,
    );
    expect(problem.detail).toMatch(/at most 100 components/);
  });

  it("documents its routes in the OpenAPI document", async () => {
    const doc = await json<{ paths: Record<string, Record<string, unknown>> }>(
      await service.fetch("/openapi.json"),
    );
    const prefix = "/api/orgs/{orgId}/status-pages";
    const documented = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith(prefix))
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path.slice(prefix.length)}`));
    expect(documented.sort()).toEqual(
      [
        "get ",
        "post ",
        "get /{pageId}",
        "patch /{pageId}",
        "delete /{pageId}",
        "post /{pageId}/groups",
        "patch /{pageId}/groups/{groupId}",
        "delete /{pageId}/groups/{groupId}",
        "post /{pageId}/components",
        "patch /{pageId}/components/{componentId}",
        "delete /{pageId}/components/{componentId}",
        "get /{pageId}/maintenances",
        "post /{pageId}/maintenances",
        "get /{pageId}/maintenances/{maintenanceId}",
        "patch /{pageId}/maintenances/{maintenanceId}",
        "delete /{pageId}/maintenances/{maintenanceId}",
      ].sort(),
    );
    const schemas = (doc as unknown as { components: { schemas: Record<string, unknown> } })
      .components.schemas;
    const create = JSON.stringify(
      Object.entries(schemas).find(([name]) => name === "CreateStatusPageInputInput")?.[1],
    );
    expect(create).toContain("timezone");
    expect(create).toContain("^[a-z0-9]+(?:-[a-z0-9]+)*$");
  });

  it("deletes a window left covering no component when its last component is removed", async () => {
    const { page } = await newPage();
    const at = `${base()}/${page.id}`;
    const add = async (name: string) =>
      ok<StatusPageComponentView>(await owner.post(`${at}/components`, { name }), 201);
    const [a, b] = [await add("a"), await add("b")];
    const window = async (componentIds: string[]) =>
      ok<StatusPageMaintenanceView>(
        await owner.post(`${at}/maintenances`, {
          title: "w",
          startsAt: new Date(Date.now() + HOUR).toISOString(),
          endsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
          componentIds,
        }),
        201,
      );
    const onlyA = await window([a.id]);
    const both = await window([b.id, a.id, a.id]);
    expect(both.componentIds).toEqual([a.id, b.id].sort());
    expect((await owner.delete(`${at}/components/${a.id}`)).status).toBe(204);
    await refused(await owner.get(`${at}/maintenances/${onlyA.id}`), 404);
    const kept = await ok<StatusPageMaintenanceView>(
      await owner.get(`${at}/maintenances/${both.id}`),
    );
    expect(kept.componentIds).toEqual([b.id]);
  });

  it("is not reachable with an API key, and an API key actor cannot use an organization", async () => {
    const { key } = await addProjectWithKey(service, orgId, "prj_keyed");
    const response = await service.fetch(base(), { headers: { "x-api-key": key } });
    expect(response.status).toBe(401);
    const ctx = {
      deps: service.deps.domain,
      actor: { kind: "api_key" as const, keyId: "key", projectId: "prj_keyed", permissions: [] },
    };
    await expect(requireOrg(ctx, orgId, "read")).rejects.toBeInstanceOf(ForbiddenError);
  });
});
