import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect } from "vitest";
import type { StatusPageData } from "../../src/contracts/status-page-data.js";
import { createIdGenerator } from "../../src/lib/ids.js";
import { findPostgresBin, startThrowawayPostgres, type ThrowawayPostgres } from "./postgres.js";
import { addKey } from "./projects.js";
import { type Session, startWithRoles } from "./roles.js";
import { makeTempDir } from "./temp-dir.js";
import type { TestService } from "./test-service.js";

// A status page on a fake clock, through the real service, shared by the status page state
// tests (test/status-pages-state*.int.test.ts): a monitor of a local target feeding two
// components, API and Website, of the page "acme".

export const MIN = 60_000;
export const DAY = 24 * 60 * MIN;
// A fixed Friday morning, so the day's numbers are exact.
export const T0 = Date.parse("2026-11-20T10:00:00.000Z");
export const TODAY = "2026-11-20";

export interface Page<T> {
  data: T[];
  pagination: { total: number };
}

const postgresBin = findPostgresBin();
/** Both metadata engines: the day rows are atomic upserts written in each one's SQL. */
export const ENGINES = ["SQLite", ...(postgresBin ? ["PostgreSQL"] : [])];

export const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;

/** What a state test uses; filled in by the file's beforeAll. */
export interface StatusPageTimeline {
  /** The service's clock: set it to move time. */
  nowMs: number;
  /** What the monitored target answers. */
  status: number;
  service: TestService;
  owner: Session;
  orgId: string;
  projectId: string;
  /** A read-only key of the project. */
  key: string;
  targetUrl: string;
  monitorId: string;
  apiId: string;
  webId: string;
  pageId: string;
  /** The public payload of "acme". */
  data(): Promise<StatusPageData>;
  component(d: StatusPageData, id: string): StatusPageData["services"][number];
  today(
    d: StatusPageData,
    id: string,
  ): StatusPageData["services"][number]["history"][number] | undefined;
  /** Runs the monitor's check at `at`. */
  check(at: number): Promise<void>;
  /** Runs the state engine's tick at `at`. */
  tick(at: number): Promise<void>;
}

/**
 * Starts the service on `engine` at T0 before the file's tests and stops it after; the returned
 * object is filled in once they start, so tests read its fields inside `it`.
 */
export function useStatusPageTimeline(engine: string): StatusPageTimeline {
  const dir = makeTempDir();
  let postgres: ThrowawayPostgres | undefined;
  let target: Server | undefined;
  const helpers: Partial<StatusPageTimeline> = {
    nowMs: T0,
    status: 200,
    async data() {
      const response = await t.service.fetch("/status/acme.json");
      expect(response.status).toBe(200);
      return json<StatusPageData>(response);
    },
    component(d, id) {
      const found = d.services.find((s) => s.id === id);
      if (!found) throw new Error(`no component ${id}`);
      return found;
    },
    today: (d, id) => t.component(d, id).history.at(-1),
    async check(at) {
      t.nowMs = at;
      const response = await t.owner.post(
        `/api/projects/${t.projectId}/monitors/${t.monitorId}/run`,
      );
      expect(response.status).toBe(200);
    },
    async tick(at) {
      t.nowMs = at;
      await t.service.deps.statusPages.ticker.runOnce();
    },
  };
  const t = helpers as StatusPageTimeline;
  const clock = { now: () => new Date(t.nowMs) };

  beforeAll(async () => {
    const server = createServer((_req, res) => {
      res.writeHead(t.status, { "content-type": "application/json" });
      res.end("{}");
    });
    target = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    t.targetUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/internal-health`;
    if (engine === "PostgreSQL") postgres = await startThrowawayPostgres(postgresBin ?? "");
    const { service, owner, orgId, projectId } = await startWithRoles(
      dir.path,
      {
        VIGIL_MONITORS_ENABLED: "false",
        VIGIL_ALERTS_ENABLED: "false",
        VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
        ...(postgres
          ? { VIGIL_META_URL: postgres.url, VIGIL_SECRET_KEY: randomBytes(32).toString("base64") }
          : {}),
      },
      { clock, newId: createIdGenerator(() => t.nowMs) },
    );
    Object.assign(t, { service, owner, orgId, projectId });
    t.key = await addKey(service, projectId, { name: "status", role: "read_only" });
    t.monitorId = (
      await json<{ id: string }>(
        await owner.post(`/api/projects/${projectId}/monitors`, {
          name: "Checkout API",
          type: "api",
          frequency: "1m",
          alertAfter: 1,
          steps: [{ url: t.targetUrl }],
        }),
      )
    ).id;
    const base = `/api/orgs/${orgId}/status-pages`;
    t.pageId = (
      await json<{ page: { id: string } }>(
        await owner.post(base, { slug: "acme", title: "Acme status", timezone: "Europe/Paris" }),
      )
    ).page.id;
    const add = async (name: string) => {
      const response = await owner.post(`${base}/${t.pageId}/components`, {
        name,
        monitorIds: [t.monitorId],
      });
      expect(response.status).toBe(201);
      return (await json<{ id: string }>(response)).id;
    };
    t.apiId = await add("API");
    t.webId = await add("Website");
  });

  afterAll(async () => {
    await t.service?.stop();
    await new Promise<void>((resolve) => (target ? target.close(() => resolve()) : resolve()));
    await postgres?.stop();
    dir.remove();
  });
  return t;
}
