import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "../src/auth/api-keys.js";
import { systemCtx } from "../src/context.js";
import { PERMISSIONS, type Permission } from "../src/contracts/auth.js";
import { createIncident } from "../src/incidents/incidents.js";
import { initialize } from "../src/setup/initialize.js";
import { createPage as createStatusPage } from "../src/status-pages/status-pages.js";
import { hexId, logsBody, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

/**
 * The shared security cases of docs/design.md §3, run against every GET route under /v1 that the
 * OpenAPI document lists: no key, bad key, revoked key, another project's key, a key without
 * the route's permission, and the rate limit. A new read route fails this suite until it is
 * given its permission below.
 */
const PERMISSION_BY_PREFIX: [string, Permission | null][] = [
  ["/v1/whoami", null],
  ["/v1/logs", "logs:read"],
  ["/v1/traces", "traces:read"],
  ["/v1/services", "traces:read"],
  ["/v1/service-map", "traces:read"],
  // The catalog's permission is its source's; traces by default.
  ["/v1/attributes", "traces:read"],
  ["/v1/errors", "errors:read"],
  ["/v1/http-metrics", "http_metrics:read"],
  ["/v1/infra-health", "infra:read"],
  ["/v1/metrics/", "infra:read"],
  ["/v1/ai/", "ai:read"],
  ["/v1/sessions", "sessions:read"],
  ["/v1/traffic", "sessions:read"],
  ["/v1/incidents", "incidents:read"],
  ["/v1/alerts", "alerts:read"],
  ["/v1/status-pages", "status_pages:read"],
  ["/v1/tql", "tql:query"],
];
/** Routes over the organization's data (status pages): any project's key of it reads them. */
const ORG_SCOPED = ["/v1/status-pages"];
const MARKER = "VICTIM-MARKER";
const VICTIM_SESSION = "sess-victim-0001";
/** Above four failed authentications per route (one client address's shared budget). */
const LIMIT = 200;
const NOW = Date.now();
const VICTIM_TRACE = hexId(0x7777, 32);

interface Route {
  path: string;
  url: string;
  permission: Permission | null;
  /** Names one item of the victim's, so another project's key must get 404. */
  item: boolean;
}

describe("shared security cases on every /v1 read route", () => {
  const dir = makeTempDir();
  let service: TestService;
  let victimProject: string;
  let victimKey: string;
  let attackerKey: string;
  /** A key of a project of another organization, for the organization-scoped routes. */
  let foreignOrgKey: string;
  let revokedKey: string;
  let victimIncident: string;
  const routes: Route[] = [];
  const ctx = () => ({ deps: service.deps.domain, actor: { kind: "system" as const } });
  const keyWith = async (projectId: string, permissions: Permission[]) =>
    (await createApiKey({ ctx: ctx(), projectId, input: { name: "k", permissions } })).key;

  beforeAll(async () => {
    // Failed authentications share one budget per client address: the 401 case stays below it.
    service = await startTestService(dir.path, { VIGIL_RATE_LIMIT_PER_MINUTE: String(LIMIT) });
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "sec@example.com",
        password: "correct horse battery",
      },
    });
    victimProject = setup.projectId;
    victimKey = setup.apiKey ?? "";
    attackerKey = (
      await addProjectWithKey(service, setup.orgId, "prj_attacker", {
        name: "attacker",
        permissions: [...PERMISSIONS],
      })
    ).key;
    const foreignOrg = await service.deps.meta.repos.organizations.insert({
      id: "org_attacker",
      name: "Attacker",
      createdAt: new Date().toISOString(),
    });
    foreignOrgKey = (
      await addProjectWithKey(service, foreignOrg.id, "prj_foreign", {
        name: "foreign",
        permissions: [...PERMISSIONS],
      })
    ).key;
    await createStatusPage({
      ctx: ctx(),
      orgId: setup.orgId,
      input: { slug: "victim-page", title: MARKER, description: MARKER },
    });
    const revoked = await createApiKey({
      ctx: ctx(),
      projectId: victimProject,
      input: { name: "revoked", role: "full" },
    });
    await revokeApiKey({ ctx: ctx(), keyId: revoked.id });
    revokedKey = revoked.key;

    await sendOtlp(
      service,
      victimKey,
      "traces",
      tracesBody(
        MARKER,
        [
          {
            traceId: VICTIM_TRACE,
            spanId: hexId(1, 16),
            name: `${MARKER} GET /secret`,
            kind: 2,
            startMs: NOW - 60_000,
            durationMs: 20,
            error: true,
            attributes: {
              "http.route": "/secret",
              "http.response.status_code": 500,
              "session.id": VICTIM_SESSION,
            },
            events: [
              {
                name: "exception",
                timeMs: NOW - 59_990,
                attributes: { "exception.type": MARKER, "exception.message": MARKER },
              },
            ],
          },
        ],
        { "host.name": MARKER },
      ),
    );
    await sendOtlp(
      service,
      victimKey,
      "logs",
      logsBody(MARKER, [
        {
          timeMs: NOW - 30_000,
          severityNumber: 17,
          body: `${MARKER} token leaked`,
          attributes: { "session.id": VICTIM_SESSION },
        },
      ]),
    );

    victimIncident = (
      await createIncident({
        ctx: ctx(),
        projectId: victimProject,
        input: { title: MARKER, severity: "high" },
      })
    ).id;
    await insertVictimAlert();

    const openapi = (await (await service.fetch("/openapi.json")).json()) as {
      paths: Record<
        string,
        { get?: { parameters?: { name: string; in: string; required?: boolean }[] } }
      >;
    };
    const victimItems = await victimItemIds();
    for (const [path, methods] of Object.entries(openapi.paths)) {
      if (!path.startsWith("/v1/") || !methods.get) continue;
      const parameters = methods.get.parameters ?? [];
      let url = path;
      let item = false;
      for (const p of parameters.filter((p) => p.in === "path")) {
        url = url.replace(`{${p.name}}`, encodeURIComponent(victimItems[p.name] ?? MARKER));
        item = true;
      }
      const required = parameters.filter((p) => p.in === "query" && p.required).map((p) => p.name);
      if (required.length > 0)
        url += `?${required.map((n) => `${n}=${n === "time_range" ? "1h" : MARKER}`).join("&")}`;
      const permission = PERMISSION_BY_PREFIX.find(([prefix]) => path.startsWith(prefix));
      if (!permission) throw new Error(`${path}: add its permission to PERMISSION_BY_PREFIX`);
      routes.push({ path, url, permission: permission[1], item });
    }
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  /** An alert rule of the victim's, named and fired with the marker. */
  async function insertVictimAlert(): Promise<void> {
    const { repos } = service.deps.meta;
    const at = new Date(NOW - 60_000).toISOString();
    await repos.alertRules.insert({
      id: "alr_victim",
      projectId: victimProject,
      name: MARKER,
      description: MARKER,
      severity: "high",
      definition: {
        preset: null,
        condition: { op: ">", threshold: 1 },
        interval: "1m",
        forSeconds: 0,
        noData: "ok",
        renotifyMinutes: 0,
        openIncident: false,
        messageTemplate: MARKER,
        escalationPolicyId: null,
      },
      query: `SELECT count() AS value FROM logs WHERE message LIKE '%${MARKER}%'`,
      channelIds: [],
      muted: false,
      mutedUntil: null,
      state: "firing",
      lastEvaluatedAt: at,
      lastDurationMs: 1,
      lastValue: 2,
      lastSeries: 1,
      lastError: null,
      failures: 0,
      failingSince: null,
      createdBy: null,
      createdAt: at,
      updatedAt: at,
    });
    await repos.alertEvents.insertMany([
      {
        id: "ale_victim",
        ruleId: "alr_victim",
        projectId: victimProject,
        seriesKey: "{}",
        labels: {},
        kind: "fired",
        severity: "high",
        value: 2,
        threshold: 1,
        at,
        notified: true,
        incidentId: null,
        message: MARKER,
      },
    ]);
  }

  /** Ids of the victim's items for the item routes. */
  async function victimItemIds(): Promise<Record<string, string>> {
    const first = async (path: string, field: string) => {
      const body = (await (
        await service.fetch(path, { headers: { "x-api-key": victimKey } })
      ).json()) as {
        data?: Record<string, unknown>[];
      };
      return String(body.data?.[0]?.[field] ?? "");
    };
    return {
      traceId: VICTIM_TRACE,
      spanId: hexId(1, 16),
      logId: await first("/v1/logs", "id"),
      errorId: await first("/v1/errors", "id"),
      sessionId: VICTIM_SESSION,
      incidentId: victimIncident,
      alertId: await first("/v1/alerts", "id"),
      slug: "victim-page",
      service: MARKER,
    };
  }

  const call = (url: string, key?: string) =>
    service.fetch(url, key === undefined ? {} : { headers: { "x-api-key": key } });

  it("covers every read route of the OpenAPI document", () => {
    const paths = routes.map((r) => r.path);
    for (const expected of [
      "/v1/logs",
      "/v1/logs/{logId}",
      "/v1/logs/dashboard",
      "/v1/traces",
      "/v1/traces/{traceId}",
      "/v1/traces/{traceId}/spans",
      "/v1/traces/{traceId}/spans/{spanId}",
      "/v1/errors",
      "/v1/errors/{errorId}",
      "/v1/errors/dashboard",
      "/v1/incidents",
      "/v1/incidents/{incidentId}",
      "/v1/incidents/dashboard",
      "/v1/alerts",
      "/v1/alerts/{alertId}",
      "/v1/alerts/dashboard",
      "/v1/status-pages",
      "/v1/status-pages/{slug}/data",
    ])
      expect(paths).toContain(expected);
  });

  it("the victim's own key sees its data (so the other cases can fail)", async () => {
    for (const route of routes) {
      const response = await call(route.url, victimKey);
      expect(response.status, route.url).toBe(200);
    }
  });

  it("no key, a malformed key, an unknown key and a revoked key: 401 problem+json", async () => {
    for (const route of routes) {
      for (const key of [undefined, "not-a-key", `vgl_${"x".repeat(32)}`, revokedKey]) {
        const response = await call(route.url, key);
        expect(response.status, `${route.url} with ${key}`).toBe(401);
        expect(response.headers.get("content-type")).toContain("application/problem+json");
        expect(response.headers.get("ratelimit-limit")).toBe(String(LIMIT));
        expect(await response.text()).not.toContain(MARKER);
      }
    }
  });

  it("another project's key never sees the victim's data: 404 for items, its own (empty) data for lists", async () => {
    for (const route of routes) {
      const orgScoped = ORG_SCOPED.some((prefix) => route.path.startsWith(prefix));
      const response = await call(route.url, orgScoped ? foreignOrgKey : attackerKey);
      expect(response.status, route.url).toBe(route.item ? 404 : 200);
      expect(await response.text(), route.url).not.toContain(MARKER);
    }
  });

  it("a key without the route's permission: 403", async () => {
    for (const route of routes.filter((r) => r.permission !== null)) {
      const others = PERMISSIONS.filter((p) => p !== route.permission);
      const response = await call(route.url, await keyWith(victimProject, others));
      expect(response.status, route.url).toBe(403);
      expect(((await response.json()) as { detail: string }).detail).toContain(
        String(route.permission),
      );
    }
  });

  it("rate limited: 429 with Retry-After once the key's budget for /v1 is spent", async () => {
    const key = await keyWith(victimProject, [...PERMISSIONS]);
    for (let i = 0; i < LIMIT; i++) {
      const response = await call("/v1/whoami", key);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    for (const route of routes) {
      const limited = await call(route.url, key);
      expect(limited.status, route.url).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(limited.headers.get("ratelimit-remaining")).toBe("0");
      expect(await limited.text()).not.toContain(MARKER);
    }
  });
});
