import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import type { StatusPageConfigView } from "../../src/contracts/status-pages.js";
import { findPostgresBin, startThrowawayPostgres, type ThrowawayPostgres } from "./postgres.js";
import { addProjectWithKey } from "./projects.js";
import { OUTSIDER, type Session, startWithRoles } from "./roles.js";
import { makeTempDir } from "./temp-dir.js";
import type { TestService } from "./test-service.js";

// The status page management API's test bench, shared by test/status-pages-api*.int.test.ts: a
// service per file with an owner, a viewer and an outsider, and sources to bind.

export interface Problem {
  status: number;
  detail: string;
  errors?: { field: string; message: string }[];
}
export interface Page<T> {
  data: T[];
  pagination: { total: number };
}

const postgresBin = findPostgresBin();
/** Both metadata engines: the page lock, the version bump and the cascades are SQL of each. */
export const ENGINES = ["SQLite", ...(postgresBin ? ["PostgreSQL"] : [])];

/** What a test of the management API uses; filled in by the file's beforeAll. */
export interface StatusPagesApi {
  service: TestService;
  owner: Session;
  viewer: Session;
  outsider: Session;
  orgId: string;
  projectId: string;
  /** A monitor and a rule of the owner's organization, and a monitor of the outsider's. */
  monitorId: string;
  ruleId: string;
  foreignMonitorId: string;
  json<T>(response: Response): Promise<T>;
  /** /api/orgs/:orgId/status-pages of the owner's organization. */
  base(): string;
  /** The body of an answer of that status (200 by default), failing with it otherwise. */
  ok<T>(response: Response, status?: number): Promise<T>;
  /** The problem of a refused answer of that status (400 by default). */
  refused(response: Response, status?: number): Promise<Problem>;
  fields(problem: Problem): string[];
  /** A new page of the owner's, with a slug of its own unless given. */
  newPage(body?: Record<string, unknown>): Promise<StatusPageConfigView>;
  version(pageId: string): Promise<number>;
  monitorBody(name: string): Record<string, unknown>;
}

/**
 * Starts the service on `engine` before the file's tests and stops it after; the returned object
 * is filled in once they start, so tests read its fields inside `it`.
 */
export function useStatusPagesApi(engine: string): StatusPagesApi {
  const dir = makeTempDir();
  let postgres: ThrowawayPostgres | undefined;
  let slugs = 0;
  const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;
  const helpers: Partial<StatusPagesApi> = {
    json,
    base: () => `/api/orgs/${t.orgId}/status-pages`,
    async ok<T>(response: Response, status = 200): Promise<T> {
      const body = await json<T>(response);
      expect(response.status, JSON.stringify(body)).toBe(status);
      return body;
    },
    async refused(response: Response, status = 400): Promise<Problem> {
      const problem = await json<Problem>(response);
      expect(response.status, JSON.stringify(problem)).toBe(status);
      return problem;
    },
    fields: (problem: Problem) => (problem.errors ?? []).map((e) => e.field),
    newPage: async (body: Record<string, unknown> = {}) =>
      t.ok<StatusPageConfigView>(
        await t.owner.post(t.base(), { slug: `page-${++slugs}`, title: "Acme status", ...body }),
        201,
      ),
    version: async (pageId: string) =>
      (await t.ok<StatusPageConfigView>(await t.owner.get(`${t.base()}/${pageId}`))).page
        .dataVersion,
    monitorBody: (name: string) => ({
      name,
      type: "api",
      frequency: "1h",
      steps: [{ url: "https://example.com/health" }],
    }),
  };
  const t = helpers as StatusPagesApi;

  beforeAll(async () => {
    if (engine === "PostgreSQL") postgres = await startThrowawayPostgres(postgresBin ?? "");
    Object.assign(
      t,
      await startWithRoles(dir.path, {
        VIGIL_MONITORS_ENABLED: "false",
        VIGIL_ALERTS_ENABLED: "false",
        ...(postgres
          ? { VIGIL_META_URL: postgres.url, VIGIL_SECRET_KEY: randomBytes(32).toString("base64") }
          : {}),
      }),
    );
    const { owner, outsider, service, projectId } = t;
    t.monitorId = (
      await t.ok<{ id: string }>(
        await owner.post(`/api/projects/${projectId}/monitors`, t.monitorBody("Checkout API")),
        201,
      )
    ).id;
    t.ruleId = (
      await t.ok<{ id: string }>(
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
    t.foreignMonitorId = (
      await t.ok<{ id: string }>(
        await outsider.post(`/api/projects/${foreignProject}/monitors`, t.monitorBody("Secret")),
        201,
      )
    ).id;
  });
  afterAll(async () => {
    await t.service?.stop();
    await postgres?.stop();
    dir.remove();
  });
  return t;
}
