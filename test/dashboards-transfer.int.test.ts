import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DASHBOARD_MAX_DOCUMENT_BYTES,
  type DashboardExport,
  type DashboardView,
  TEXT_PANEL_MAX_LENGTH,
} from "../src/contracts/dashboards.js";
import { checkoutBody, fields, ok, refused } from "./helpers/dashboards-api.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

const SCRIPT = '<script>alert(document.cookie)</script><img src=x onerror="alert(1)">';

/** Export files: what they hold, the round trip, and what an import refuses. */
describe("dashboard export and import", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let projectId: string;
  let original: DashboardView;
  let exported: DashboardExport;

  const base = () => `/api/projects/${projectId}/dashboards`;
  const importing = (body: unknown) => owner.post(`${base()}/import`, body);
  const valid = (): DashboardExport =>
    ({ schemaVersion: 1, ...checkoutBody("Imported") }) as DashboardExport;

  beforeAll(async () => {
    ({ service, owner, projectId } = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
    }));
    const body = checkoutBody();
    original = await ok<DashboardView>(
      await owner.post(base(), {
        ...body,
        timeRange: { from: "2026-01-05T10:00:00Z", to: "2026-01-05T11:00:00Z" },
        refresh: "1m",
        rows: [{ title: "Latency", y: 8, collapsed: true }],
        variables: [
          ...(body.variables ?? []),
          {
            type: "query",
            name: "route",
            multi: true,
            includeAll: true,
            default: "$__all",
            tql: "SELECT DISTINCT http_route FROM traces",
          },
        ],
      }),
      201,
    );
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("exports the body and the format's version, nothing of the project", async () => {
    exported = await ok<DashboardExport>(await owner.get(`${base()}/${original.id}/export`));
    expect(exported.schemaVersion).toBe(1);
    const {
      id,
      projectId: _p,
      version,
      starred,
      templateId,
      createdBy,
      createdAt,
      updatedAt,
      ...body
    } = original;
    expect(exported).toEqual({ schemaVersion: 1, ...body });
    expect(Object.keys(exported)).not.toContain("id");
    expect(exported.rows[0]?.id).toMatch(/^row_/);
  });

  it("imports an export as a new dashboard with the same document", async () => {
    const copy = await ok<DashboardView>(await importing(exported), 201);
    expect(copy.id).not.toBe(original.id);
    expect(copy).toMatchObject({ version: 1, templateId: null });
    const again = await ok<DashboardExport>(await owner.get(`${base()}/${copy.id}/export`));
    expect(again).toEqual(exported);
  });

  it("refuses another or a missing schemaVersion, naming the field", async () => {
    for (const schemaVersion of [2, 0, "1", null, undefined]) {
      const problem = await refused(await importing({ ...exported, schemaVersion }), 400);
      expect(fields(problem), String(schemaVersion)).toEqual(["schemaVersion"]);
    }
  });

  it("refuses unknown panel types and fields anywhere, naming the path", async () => {
    const panel = checkoutBody().panels?.[0];
    const cases: [unknown, string[]][] = [
      [{ ...valid(), panels: [{ ...panel, type: "iframe" }] }, ["panels.0.type"]],
      [{ ...valid(), panels: [{ ...panel, html: "<b>x</b>" }] }, ["panels.0.html"]],
      [
        { ...valid(), panels: [{ ...panel, options: { a: { b: { c: { d: 1 } } } } }] },
        ["panels.0.options.a"],
      ],
      [
        { ...valid(), panels: [{ ...panel, gridPos: { x: 0, y: 0, w: 6, h: 4, z: [[[1]]] } }] },
        ["panels.0.gridPos.z"],
      ],
      [{ ...valid(), variables: [{ type: "script", name: "x" }] }, ["variables.0.type"]],
      [{ ...valid(), id: "dsh_taken", projectId: "prj_other" }, ["id", "projectId"]],
      [{ ...valid(), tags: "prod" }, ["tags"]],
    ];
    for (const [body, field] of cases) {
      const problem = await refused(await importing(body), 400);
      expect(fields(problem), JSON.stringify(body).slice(0, 120)).toEqual(field);
    }
  });

  it("refuses deeply nested JSON with a 400, not a crash", async () => {
    const depth = 5000;
    const deep = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const text = JSON.stringify(valid()).replace('"tags":[', `"tags":[${deep},`);
    const response = await service.fetch(`${base()}/import`, {
      method: "POST",
      headers: { cookie: owner.cookie, origin: service.url, "content-type": "application/json" },
      body: text,
    });
    const problem = await refused(response, 400);
    expect(fields(problem).join(" ")).toContain("tags.0");
    // The server is still well.
    expect((await owner.get(base())).status).toBe(200);
  });

  it("refuses a document over the limit (413), however it comes", async () => {
    const text = (i: number) => ({
      title: `Notes ${i}`,
      type: "text" as const,
      gridPos: { x: 0, y: i, w: 12, h: 2 },
      content: "x".repeat(TEXT_PANEL_MAX_LENGTH),
    });
    // Under the HTTP body limit (1 MiB) but over the document's: the verb refuses it.
    const big = { ...valid(), panels: Array.from({ length: 50 }, (_, i) => text(i)) };
    const bytes = Buffer.byteLength(JSON.stringify(big));
    expect(bytes).toBeGreaterThan(DASHBOARD_MAX_DOCUMENT_BYTES);
    expect(bytes).toBeLessThan(1024 * 1024);
    for (const response of [
      await importing(big),
      await owner.post(base(), { ...big, schemaVersion: undefined }),
      await owner.patch(`${base()}/${original.id}`, { version: 1, panels: big.panels }),
    ]) {
      const problem = await refused(response, 413);
      expect(problem.detail).toContain("1,000,000");
    }
    // Over the body limit: refused before it is read.
    const huge = { ...valid(), panels: Array.from({ length: 60 }, (_, i) => text(i)) };
    await refused(await importing(huge), 413);
    expect((await ok<DashboardView>(await owner.get(`${base()}/${original.id}`))).version).toBe(1);
  });

  it("keeps a script in a text panel as inert text: stored as written, answered as JSON", async () => {
    const body = valid();
    const notes = { ...body.panels[1], content: `# Hi\n${SCRIPT}` };
    const imported = await ok<DashboardView>(
      await importing({ ...body, title: SCRIPT, panels: [body.panels[0], notes] }),
      201,
    );
    expect(imported.panels[1]?.content).toBe(`# Hi\n${SCRIPT}`);
    const response = await owner.get(`${base()}/${imported.id}/export`);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const again = await ok<DashboardExport>(response);
    expect(again.title).toBe(SCRIPT);
    expect(again.panels[1]?.content).toBe(`# Hi\n${SCRIPT}`);
  });
});
