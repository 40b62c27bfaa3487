import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createUser } from "../src/auth/users.js";
import { hexId, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn, startTestService, type TestService } from "./helpers/test-service.js";
import {
  type ReceivedRequest,
  type Responder,
  startWebhookReceiver,
  TEST_CA_FILE,
  type WebhookReceiver,
} from "./helpers/webhook-receiver.js";

const OWNER = { email: "hooks-owner@example.com", password: "correct horse battery" };
const VIEWER = { email: "hooks-viewer@example.com", password: "viewer secret 1" };
const OUTSIDER = { email: "hooks-outsider@example.com", password: "outsider secret 1" };

/** Every subscribable event type the spec and docs/design.md name (the registry may add more). */
const EXPECTED_EVENT_TYPES = [
  "test.ping",
  "alert.fired",
  "alert.resolved",
  "incident.created",
  "incident.resolved",
  "monitor.down",
  "monitor.recovered",
  "error.created",
  "error.regressed",
];
const VERIFY_BODY = '{"type":"endpoint.verify"}';
const USER_AGENT = "Vigil-Webhooks/1.0";
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Session = Awaited<ReturnType<typeof signIn>>;
interface Endpoint {
  id: string;
  projectId: string;
  url: string;
  events: string[];
  isActive: boolean;
  status: "enabled" | "disabled";
  createdAt: string;
  updatedAt: string;
}
interface CreatedEndpoint extends Endpoint {
  secret: string;
}
interface DeliveryRecord {
  id: string;
  messageId: string;
  event: string;
  attempt: number;
  status: number;
  durationMs: number;
  success: boolean;
  body: string;
  request: string;
  attemptedAt: string;
  retryAt: string | null;
}
interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  requestId: string;
  errors?: { field: string; message: string }[];
  verification?: { reason: string; status: number; durationMs: number };
}
interface Page<T> {
  data: T[];
  pagination: { page: number; limit: number; total: number; totalPages: number; hasMore: boolean };
}
interface Envelope {
  event: string;
  data: Record<string, unknown>;
  attempt: number;
}
interface EventType {
  type: string;
  description: string;
  emittedBy: string;
  schema: Record<string, unknown>;
  example: unknown;
}
/** One HTTP exchange as a test saw it. */
interface Reply<T> {
  status: number;
  contentType: string;
  body: T;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` answers something other than undefined, or fails after `timeoutMs`. */
async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/**
 * The envelope of a received request once the independent Standard Webhooks implementation
 * verified its signature with the endpoint's secret (it throws otherwise).
 */
function verified<T = Envelope>(request: ReceivedRequest | undefined, secret: string): T {
  if (!request) throw new Error("no such request");
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as T;
}

/** The headers every request to an endpoint carries (docs/design.md §4 Webhooks). */
function expectServiceHeaders(request: ReceivedRequest | undefined, event: string): void {
  expect(request?.method).toBe("POST");
  expect(request?.headers).toMatchObject({
    "x-service-event": event,
    "user-agent": USER_AGENT,
    "content-type": "application/json",
  });
  for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"])
    expect(request?.headers[name], name).toEqual(expect.any(String));
}

/** A 400 problem+json about `url` whose message contains `why`. */
function expectUrlProblem(reply: Reply<Problem>, why: string | RegExp): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(400);
  expect(reply.contentType).toMatch(/^application\/problem\+json/);
  expect(reply.body).toMatchObject({ status: 400, code: "invalid_input" });
  expect(reply.body.errors?.map((e) => e.field)).toEqual(["url"]);
  expect(reply.body.errors?.[0]?.message).toMatch(why);
  expect(reply.body.detail).toMatch(why);
}

/**
 * Starts the real service and signs in an owner, a viewer of the same organization and a user
 * of another organization; every response body is kept so the secret checks can scan them.
 */
async function setUp(dataDir: string, env: Record<string, string>) {
  const service = await startTestService(dataDir, {
    VIGIL_ADMIN_EMAIL: OWNER.email,
    VIGIL_ADMIN_PASSWORD: OWNER.password,
    VIGIL_WEBHOOKS_CA_FILE: TEST_CA_FILE,
    ...env,
  });
  const exchanges: { method: string; path: string; status: number; text: string }[] = [];
  const client = (session: Session) => {
    const call = async <T>(method: string, path: string, sent: Promise<Response>) => {
      const response = await sent;
      const text = await response.text();
      exchanges.push({ method, path, status: response.status, text });
      return {
        status: response.status,
        contentType: response.headers.get("content-type") ?? "",
        body: (text === "" ? undefined : JSON.parse(text)) as T,
      } satisfies Reply<T>;
    };
    return {
      cookie: session.cookie,
      get: <T>(path: string) => call<T>("GET", path, session.get(path)),
      post: <T>(path: string, body?: unknown) => call<T>("POST", path, session.post(path, body)),
      patch: <T>(path: string, body: unknown) => call<T>("PATCH", path, session.patch(path, body)),
      delete: <T>(path: string) => call<T>("DELETE", path, session.delete(path)),
    };
  };
  const owner = client(await signIn(service, OWNER.email, OWNER.password));
  const projects = await owner.get<Page<{ id: string; orgId: string }>>("/api/projects");
  const project = projects.body.data[0];
  if (!project) throw new Error("no project");
  return { service, owner, client, exchanges, projectId: project.id, orgId: project.orgId };
}
type Client = Awaited<ReturnType<typeof setUp>>["owner"];

const endpointsOf = (projectId: string) => `/webhooks/${projectId}/endpoints`;

describe("webhook management API", () => {
  const dir = makeTempDir();
  const receivers: WebhookReceiver[] = [];
  let service: TestService;
  let owner: Client;
  let viewer: Client;
  let outsider: Client;
  let exchanges: Awaited<ReturnType<typeof setUp>>["exchanges"];
  let projectId: string;
  let orgId: string;
  let projects = 0;
  let events = 0;
  /** Every secret a creation revealed. */
  const secrets: string[] = [];
  /** Each failed verification's problem with the `verification.reason` it should carry. */
  const failedVerifications: { reason: string; problem: Problem }[] = [];

  /** A receiver this suite closes at the end. */
  const receiver = async (responder?: Responder) => {
    const started = await startWebhookReceiver(responder);
    receivers.push(started);
    return started;
  };
  /** Answers the verification with 200 and every other request as `answer` says. */
  const verifyThen =
    (answer: ReturnType<Responder>): Responder =>
    (request) =>
      request.headers["x-service-event"] === "endpoint.verify" ? { status: 200 } : answer;
  /** A new project of the owner's organization, so a test's events reach only its endpoints. */
  const freshProject = () => addProjectWithKey(service, orgId, `prj_hooks_${++projects}`);
  const create = async (project: string, url: string, subscribed = ["monitor.down"]) => {
    const reply = await owner.post<CreatedEndpoint>(endpointsOf(project), {
      url,
      events: subscribed,
    });
    if (reply.status !== 201)
      throw new Error(`create: ${reply.status} ${JSON.stringify(reply.body)}`);
    secrets.push(reply.body.secret);
    return reply.body;
  };
  const list = async (project: string) => {
    const reply = await owner.get<Page<Endpoint>>(endpointsOf(project));
    expect(reply.status).toBe(200);
    return reply.body.data;
  };
  const deliveries = async (project: string, endpointId: string, query = "") => {
    const reply = await owner.get<Page<DeliveryRecord>>(
      `${endpointsOf(project)}/${endpointId}/deliveries${query}`,
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body;
  };
  const publish = (project: string, type: string, data: Record<string, unknown> = {}) =>
    service.deps.webhooks.publish({
      id: `evt_test_${++events}`,
      type,
      projectId: project,
      data,
      occurredAt: new Date().toISOString(),
    });
  /** The JSON Schema GET /webhooks/event-types serves for a type, as a validator. */
  const payloadSchema = async (type: string) => {
    const reply = await owner.get<{ data: EventType[] }>("/webhooks/event-types");
    const entry = reply.body.data.find((t) => t.type === type);
    if (!entry) throw new Error(`no event type ${type}`);
    return z.fromJSONSchema(entry.schema as Parameters<typeof z.fromJSONSchema>[0]);
  };

  beforeAll(async () => {
    const set = await setUp(dir.path, {
      VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true",
      // The end-to-end monitor checks a plain-HTTP target on loopback.
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
      // The suite creates and edits more endpoints a minute than a person would.
      VIGIL_WEBHOOKS_WRITES_PER_MINUTE: "1000",
    });
    ({ service, owner, exchanges, projectId, orgId } = set);
    const system = { deps: service.deps.domain, actor: { kind: "system" as const } };
    await createUser({ ctx: system, input: { ...VIEWER, orgId, role: "viewer" } });
    await createUser({ ctx: system, input: { ...OUTSIDER, newOrg: "Elsewhere" } });
    viewer = set.client(await signIn(service, VIEWER.email, VIEWER.password));
    outsider = set.client(await signIn(service, OUTSIDER.email, OUTSIDER.password));
  });
  afterAll(async () => {
    await service?.stop();
    await Promise.all(receivers.map((r) => r.close()));
    dir.remove();
  });

  it("creates an endpoint once its URL answered the signed verification request", async () => {
    const { projectId: project } = await freshProject();
    expect(await list(project)).toEqual([]);
    const hooks = await receiver();
    const started = Date.now();
    const reply = await owner.post<CreatedEndpoint>(endpointsOf(project), {
      url: `${hooks.url}/hook`,
      events: ["monitor.down", "error.created"],
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const created = reply.body;
    secrets.push(created.secret);
    expect(created).toEqual({
      id: expect.stringMatching(/^whe_/),
      projectId: project,
      url: `${hooks.url}/hook`,
      events: ["monitor.down", "error.created"],
      isActive: true,
      status: "enabled",
      createdAt: expect.stringMatching(ISO),
      updatedAt: created.createdAt,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(started - 1000);
    expect(Buffer.from(created.secret.slice("whsec_".length), "base64")).toHaveLength(32);

    // Exactly one verification POST, before saving, signed with the new secret.
    expect(hooks.requests).toHaveLength(1);
    const [verification] = hooks.requests;
    expectServiceHeaders(verification, "endpoint.verify");
    expect(verification?.path).toBe("/hook");
    expect(verification?.body).toBe(VERIFY_BODY);
    expect(verified(verification, created.secret)).toEqual({ type: "endpoint.verify" });

    const { secret: _secret, ...view } = created;
    expect(await list(project)).toEqual([view]);
    expect((await deliveries(project, created.id)).data).toEqual([]);

    // Any 2xx verifies; events subscribed twice are kept once.
    const accepting = await receiver(() => ({ status: 204 }));
    const second = await create(project, `${accepting.url}/other`, [
      "monitor.down",
      "error.created",
      "monitor.down",
    ]);
    expect(second.events).toEqual(["monitor.down", "error.created"]);
    expect(second.secret).not.toBe(created.secret);
    expect(verified(accepting.requests[0], second.secret)).toEqual({ type: "endpoint.verify" });
    expect((await list(project)).map((e) => e.id)).toEqual([created.id, second.id]);
  });

  it("refuses a URL that does not answer the verification with a 2xx, saying why", async () => {
    const { projectId: project } = await freshProject();
    const failing = await receiver(() => ({ status: 500, body: "not today" }));
    const reply = await owner.post<Problem>(endpointsOf(project), {
      url: `${failing.url}/hook`,
      events: ["monitor.down"],
    });
    expectUrlProblem(reply, /verification failed: the endpoint answered HTTP 500/);
    failedVerifications.push({ reason: "status", problem: reply.body });
    expect(failing.requests).toHaveLength(1);
    expectServiceHeaders(failing.requests[0], "endpoint.verify");
    expect(failing.requests[0]?.body).toBe(VERIFY_BODY);

    // A redirect is an answer that is not a 2xx, and it is not followed.
    const target = await receiver();
    const redirecting = await receiver(() => ({
      status: 301,
      headers: { location: `${target.url}/final` },
    }));
    const moved = await owner.post<Problem>(endpointsOf(project), {
      url: `${redirecting.url}/hook`,
      events: ["monitor.down"],
    });
    expectUrlProblem(moved, /HTTP 301.*redirects are not followed/);
    failedVerifications.push({ reason: "status", problem: moved.body });
    expect(redirecting.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);

    const unresolvable = await owner.post<Problem>(endpointsOf(project), {
      url: "https://nonexistent.invalid/hook",
      events: ["monitor.down"],
    });
    expectUrlProblem(unresolvable, /host name could not be resolved/);
    failedVerifications.push({ reason: "dns", problem: unresolvable.body });

    // Nothing was saved.
    expect(await list(project)).toEqual([]);
  });

  it("gives up on a verification answer that takes longer than 8 s", {
    timeout: 20_000,
  }, async () => {
    const { projectId: project } = await freshProject();
    const slow = await receiver(() => ({ status: 200, delayMs: 9_000 }));
    const started = Date.now();
    const reply = await owner.post<Problem>(endpointsOf(project), {
      url: `${slow.url}/hook`,
      events: ["monitor.down"],
    });
    const elapsed = Date.now() - started;
    expectUrlProblem(reply, /did not answer within 8 s/);
    failedVerifications.push({ reason: "timeout", problem: reply.body });
    expect(elapsed).toBeGreaterThanOrEqual(7_500);
    expect(elapsed).toBeLessThan(9_000);
    expect(slow.requests).toHaveLength(1);
    expect(await list(project)).toEqual([]);
  });

  it("rejects invalid input with a 400 naming the field, before sending anything", async () => {
    const { projectId: project } = await freshProject();
    const hooks = await receiver();
    const url = `${hooks.url}/hook`;
    const cases: [body: Record<string, unknown>, field: string, text: RegExp][] = [
      [{ url: url.replace("https:", "http:"), events: ["monitor.down"] }, "url", /https:\/\//],
      [
        { url: url.replace("https://", "https://user:pass@"), events: ["monitor.down"] },
        "url",
        /user name or password/,
      ],
      [{ url: "not a url", events: ["monitor.down"] }, "url", /not a valid URL/],
      [{ events: ["monitor.down"] }, "url", /./],
      [{ url, events: [] }, "events", /at least one/],
      [{ url }, "events", /./],
      [{ url, events: ["monitor.dwn"] }, "events.0", /did you mean 'monitor.down'/],
      [
        { url, events: ["monitor.down", "eror.created"] },
        "events.1",
        /did you mean 'error.created'/,
      ],
      [{ url, events: ["endpoint.verify"] }, "events.0", /cannot be subscribed/],
      [{ url, events: ["monitor.down"], secret: "whsec_mine" }, "secret", /not a known field/],
      [{ url, events: ["monitor.down"], isActive: false }, "isActive", /not a known field/],
    ];
    for (const [body, field, text] of cases) {
      const reply = await owner.post<Problem>(endpointsOf(project), body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.contentType).toMatch(/^application\/problem\+json/);
      expect(
        reply.body.errors?.map((e) => e.field),
        JSON.stringify(reply.body),
      ).toContain(field);
      expect(JSON.stringify(reply.body.errors)).toMatch(text);
    }
    expect(hooks.requests).toHaveLength(0);
    expect(await list(project)).toEqual([]);

    const endpoint = await create(project, url);
    const before = await list(project);
    const path = `${endpointsOf(project)}/${endpoint.id}`;
    const patches: [body: Record<string, unknown>, field: string, text: RegExp][] = [
      [{ isActive: false, secret: "whsec_mine" }, "secret", /not a known field/],
      [{ status: "disabled" }, "status", /not a known field/],
      [{ isActive: "no" }, "isActive", /./],
      [{ url: url.replace("https:", "http:") }, "url", /https:\/\//],
      [{ url: url.replace("https://", "https://u:p@") }, "url", /user name or password/],
      [{ events: [] }, "events", /at least one/],
      [{ events: ["monitor.recoverd"] }, "events.0", /did you mean 'monitor.recovered'/],
      [{ events: ["endpoint.verify"] }, "events.0", /cannot be subscribed/],
    ];
    for (const [body, field, text] of patches) {
      const reply = await owner.patch<Problem>(path, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.contentType).toMatch(/^application\/problem\+json/);
      expect(
        reply.body.errors?.map((e) => e.field),
        JSON.stringify(reply.body),
      ).toContain(field);
      expect(JSON.stringify(reply.body.errors)).toMatch(text);
    }
    // Only the creation's verification reached the receiver; nothing changed.
    expect(hooks.requests).toHaveLength(1);
    expect(await list(project)).toEqual(before);
  });

  it("a disabled endpoint receives nothing until it is enabled again", async () => {
    const { projectId: project } = await freshProject();
    const hooks = await receiver();
    const endpoint = await create(project, `${hooks.url}/hook`);
    const path = `${endpointsOf(project)}/${endpoint.id}`;

    const disabled = await owner.patch<Endpoint>(path, { isActive: false });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect(disabled.body).toMatchObject({
      id: endpoint.id,
      url: endpoint.url,
      events: endpoint.events,
      isActive: false,
      status: "disabled",
      createdAt: endpoint.createdAt,
    });
    expect(Date.parse(disabled.body.updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(endpoint.createdAt),
    );
    expect(await list(project)).toEqual([disabled.body]);

    await publish(project, "monitor.down", { n: 1 });
    await sleep(1_500);
    expect(hooks.requests).toHaveLength(1); // the verification only
    expect((await deliveries(project, endpoint.id)).data).toEqual([]);
    const test = await owner.post<Problem>(`${path}/test`);
    expect(test.status).toBe(409);
    expect(test.contentType).toMatch(/^application\/problem\+json/);
    expect(hooks.requests).toHaveLength(1);

    const enabled = await owner.patch<Endpoint>(path, { isActive: true });
    expect(enabled.body).toMatchObject({ isActive: true, status: "enabled" });
    // Enabling does not verify again: the URL did not change.
    expect(hooks.requests).toHaveLength(1);
    await publish(project, "monitor.down", { n: 2 });
    const [, delivered] = await hooks.waitFor(2);
    expectServiceHeaders(delivered, "monitor.down");
    expect(verified(delivered, endpoint.secret)).toEqual({
      event: "monitor.down",
      data: { n: 2 },
      attempt: 1,
    });
    const log = await eventually("the delivery record", async () => {
      const page = await deliveries(project, endpoint.id);
      return page.data.length > 0 ? page.data : undefined;
    });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      event: "monitor.down",
      attempt: 1,
      status: 200,
      success: true,
      messageId: delivered?.headers["webhook-id"],
      request: delivered?.body,
      retryAt: null,
    });
    await sleep(300);
    expect(hooks.requests).toHaveLength(2);
  });

  it("verifies a changed URL again with the same secret and keeps the old URL when that fails", async () => {
    const { projectId: project } = await freshProject();
    const first = await receiver();
    const endpoint = await create(project, `${first.url}/hook`);
    const path = `${endpointsOf(project)}/${endpoint.id}`;

    const second = await receiver();
    const moved = await owner.patch<Endpoint>(path, { url: `${second.url}/moved` });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ url: `${second.url}/moved`, status: "enabled" });
    expect(second.requests).toHaveLength(1);
    expectServiceHeaders(second.requests[0], "endpoint.verify");
    expect(second.requests[0]?.body).toBe(VERIFY_BODY);
    expect(verified(second.requests[0], endpoint.secret)).toEqual({ type: "endpoint.verify" });

    // A failing new URL: 400, and none of the change is applied.
    const failing = await receiver(() => ({ status: 503 }));
    const refused = await owner.patch<Problem>(path, {
      url: `${failing.url}/broken`,
      isActive: false,
      events: ["error.created"],
    });
    expectUrlProblem(refused, /HTTP 503/);
    failedVerifications.push({ reason: "status", problem: refused.body });
    expect(verified(failing.requests[0], endpoint.secret)).toEqual({ type: "endpoint.verify" });
    expect(failing.requests).toHaveLength(1);
    expect(await list(project)).toEqual([moved.body]);

    // The same URL again is not a change: no verification.
    expect((await owner.patch<Endpoint>(path, { url: `${second.url}/moved` })).status).toBe(200);
    expect(second.requests).toHaveLength(1);

    await publish(project, "monitor.down", { n: 1 });
    const [, delivered] = await second.waitFor(2);
    expect(verified(delivered, endpoint.secret)).toMatchObject({ event: "monitor.down" });
    expect(first.requests).toHaveLength(1);

    // Changing the events: only the new subscription is delivered.
    const changed = await owner.patch<Endpoint>(path, { events: ["error.created"] });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ events: ["error.created"], url: `${second.url}/moved` });
    expect(second.requests).toHaveLength(2);
    await publish(project, "monitor.down", { n: 2 });
    await publish(project, "error.created", { n: 3 });
    const [, , third] = await second.waitFor(3);
    expectServiceHeaders(third, "error.created");
    expect(verified(third, endpoint.secret)).toEqual({
      event: "error.created",
      data: { n: 3 },
      attempt: 1,
    });
    await sleep(500);
    expect(second.requests).toHaveLength(3);
  });

  it("deletes an endpoint with its whole delivery history", async () => {
    const { projectId: project } = await freshProject();
    const hooks = await receiver();
    const endpoint = await create(project, `${hooks.url}/hook`);
    const keep = await create(project, `${hooks.url}/kept`);
    const path = `${endpointsOf(project)}/${endpoint.id}`;
    expect((await owner.post<DeliveryRecord>(`${path}/test`)).status).toBe(200);
    await publish(project, "monitor.down");
    const received = await hooks.waitFor(5); // two verifications, a ping, two deliveries
    for (const request of received) {
      const secret = request.path === "/hook" ? endpoint.secret : keep.secret;
      verified<unknown>(request, secret);
    }
    const repo = service.deps.meta.repos.webhookDeliveries;
    const attempts = await eventually("both attempts recorded", async () => {
      const rows = await repo.listAttempts(endpoint.id, 50);
      return rows.length === 2 ? rows : undefined;
    });

    const removed = await owner.delete<undefined>(path);
    expect(removed.status).toBe(204);
    expect(removed.body).toBeUndefined();
    expect((await owner.delete<Problem>(path)).status).toBe(404);
    expect((await owner.patch<Problem>(path, { isActive: false })).status).toBe(404);
    expect((await owner.post<Problem>(`${path}/test`)).status).toBe(404);
    const gone = await owner.get<Problem>(`${path}/deliveries`);
    expect(gone.status).toBe(404);
    expect(gone.contentType).toMatch(/^application\/problem\+json/);
    expect((await list(project)).map((e) => e.id)).toEqual([keep.id]);

    expect(await repo.listAttempts(endpoint.id, 50)).toEqual([]);
    for (const attempt of attempts) expect(await repo.findById(attempt.deliveryId)).toBeUndefined();
    expect(await service.deps.meta.repos.webhookEndpoints.findById(endpoint.id)).toBeUndefined();
    // The other endpoint keeps its log.
    expect((await deliveries(project, keep.id)).data).toHaveLength(1);
  });

  it("test.ping sends a signed envelope and answers with its delivery record", async () => {
    const { projectId: project } = await freshProject();
    const hooks = await receiver(verifyThen({ status: 200, body: "pong" }));
    const endpoint = await create(project, `${hooks.url}/hook`);
    const started = Date.now();
    const reply = await owner.post<DeliveryRecord>(`${endpointsOf(project)}/${endpoint.id}/test`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const record = reply.body;
    expect(record).toEqual({
      id: expect.any(String),
      messageId: expect.any(String),
      event: "test.ping",
      attempt: 1,
      status: 200,
      durationMs: expect.any(Number),
      success: true,
      body: "pong",
      request: expect.any(String),
      attemptedAt: expect.stringMatching(ISO),
      retryAt: null,
    });
    expect(Number.isInteger(record.durationMs) && record.durationMs >= 0).toBe(true);
    expect(Date.parse(record.attemptedAt)).toBeGreaterThanOrEqual(started - 1000);
    expect(Date.parse(record.attemptedAt)).toBeLessThanOrEqual(Date.now());

    expect(hooks.requests).toHaveLength(2);
    const ping = hooks.requests[1];
    expectServiceHeaders(ping, "test.ping");
    expect(ping?.headers["webhook-id"]).toBe(record.messageId);
    // The record shows the exact body the attempt sent.
    expect(record.request).toBe(ping?.body);
    expect(ping?.headers["webhook-signature"]).toMatch(/^v1,/);
    const timestamp = Number(ping?.headers["webhook-timestamp"]);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(10);
    const envelope = verified(ping, endpoint.secret);
    expect(envelope).toEqual({
      event: "test.ping",
      attempt: 1,
      data: {
        type: "test.ping",
        message: expect.any(String),
        timestamp: expect.stringMatching(ISO),
        projectId: project,
      },
    });
    expect(String(envelope.data.message).length).toBeGreaterThan(0);
    expect((await payloadSchema("test.ping")).safeParse(envelope.data).success).toBe(true);

    // Logged like a real delivery.
    expect((await deliveries(project, endpoint.id)).data).toEqual([record]);
  });

  it("a failed test.ping is logged with the status, the first 500 characters and the retry time", async () => {
    const { projectId: project } = await freshProject();
    const answer = `${"a".repeat(499)}b${"c".repeat(250)}`;
    const hooks = await receiver(verifyThen({ status: 500, body: answer }));
    const endpoint = await create(project, `${hooks.url}/hook`);
    const path = `${endpointsOf(project)}/${endpoint.id}`;
    const reply = await owner.post<DeliveryRecord>(`${path}/test`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const record = reply.body;
    expect(record).toMatchObject({ event: "test.ping", attempt: 1, status: 500, success: false });
    expect(record.body).toBe(answer.slice(0, 500));
    expect(record.body).toHaveLength(500);
    expect(record.retryAt).toEqual(expect.stringMatching(ISO));
    const untilRetry = Date.parse(record.retryAt ?? "") - Date.parse(record.attemptedAt);
    expect(untilRetry).toBeGreaterThanOrEqual(60_000);
    expect(untilRetry).toBeLessThan(62_000);
    expect(verified(hooks.requests[1], endpoint.secret)).toMatchObject({
      event: "test.ping",
      attempt: 1,
    });
    expect((await deliveries(project, endpoint.id)).data).toEqual([record]);

    // A disabled endpoint cannot be tested.
    expect((await owner.patch<Endpoint>(path, { isActive: false })).status).toBe(200);
    const refused = await owner.post<Problem>(`${path}/test`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/disabled/);
    expect(hooks.requests).toHaveLength(2);
  });

  it("logs a delivery that got no answer within 10 s as status 0, timed out", {
    timeout: 30_000,
  }, async () => {
    const { projectId: project } = await freshProject();
    const hooks = await receiver(verifyThen({ status: 200, delayMs: 15_000 }));
    const endpoint = await create(project, `${hooks.url}/hook`);
    const started = Date.now();
    const reply = await owner.post<DeliveryRecord>(`${endpointsOf(project)}/${endpoint.id}/test`);
    const elapsed = Date.now() - started;
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({
      event: "test.ping",
      attempt: 1,
      status: 0,
      success: false,
      body: "timed out after 10s",
      retryAt: expect.stringMatching(ISO),
    });
    expect(reply.body.durationMs).toBeGreaterThanOrEqual(9_500);
    expect(reply.body.durationMs).toBeLessThan(11_500);
    expect(elapsed).toBeGreaterThanOrEqual(9_500);
    expect(elapsed).toBeLessThan(12_000);
    expect(hooks.requests).toHaveLength(2);
    expect(verified(hooks.requests[1], endpoint.secret)).toMatchObject({ event: "test.ping" });
    expect((await deliveries(project, endpoint.id)).data).toEqual([reply.body]);
  });

  it("the delivery log shows the last 50 records, newest first, each body at most 500 characters", async () => {
    const { projectId: project } = await freshProject();
    const hooks = await receiver((request) => ({
      status: 200,
      body: `${request.headers["webhook-id"]} ${"x".repeat(700)}`,
    }));
    const endpoint = await create(project, `${hooks.url}/hook`);
    for (let seq = 0; seq < 60; seq++) await publish(project, "monitor.down", { seq });
    const received = (await hooks.waitFor(61, 20_000)).slice(1);
    const envelopes = received.map((request) => verified(request, endpoint.secret));
    expect(envelopes.map((e) => e.data.seq).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 60 }, (_, i) => i),
    );
    const messageIds = received.map((request) => request.headers["webhook-id"]);
    expect(new Set(messageIds).size).toBe(60);

    const all = await eventually("60 recorded attempts", async () => {
      const rows = await service.deps.meta.repos.webhookDeliveries.listAttempts(endpoint.id, 100);
      return rows.length === 60 ? rows : undefined;
    });
    const page = await deliveries(project, endpoint.id);
    expect(page.data).toHaveLength(50);
    expect(page.pagination.total).toBe(50);
    // The 50 newest of the 60, newest first.
    expect(page.data.map((r) => r.id)).toEqual(all.slice(0, 50).map((a) => a.id));
    const times = page.data.map((r) => Date.parse(r.attemptedAt));
    for (let i = 1; i < times.length; i++)
      expect(times[i - 1] ?? 0).toBeGreaterThanOrEqual(times[i] ?? 0);
    const oldestShown = Math.min(...times);
    for (const left of all.slice(50))
      expect(Date.parse(left.createdAt)).toBeLessThanOrEqual(oldestShown);
    for (const record of page.data) {
      expect(record).toMatchObject({
        event: "monitor.down",
        attempt: 1,
        status: 200,
        success: true,
      });
      expect(messageIds).toContain(record.messageId);
      expect(record.body.length).toBeLessThanOrEqual(500);
      expect(record.body).toBe(`${record.messageId} ${"x".repeat(700)}`.slice(0, 500));
    }
    // No limit shows more than the last 50.
    expect((await deliveries(project, endpoint.id, "?limit=1000")).data).toHaveLength(50);
  });

  it("end to end: a monitor with a webhook channel delivers monitor.down and monitor.recovered", async () => {
    let targetStatus = 500;
    const target: Server = createServer((_request, response) => {
      response.writeHead(targetStatus, { "content-type": "text/plain" });
      response.end(targetStatus === 200 ? "ok" : "down");
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    try {
      const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
      const { projectId: project } = await freshProject();
      const hooks = await receiver();
      const endpoint = await create(project, `${hooks.url}/hook`, [
        "monitor.down",
        "monitor.recovered",
      ]);
      const channel = await owner.post<{ id: string }>(`/api/projects/${project}/channels`, {
        name: "webhooks",
        type: "webhook",
        settings: {},
      });
      expect(channel.status, JSON.stringify(channel.body)).toBe(201);
      const monitors = `/api/projects/${project}/monitors`;
      const monitor = await owner.post<{ id: string }>(monitors, {
        name: "Checkout",
        type: "api",
        frequency: "1h",
        alertAfter: 1,
        channelIds: [channel.body.id],
        steps: [{ url: targetUrl }],
      });
      expect(monitor.status, JSON.stringify(monitor.body)).toBe(201);
      const run = await owner.post<{ passed: boolean }>(`${monitors}/${monitor.body.id}/run`);
      expect(run.status).toBe(200);
      expect(run.body.passed).toBe(false);

      const [, down] = await hooks.waitFor(2, 15_000);
      expectServiceHeaders(down, "monitor.down");
      const downEnvelope = verified(down, endpoint.secret);
      expect(downEnvelope).toMatchObject({
        event: "monitor.down",
        attempt: 1,
        data: { monitorId: monitor.body.id, projectId: project },
      });
      const current = await owner.get<{ openIncidentId: string | null }>(
        `${monitors}/${monitor.body.id}`,
      );
      expect(current.body.openIncidentId).toEqual(expect.any(String));
      expect(downEnvelope.data.incidentId).toBe(current.body.openIncidentId);
      expect((await payloadSchema("monitor.down")).safeParse(downEnvelope.data).success).toBe(true);

      targetStatus = 200;
      const passed = await owner.post<{ passed: boolean }>(`${monitors}/${monitor.body.id}/run`);
      expect(passed.body.passed).toBe(true);
      const [, , recovered] = await hooks.waitFor(3, 15_000);
      expectServiceHeaders(recovered, "monitor.recovered");
      const upEnvelope = verified(recovered, endpoint.secret);
      expect(upEnvelope).toMatchObject({
        event: "monitor.recovered",
        data: { monitorId: monitor.body.id, incidentId: downEnvelope.data.incidentId },
      });
      const ended = upEnvelope.data.incident as { resolvedAt: string; endedAt: string };
      expect(ended.resolvedAt).toMatch(ISO);
      expect(ended.endedAt).toBe(ended.resolvedAt);
      expect((await payloadSchema("monitor.recovered")).safeParse(upEnvelope.data).success).toBe(
        true,
      );
      // One alert per outage.
      await sleep(300);
      expect(hooks.requests.map((r) => r.headers["x-service-event"])).toEqual([
        "endpoint.verify",
        "monitor.down",
        "monitor.recovered",
      ]);
    } finally {
      await new Promise((resolve) => target.close(resolve));
    }
  });

  it("end to end: an exception ingested over OTLP delivers error.created", async () => {
    const { projectId: project, key } = await freshProject();
    const hooks = await receiver();
    const endpoint = await create(project, `${hooks.url}/hook`, ["error.created"]);
    const now = Date.now();
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("checkout", [
        {
          traceId: hexId(0xabc, 32),
          spanId: hexId(0xabc, 16),
          name: "POST /checkout",
          startMs: now,
          durationMs: 5,
          error: true,
          events: [
            {
              name: "exception",
              timeMs: now + 1,
              attributes: {
                "exception.type": "WebhookProbeError",
                "exception.message": "card declined",
                "exception.stacktrace":
                  "WebhookProbeError: card declined\n    at charge (/srv/app/src/pay.ts:7:3)",
              },
            },
          ],
        },
      ]),
    );
    const [, delivered] = await hooks.waitFor(2, 20_000);
    expectServiceHeaders(delivered, "error.created");
    const envelope = verified(delivered, endpoint.secret);
    expect(envelope).toMatchObject({
      event: "error.created",
      attempt: 1,
      data: {
        projectId: project,
        exceptionType: "WebhookProbeError",
        message: "card declined",
        status: "active",
        occurrenceCount: 1,
        services: ["checkout"],
      },
    });
    expect((await payloadSchema("error.created")).safeParse(envelope.data).success).toBe(true);
    // The errorId is the one /v1/errors/:errorId takes.
    const error = await service.fetch(`/v1/errors/${String(envelope.data.errorId)}`, {
      headers: { "x-api-key": key },
    });
    expect(error.status).toBe(200);
  });

  it("GET /webhooks/event-types lists every type with a JSON Schema and an example valid for it", async () => {
    const reply = await owner.get<{ data: EventType[] }>("/webhooks/event-types");
    expect(reply.status).toBe(200);
    const types = reply.body.data.map((t) => t.type);
    expect(types).toEqual(expect.arrayContaining(EXPECTED_EVENT_TYPES));
    expect(types).not.toContain("endpoint.verify");
    expect(new Set(types).size).toBe(types.length);
    for (const entry of reply.body.data) {
      expect(entry.description, entry.type).toEqual(expect.any(String));
      expect(entry.emittedBy, entry.type).toEqual(expect.any(String));
      expect(entry.schema, entry.type).toMatchObject({ type: "object" });
      const schema = z.fromJSONSchema(entry.schema as Parameters<typeof z.fromJSONSchema>[0]);
      const parsed = schema.safeParse(entry.example);
      expect(parsed.success, `${entry.type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      // The schema has teeth: an empty payload is not valid.
      expect(schema.safeParse({}).success, entry.type).toBe(false);
    }
    expect(reply.body.data.find((t) => t.type === "alert.fired")?.schema.properties).toHaveProperty(
      "ruleId",
    );
    expect(
      reply.body.data.find((t) => t.type === "incident.resolved")?.schema.properties,
    ).toHaveProperty("incidentId");
    // Every listed type can be subscribed to.
    const { projectId: project } = await freshProject();
    const hooks = await receiver();
    const endpoint = await create(project, `${hooks.url}/all`, types);
    expect(endpoint.events).toEqual(types);
  });

  it("caps a project at 20 endpoints (409 before any verification)", async () => {
    const { projectId: project } = await freshProject();
    const hooks = await receiver();
    for (let i = 0; i < 20; i++) await create(project, `${hooks.url}/n${i}`);
    const refused = await owner.post<Problem>(endpointsOf(project), {
      url: `${hooks.url}/one-too-many`,
      events: ["monitor.down"],
    });
    expect(refused.status).toBe(409);
    expect(refused.contentType).toMatch(/^application\/problem\+json/);
    expect(hooks.requests).toHaveLength(20);
    expect(await list(project)).toHaveLength(20);
  });

  it("needs a session; a viewer reads but cannot change; another organization sees nothing", async () => {
    const hooks = await receiver();
    const endpoint = await create(projectId, `${hooks.url}/guarded`);
    const base = endpointsOf(projectId);
    const path = `${base}/${endpoint.id}`;
    const body = { url: `${hooks.url}/new`, events: ["monitor.down"] };
    const before = await list(projectId);

    // No session.
    const anonymous = (method: string, target: string, sent?: unknown) =>
      service.fetch(target, {
        method,
        ...(sent === undefined
          ? {}
          : { headers: { "content-type": "application/json" }, body: JSON.stringify(sent) }),
      });
    for (const [method, target, sent] of [
      ["GET", "/webhooks/event-types"],
      ["GET", base],
      ["POST", base, body],
      ["PATCH", path, { isActive: false }],
      ["DELETE", path],
      ["POST", `${path}/test`, {}],
      ["GET", `${path}/deliveries`],
    ] as [string, string, unknown?][]) {
      const response = await anonymous(method, target, sent);
      expect(response.status, `${method} ${target}`).toBe(401);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    }

    // A viewer reads, never writes.
    const viewed = await viewer.get<Page<Endpoint>>(base);
    expect(viewed.status).toBe(200);
    expect(viewed.body.data).toEqual(before);
    expect((await viewer.get<Page<DeliveryRecord>>(`${path}/deliveries`)).status).toBe(200);
    expect((await viewer.get<{ data: EventType[] }>("/webhooks/event-types")).status).toBe(200);
    expect((await viewer.post<Problem>(base, body)).status).toBe(403);
    expect((await viewer.patch<Problem>(path, { isActive: false })).status).toBe(403);
    expect((await viewer.delete<Problem>(path)).status).toBe(403);
    expect((await viewer.post<Problem>(`${path}/test`)).status).toBe(403);

    // Another organization: the project does not exist for it.
    for (const target of [base, `${path}/deliveries`])
      expect((await outsider.get<Problem>(target)).status, target).toBe(404);
    expect((await outsider.post<Problem>(base, body)).status).toBe(404);
    expect((await outsider.patch<Problem>(path, { isActive: false })).status).toBe(404);
    expect((await outsider.delete<Problem>(path)).status).toBe(404);
    expect((await outsider.post<Problem>(`${path}/test`)).status).toBe(404);

    // Another project of the same organization does not reach this endpoint.
    const { projectId: other } = await freshProject();
    const elsewhere = `${endpointsOf(other)}/${endpoint.id}`;
    expect((await owner.get<Problem>(`${elsewhere}/deliveries`)).status).toBe(404);
    expect((await owner.patch<Problem>(elsewhere, { isActive: false })).status).toBe(404);
    expect((await owner.post<Problem>(`${elsewhere}/test`)).status).toBe(404);
    expect((await owner.delete<Problem>(elsewhere)).status).toBe(404);

    // Cookie writes need a same-origin Origin (CSRF).
    const forged = (method: string, target: string, sent: unknown, origin?: string) =>
      service.fetch(target, {
        method,
        headers: {
          cookie: owner.cookie,
          "content-type": "application/json",
          ...(origin === undefined ? {} : { origin }),
        },
        body: JSON.stringify(sent),
      });
    for (const origin of ["https://evil.example", undefined]) {
      expect((await forged("POST", base, body, origin)).status, String(origin)).toBe(403);
      expect((await forged("PATCH", path, { isActive: false }, origin)).status).toBe(403);
      expect((await forged("POST", `${path}/test`, {}, origin)).status).toBe(403);
      expect((await forged("DELETE", path, {}, origin)).status).toBe(403);
    }

    // None of it changed anything or reached the receiver beyond the creation's verification.
    expect(await list(projectId)).toEqual(before);
    expect(hooks.requests).toHaveLength(1);
    expect((await deliveries(projectId, endpoint.id)).data).toEqual([]);
  });

  it("the OpenAPI document describes the /webhooks paths", async () => {
    const doc = (await (await service.fetch("/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const expected: Record<string, string[]> = {
      "/webhooks/event-types": ["get"],
      "/webhooks/{projectId}/endpoints": ["get", "post"],
      "/webhooks/{projectId}/endpoints/{endpointId}": ["patch", "delete"],
      "/webhooks/{projectId}/endpoints/{endpointId}/test": ["post"],
      "/webhooks/{projectId}/endpoints/{endpointId}/deliveries": ["get"],
    };
    for (const [path, methods] of Object.entries(expected)) {
      expect(doc.paths[path], path).toBeDefined();
      for (const method of methods)
        expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
  });

  // Runs last: it scans every response of the suite.
  it("reveals each secret only in its creation response, and never logs one", () => {
    expect(secrets.length).toBeGreaterThan(10);
    for (const secret of secrets) {
      const encoded = secret.slice("whsec_".length);
      const revealing = exchanges.filter((e) => e.text.includes(encoded));
      expect(revealing.map((e) => `${e.method} ${e.status}`)).toEqual(["POST 201"]);
      expect(service.logs.some((line) => line.includes(encoded))).toBe(false);
    }
    // Lists, patches, tests and logs were all seen, so the scan covered them.
    const seen = new Set(exchanges.map((e) => e.method));
    expect([...seen].sort()).toEqual(["DELETE", "GET", "PATCH", "POST"]);
  });

  it("a failed verification's problem carries verification.reason", () => {
    expect(failedVerifications.length).toBeGreaterThanOrEqual(4);
    for (const { reason, problem } of failedVerifications)
      expect(problem.verification, problem.detail).toMatchObject({
        reason,
        durationMs: expect.any(Number),
      });
  });
});

// A second service, started after the first one stopped (chDB allows one data directory per
// process), with the SSRF guard on as it is by default.
describe("webhook verification with the SSRF guard on", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Client;
  let projectId: string;
  let hooks: WebhookReceiver;
  const blocked: Problem[] = [];

  beforeAll(async () => {
    hooks = await startWebhookReceiver();
    ({ service, owner, projectId } = await setUp(dir.path, {
      VIGIL_WEBHOOKS_WRITES_PER_MINUTE: "6",
    }));
  });
  afterAll(async () => {
    await service?.stop();
    await hooks?.close();
    dir.remove();
  });

  it("refuses loopback, private and link-local URLs without sending them anything", async () => {
    const base = endpointsOf(projectId);
    for (const url of [
      `https://127.0.0.1:${hooks.port}/hook`,
      `https://localhost:${hooks.port}/hook`,
      `https://[::1]:${hooks.port}/hook`,
      "https://10.0.0.1/hook",
      "https://169.254.169.254/latest/meta-data",
    ]) {
      const reply = await owner.post<Problem>(base, { url, events: ["monitor.down"] });
      expectUrlProblem(reply, /private, loopback or reserved address/);
      blocked.push(reply.body);
    }
    expect(hooks.requests).toHaveLength(0);
    expect((await owner.get<Page<Endpoint>>(base)).body.data).toEqual([]);
  });

  it("a blocked URL's problem carries verification.reason blocked_address and names the setting", () => {
    expect(blocked.length).toBe(5);
    for (const problem of blocked) {
      expect(problem.verification?.reason, problem.detail).toBe("blocked_address");
      // The problem says how to allow private targets.
      expect(problem.detail).toMatch(/set VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS=true/);
    }
  });

  it("limits the writes that make the server POST, per user (VIGIL_WEBHOOKS_WRITES_PER_MINUTE)", async () => {
    // Five blocked creations above, one more is allowed, then 429 with Retry-After.
    const base = endpointsOf(projectId);
    const body = { url: "https://10.0.0.2/hook", events: ["monitor.down"] };
    expect((await owner.post<Problem>(base, body)).status).toBe(400);
    const limited = await owner.post<Problem>(base, body);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("rate_limited");
    // One budget for creations, edits and tests alike.
    expect((await owner.post<Problem>(`${base}/whe_none/test`, {})).status).toBe(429);
    expect((await owner.patch<Problem>(`${base}/whe_none`, { isActive: false })).status).toBe(429);
    // Reads are not limited.
    expect((await owner.get<Page<Endpoint>>(base)).status).toBe(200);
  });
});
