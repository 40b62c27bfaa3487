import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SavedQueryView } from "../src/contracts/tql.js";
import { TQL_MAX_QUERY_LENGTH } from "../src/contracts/tql-dialect.js";
import {
  findPostgresBin,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "./helpers/postgres.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

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

/** Saved TQL queries per project over HTTP: members write, viewers read, outsiders see nothing. */
describe.each(ENGINES)("saved queries API on %s", (engine) => {
  const dir = makeTempDir();
  let postgres: ThrowawayPostgres | undefined;
  let service: TestService;
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let projectId: string;
  let ownerId: string;

  const base = () => `/api/projects/${projectId}/saved-queries`;
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

  beforeAll(async () => {
    if (engine === "PostgreSQL") postgres = await startThrowawayPostgres(postgresBin ?? "");
    ({ service, owner, viewer, outsider, projectId, ownerId } = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      ...(postgres
        ? { VIGIL_META_URL: postgres.url, VIGIL_SECRET_KEY: randomBytes(32).toString("base64") }
        : {}),
    }));
  });
  afterAll(async () => {
    await service?.stop();
    await postgres?.stop();
    dir.remove();
  });

  it("saves a query, lists the project's by name and reads one", async () => {
    const slow = await ok<SavedQueryView>(
      await owner.post(base(), {
        name: "  Slow spans ",
        query: "SELECT operation_name, max(duration_ms) FROM traces GROUP BY 1",
        description: "p100 per operation",
      }),
      201,
    );
    expect(slow).toMatchObject({
      projectId,
      name: "Slow spans",
      description: "p100 per operation",
      query: "SELECT operation_name, max(duration_ms) FROM traces GROUP BY 1",
      createdBy: ownerId,
    });
    expect(slow.id).toMatch(/^sqr_/);
    expect(slow.createdAt).toBe(slow.updatedAt);
    const errors = await ok<SavedQueryView>(
      await owner.post(base(), { name: "error logs", query: "SELECT * FROM logs" }),
      201,
    );
    expect(errors.description).toBe("");

    const list = await ok<Page<SavedQueryView>>(await owner.get(base()));
    expect(list.data.map((q) => q.name)).toEqual(["error logs", "Slow spans"]);
    expect(list.pagination.total).toBe(2);
    const paged = await ok<Page<SavedQueryView>>(await owner.get(`${base()}?limit=1&page=2`));
    expect(paged.data.map((q) => q.name)).toEqual(["Slow spans"]);
    expect(await ok<SavedQueryView>(await owner.get(`${base()}/${slow.id}`))).toEqual(slow);
  });

  it("refuses invalid input, naming the field", async () => {
    for (const [body, field] of [
      [{ name: "", query: "SELECT 1" }, "name"],
      [{ name: "x".repeat(101), query: "SELECT 1" }, "name"],
      [{ name: "blank", query: "   " }, "query"],
      [{ name: "long", query: "x".repeat(TQL_MAX_QUERY_LENGTH + 1) }, "query"],
      [{ name: "extra", query: "SELECT 1", shared: true }, "shared"],
    ] as const) {
      const problem = await refused(await owner.post(base(), body), 400);
      expect(fields(problem), JSON.stringify(body).slice(0, 80)).toContain(field);
    }
  });

  it("keeps names unique per project: 409 naming the field", async () => {
    const clash = await refused(
      await owner.post(base(), { name: "Slow spans", query: "SELECT 1" }),
      409,
    );
    expect(clash.detail).toContain("Slow spans");
    expect(fields(clash)).toEqual(["name"]);
    const list = await ok<Page<SavedQueryView>>(await owner.get(base()));
    const errors = list.data.find((q) => q.name === "error logs");
    const rename = await refused(
      await owner.patch(`${base()}/${errors?.id}`, { name: "Slow spans" }),
      409,
    );
    expect(fields(rename)).toEqual(["name"]);
  });

  it("renames a query and replaces its text; an empty change keeps it", async () => {
    const list = await ok<Page<SavedQueryView>>(await owner.get(base()));
    const errors = list.data.find((q) => q.name === "error logs");
    const renamed = await ok<SavedQueryView>(
      await owner.patch(`${base()}/${errors?.id}`, {
        name: "Errors by service",
        query: "SELECT service_name, count() FROM logs WHERE level = 'error' GROUP BY 1",
      }),
    );
    expect(renamed).toMatchObject({
      name: "Errors by service",
      query: "SELECT service_name, count() FROM logs WHERE level = 'error' GROUP BY 1",
      createdAt: errors?.createdAt,
    });
    expect(renamed.updatedAt >= renamed.createdAt).toBe(true);
    // Its own name again is not a clash.
    const same = await ok<SavedQueryView>(
      await owner.patch(`${base()}/${errors?.id}`, { name: "Errors by service" }),
    );
    expect(same.query).toBe(renamed.query);
    expect(await ok<SavedQueryView>(await owner.get(`${base()}/${errors?.id}`))).toEqual(same);
  });

  it("lets a viewer read but not write (403)", async () => {
    const list = await ok<Page<SavedQueryView>>(await viewer.get(base()));
    expect(list.data).toHaveLength(2);
    const [first] = list.data;
    expect((await ok<SavedQueryView>(await viewer.get(`${base()}/${first?.id}`))).id).toBe(
      first?.id,
    );
    const path = `${base()}/${first?.id}`;
    for (const response of [
      await viewer.post(base(), { name: "mine", query: "SELECT 1" }),
      await viewer.patch(path, { name: "renamed" }),
      await viewer.delete(path),
    ]) {
      const problem = await refused(response, 403);
      expect(problem.detail).toContain("viewer");
    }
    expect((await ok<Page<SavedQueryView>>(await owner.get(base()))).data).toHaveLength(2);
  });

  it("hides the project from an outsider (404), and another project's query from its path", async () => {
    const list = await ok<Page<SavedQueryView>>(await owner.get(base()));
    const path = `${base()}/${list.data[0]?.id}`;
    for (const response of [
      await outsider.get(base()),
      await outsider.get(path),
      await outsider.post(base(), { name: "x", query: "SELECT 1" }),
      await outsider.patch(path, { name: "x" }),
      await outsider.delete(path),
    ])
      await refused(response, 404);
    // The outsider's own project does not reach the owner's queries either.
    const me = await json<{ organizations: { id: string }[] }>(await outsider.get("/api/auth/me"));
    const created = await ok<{ id: string }>(
      await outsider.post("/api/projects", { name: "Theirs", orgId: me.organizations[0]?.id }),
      201,
    );
    const foreign = `/api/projects/${created.id}/saved-queries/${list.data[0]?.id}`;
    await refused(await outsider.get(foreign), 404);
    await refused(await outsider.delete(foreign), 404);
  });

  it("deletes a query once; then it is not found", async () => {
    const list = await ok<Page<SavedQueryView>>(await owner.get(base()));
    const path = `${base()}/${list.data[0]?.id}`;
    const deleted = await owner.delete(path);
    expect(deleted.status).toBe(204);
    await deleted.arrayBuffer();
    await refused(await owner.delete(path), 404);
    await refused(await owner.get(path), 404);
    expect((await ok<Page<SavedQueryView>>(await owner.get(base()))).data).toHaveLength(1);
  });

  it("needs a session (401)", async () => {
    await refused(await service.fetch(base()), 401);
  });
});
