import { systemCtx } from "../../src/context.js";
import { initialize } from "../../src/setup/initialize.js";
import { type LogSpec, logsBody, sendOtlp } from "./otlp.js";
import { addProjectWithKey } from "./projects.js";
import { startTestService, type TestService } from "./test-service.js";

export const NOW = Date.now();
export const MIN = 60_000;

interface Fixture extends LogSpec {
  service: string;
  resource: Record<string, string>;
}

const API_1 = { "service.instance.id": "api-1", "host.name": "h1" };
const API_2 = { "service.instance.id": "api-2", "host.name": "h1" };
const WEB = { "host.name": "w1" };
const FRONTEND = { "vigil.source": "frontend" };

const at = (minutesAgo: number) => NOW - minutesAgo * MIN;

/**
 * Project A's records by name: two instances of `api` (same host), `web` (a host only, logged
 * from the browser) and `worker` (neither); times are minutes before the test started.
 */
export const RECORDS = {
  a1: {
    service: "api",
    resource: API_1,
    timeMs: at(50),
    severityNumber: 9,
    body: "GET /users answered 200",
    attributes: { "http.route": "/users", tier: "free" },
  },
  b1: {
    service: "api",
    resource: API_2,
    timeMs: at(45),
    severityNumber: 9,
    body: "GET /users answered 200 again",
    attributes: { "http.route": "/users" },
  },
  a2: {
    service: "api",
    resource: API_1,
    timeMs: at(40),
    severityNumber: 13,
    body: "slow GET /users",
    attributes: { "http.route": "/users", tier: "pro" },
  },
  w1: {
    service: "web",
    resource: WEB,
    timeMs: at(35),
    severityNumber: 9,
    body: "page view /checkout",
    attributes: { ...FRONTEND, page: "/checkout" },
  },
  a3: {
    service: "api",
    resource: API_1,
    timeMs: at(30),
    severityNumber: 17,
    body: "Payment FAILED for order 42",
    attributes: { "http.route": "/pay", tier: "pro" },
  },
  b2: {
    service: "api",
    resource: API_2,
    timeMs: at(25),
    severityNumber: 17,
    body: "payment failed for order 44",
    attributes: { "http.route": "/pay" },
  },
  a4: {
    service: "api",
    resource: API_1,
    timeMs: at(20),
    severityNumber: 9,
    body: "payment ok for order 43",
    attributes: { "http.route": "/pay", tier: "free" },
  },
  w2: {
    service: "web",
    resource: WEB,
    timeMs: at(15),
    severityNumber: 17,
    body: "payment button <b>failed</b>",
    attributes: FRONTEND,
  },
  k1: { service: "worker", resource: {}, timeMs: at(10), severityNumber: 5, body: "job started" },
  k2: { service: "worker", resource: {}, timeMs: at(5), severityNumber: 9, body: "job done" },
} satisfies Record<string, Fixture>;
export type RecordName = keyof typeof RECORDS;

export interface LogItem {
  id: string;
  message: string;
  current?: boolean;
}

/** A service with RECORDS in project A, one record in project B, and a reader for both. */
export async function startLogExplore(dataDir: string) {
  const service: TestService = await startTestService(dataDir);
  const setup = await initialize({
    ctx: systemCtx(service.deps.domain),
    input: { email: "explore@example.com", password: "correct horse battery" },
  });
  const key = setup.apiKey ?? "";
  const otherKey = (await addProjectWithKey(service, setup.orgId, "prj_other_explore")).key;
  for (const record of Object.values(RECORDS) as Fixture[])
    await sendOtlp(service, key, "logs", logsBody(record.service, [record], record.resource));
  await sendOtlp(
    service,
    otherKey,
    "logs",
    logsBody(
      "api",
      [
        {
          timeMs: at(12),
          severityNumber: 17,
          body: "payment failed elsewhere",
          attributes: { "http.route": "/pay" },
        },
      ],
      API_1,
    ),
  );
  const get = async <T = Record<string, unknown>>(path: string, apiKey = key) => {
    const response = await service.fetch(path, { headers: { "x-api-key": apiKey } });
    return {
      status: response.status,
      body: (await response.json()) as T & { errors?: { field: string }[] },
    };
  };
  const all = await get<{ data: LogItem[] }>("/v1/logs?limit=1000");
  const nameOf = new Map<string, RecordName>();
  const idOf = {} as Record<RecordName, string>;
  for (const item of all.body.data) {
    const name = (Object.keys(RECORDS) as RecordName[]).find(
      (n) => RECORDS[n].body === item.message,
    );
    if (name) {
      nameOf.set(item.id, name);
      idOf[name] = item.id;
    }
  }
  return {
    service,
    key,
    otherKey,
    get,
    idOf,
    /** Fixture names of items (`foreign:<message>` for anything else). */
    names: (items: LogItem[]) => items.map((i) => nameOf.get(i.id) ?? `foreign:${i.message}`),
    /** The fields a 400 names. */
    async badFields(path: string) {
      const { status, body } = await get(path);
      if (status !== 400) throw new Error(`${path}: ${status} ${JSON.stringify(body)}`);
      return body.errors?.map((e) => e.field);
    },
  };
}

/** `filters=` for a query string. */
export const filtersParam = (filters: unknown[]) =>
  `filters=${encodeURIComponent(JSON.stringify(filters))}`;
