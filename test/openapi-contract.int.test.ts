import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn, startTestService, type TestService } from "./helpers/test-service.js";

const OWNER = { email: "contract-owner@example.com", password: "correct horse battery" };
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

interface Operation {
  security?: unknown[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, unknown> }>;
}
type OpenApi = { paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>> };
interface Problem {
  status: number;
  code: string;
  errors?: { field: string; message: string }[];
}

/** Session routes reachable without a session. */
const PUBLIC = new Set([
  "/api/auth/login",
  "/api/auth/logout",
  "/api/auth/session",
  "/api/invitations/preview",
  "/api/invitations/accept",
]);
/** Responses that are not problems by design: a readiness report is JSON whatever its status. */
const NOT_PROBLEMS = new Set(["get /readyz 503"]);
/** What routes for people and jobs rather than programs answer (their config's mediaType). */
const PAGES = new Set(["text/html", "text/plain"]);

describe("the OpenAPI document's error contract", () => {
  const dir = makeTempDir();
  let service: TestService;
  let doc: OpenApi;
  let session: Awaited<ReturnType<typeof signIn>>;
  let key: string;
  /** The signed-in owner's project, for the /api and /webhooks routes. */
  let sessionProject = "";
  const operations: { method: string; path: string; op: Operation }[] = [];

  beforeAll(async () => {
    service = await startTestService(dir.path, {
      VIGIL_ADMIN_EMAIL: OWNER.email,
      VIGIL_ADMIN_PASSWORD: OWNER.password,
      VIGIL_MONITORS_ENABLED: "false",
    });
    doc = (await (await service.fetch("/openapi.json")).json()) as OpenApi;
    for (const [path, item] of Object.entries(doc.paths))
      for (const method of METHODS) {
        const op = item[method];
        if (op) operations.push({ method, path, op });
      }
    session = await signIn(service, OWNER.email, OWNER.password);
    const user = await service.deps.meta.repos.users.findByEmail(OWNER.email);
    const [membership] = user ? await service.deps.meta.repos.users.listMemberships(user.id) : [];
    ({ key } = await addProjectWithKey(service, membership?.orgId ?? "", "prj_contract"));
    const projects = (await (await session.get("/api/projects")).json()) as {
      data: { id: string }[];
    };
    sessionProject = projects.data[0]?.id ?? "";
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("documents every error response as application/problem+json", () => {
    expect(operations.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    for (const { method, path, op } of operations)
      for (const [status, response] of Object.entries(op.responses)) {
        if (status.startsWith("2") || NOT_PROBLEMS.has(`${method} ${path} ${status}`)) continue;
        const types = Object.keys(response.content ?? {});
        // Links people open or jobs ping (/ack, /ping) answer a page or plain text, as documented.
        if (PAGES.has(types.join())) continue;
        if (types.join() !== "application/problem+json")
          wrong.push(`${method} ${path} ${status}: ${types.join()}`);
      }
    expect(wrong).toEqual([]);
  });

  it("documents the statuses every route of its kind can answer", () => {
    const missing: string[] = [];
    const expectStatuses = (method: string, path: string, op: Operation, statuses: number[]) => {
      for (const status of statuses)
        if (!op.responses[String(status)]) missing.push(`${method} ${path} ${status}`);
    };
    for (const { method, path, op } of operations) {
      if (path.includes("{")) expectStatuses(method, path, op, [400, 404, 414]);
      if (op.requestBody) expectStatuses(method, path, op, [400, 413, 415]);
      const sessionRoute =
        path.startsWith("/webhooks/") || (path.startsWith("/api/") && !PUBLIC.has(path));
      if (op.security || sessionRoute) expectStatuses(method, path, op, [401, 403]);
      if (path.startsWith("/v1/")) expectStatuses(method, path, op, [400, 429, 503]);
      if (path.startsWith("/api/") || path.startsWith("/webhooks/"))
        expectStatuses(method, path, op, [400, 500]);
    }
    expect(missing).toEqual([]);
  });

  it("answers only statuses its document lists, as problem+json", async () => {
    const long = "a".repeat(300);
    const hex = "0123456789abcdef0123456789abcdef";
    const v1 = { "x-api-key": key };
    const p = () => sessionProject;
    const samples: {
      method: string;
      path: string;
      send: () => Promise<Response>;
      status: number;
    }[] = [
      { method: "get", path: "/v1/logs", status: 401, send: () => service.fetch("/v1/logs") },
      {
        method: "get",
        path: "/v1/logs",
        status: 400,
        send: () => service.fetch("/v1/logs?levle=error", { headers: v1 }),
      },
      {
        method: "get",
        path: "/v1/traces/{traceId}",
        status: 414,
        send: () => service.fetch(`/v1/traces/${long}`, { headers: v1 }),
      },
      {
        method: "get",
        path: "/v1/traces/{traceId}",
        status: 404,
        send: () => service.fetch(`/v1/traces/${hex}`, { headers: v1 }),
      },
      {
        method: "get",
        path: "/v1/traces/{traceId}",
        status: 400,
        send: () => service.fetch(`/v1/traces/${hex}?x=1`, { headers: v1 }),
      },
      {
        method: "get",
        path: "/api/projects/{projectId}/monitors",
        status: 401,
        send: () => service.fetch(`/api/projects/${p()}/monitors`),
      },
      {
        method: "get",
        path: "/api/projects/{projectId}/monitors/{monitorId}",
        status: 404,
        send: () => session.get(`/api/projects/${p()}/monitors/mon_nope`),
      },
      {
        method: "get",
        path: "/api/projects/{projectId}/monitors/{monitorId}",
        status: 414,
        send: () => session.get(`/api/projects/${p()}/monitors/${long}`),
      },
      {
        method: "post",
        path: "/api/projects/{projectId}/monitors",
        status: 413,
        send: () =>
          session.post(`/api/projects/${p()}/monitors`, { name: "x".repeat(1024 * 1024 + 1) }),
      },
      {
        method: "post",
        path: "/api/projects/{projectId}/monitors",
        status: 415,
        send: () =>
          service.fetch(`/api/projects/${p()}/monitors`, {
            method: "POST",
            headers: { cookie: session.cookie, origin: service.url, "content-type": "text/csv" },
            body: "a,b",
          }),
      },
      {
        method: "get",
        path: "/webhooks/{projectId}/endpoints",
        status: 400,
        send: () => session.get(`/webhooks/${p()}/endpoints?pagee=2`),
      },
    ];
    for (const sample of samples) {
      const response = await sample.send();
      const label = `${sample.method} ${sample.path} → ${response.status}`;
      expect(response.status, label).toBe(sample.status);
      expect(response.headers.get("content-type"), label).toMatch(/^application\/problem\+json/);
      const op = doc.paths[sample.path]?.[sample.method as (typeof METHODS)[number]];
      expect(op?.responses[String(response.status)], `${label} is not documented`).toBeDefined();
    }
  });

  it("answers 404, not 405, for a method a path does not have (so 405 is not documented)", async () => {
    const response = await service.fetch("/v1/logs", {
      method: "DELETE",
      headers: { "x-api-key": key },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(doc.paths["/v1/logs"]?.delete).toBeUndefined();
  });

  it("rejects an unknown query parameter on /api and /webhooks routes, naming it", async () => {
    for (const path of [
      "/api/projects?pge=2",
      `/api/projects/${sessionProject}?verbose=1`,
      `/api/projects/${sessionProject}/monitors?pge=2`,
      `/api/projects/${sessionProject}/channels?pge=2`,
      `/webhooks/${sessionProject}/endpoints?pge=2`,
    ]) {
      const response = await session.get(path);
      const problem = (await response.json()) as Problem;
      expect(response.status, path).toBe(400);
      const name = new URL(path, "http://x").searchParams.keys().next().value;
      expect(
        problem.errors?.map((e) => e.field),
        path,
      ).toEqual([name]);
      expect(problem.errors?.[0]?.message).toBe("is not a known parameter");
    }
    // Known ones still work.
    expect((await session.get("/api/projects?page=1&limit=10")).status).toBe(200);
  });

  it("treats an empty time_range, from or to as absent", async () => {
    const headers = { "x-api-key": key };
    for (const path of ["/v1/logs", "/v1/traces", "/v1/errors", "/v1/sessions"]) {
      const absent = await service.fetch(path, { headers });
      expect(absent.status, path).toBe(200);
      const body = await absent.json();
      for (const empty of ["time_range=", "from=&to=", "time_range=&from=&to="]) {
        const response = await service.fetch(`${path}?${empty}`, { headers });
        expect(response.status, `${path}?${empty}`).toBe(200);
        expect(await response.json()).toEqual(body);
      }
    }
    // Dashboards apply their default window (24h) to an empty time_range.
    for (const path of ["/v1/logs/dashboard", "/v1/errors/dashboard", "/v1/traffic"])
      expect((await service.fetch(`${path}?time_range=`, { headers })).status, path).toBe(200);
    const results = await session.get(
      `/api/projects/${sessionProject}/monitors/mon_x/results?time_range=`,
    );
    expect(results.status).toBe(404);
    // A required time_range stays required.
    const metrics = await service.fetch("/v1/http-metrics?time_range=", { headers });
    expect(metrics.status).toBe(400);
    expect(((await metrics.json()) as Problem).errors?.[0]?.field).toBe("time_range");
  });
});
