import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, expect } from "vitest";
import { z } from "zod";
import { createUser } from "../../src/auth/users.js";
import type {
  CreatedWebhookEndpointView,
  WebhookDeliveryRecordView,
  WebhookEndpointView,
  WebhookEventTypeView,
} from "../../src/contracts/webhooks.js";
import { addProjectWithKey } from "./projects.js";
import { makeTempDir } from "./temp-dir.js";
import { signIn, startTestService, type TestService } from "./test-service.js";
import {
  type ReceivedRequest,
  type Responder,
  startWebhookReceiver,
  TEST_CA_FILE,
  type WebhookReceiver,
} from "./webhook-receiver.js";

// The real service with signed-in clients of the webhook management API (/webhooks/…): the
// fixture of the webhooks-api-*.int.test.ts files.

export const OWNER = { email: "hooks-owner@example.com", password: "correct horse battery" };
export const VIEWER = { email: "hooks-viewer@example.com", password: "viewer secret 1" };
export const OUTSIDER = { email: "hooks-outsider@example.com", password: "outsider secret 1" };

/** Every subscribable event type the spec and docs/design.md name (the registry may add more). */
export const EXPECTED_EVENT_TYPES = [
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
export const VERIFY_BODY = '{"type":"endpoint.verify"}';
export const USER_AGENT = "Vigil-Webhooks/1.0";
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Session = Awaited<ReturnType<typeof signIn>>;
export type Endpoint = WebhookEndpointView;
export type CreatedEndpoint = CreatedWebhookEndpointView;
export type DeliveryRecord = WebhookDeliveryRecordView;
export type EventType = WebhookEventTypeView;
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  requestId: string;
  errors?: { field: string; message: string }[];
  verification?: { reason: string; status: number; durationMs: number };
}
export interface Page<T> {
  data: T[];
  pagination: { page: number; limit: number; total: number; totalPages: number; hasMore: boolean };
}
export interface Envelope {
  event: string;
  data: Record<string, unknown>;
  attempt: number;
}
/** One HTTP exchange as a test saw it. */
export interface Reply<T> {
  status: number;
  contentType: string;
  body: T;
}
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` answers something other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
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
export function verified<T = Envelope>(request: ReceivedRequest | undefined, secret: string): T {
  if (!request) throw new Error("no such request");
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as T;
}

/** The headers every request to an endpoint carries (docs/design.md §4 Webhooks). */
export function expectServiceHeaders(request: ReceivedRequest | undefined, event: string): void {
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
export function expectUrlProblem(reply: Reply<Problem>, why: string | RegExp): void {
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
export async function setUp(dataDir: string, env: Record<string, string>) {
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
export type Client = Awaited<ReturnType<typeof setUp>>["owner"];

export const endpointsOf = (projectId: string) => `/webhooks/${projectId}/endpoints`;

/** The API suite's state, set once its service started. */
export interface WebhookApiState {
  service: TestService;
  owner: Client;
  viewer: Client;
  outsider: Client;
  /** Every response body any client received, for the secret scans. */
  exchanges: Awaited<ReturnType<typeof setUp>>["exchanges"];
  projectId: string;
  orgId: string;
}

/**
 * Registers the hooks of a webhook API suite: the real service (private targets allowed, the
 * test CA trusted), an owner, a viewer of the same organization and a user of another, and the
 * receivers it started, closed at the end. Read `state()` in a `beforeAll` registered after it.
 */
export function useWebhookApiSuite() {
  const dir = makeTempDir();
  const receivers: WebhookReceiver[] = [];
  let state: WebhookApiState | undefined;
  let projects = 0;
  let events = 0;
  /** Every secret a creation revealed. */
  const secrets: string[] = [];
  /** Each failed verification's problem with the `verification.reason` it should carry. */
  const failedVerifications: { reason: string; problem: Problem }[] = [];
  const current = (): WebhookApiState => {
    if (!state) throw new Error("the webhook API suite has not started");
    return state;
  };

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
  const freshProject = () =>
    addProjectWithKey(current().service, current().orgId, `prj_hooks_${++projects}`);
  const create = async (project: string, url: string, subscribed = ["monitor.down"]) => {
    const reply = await current().owner.post<CreatedEndpoint>(endpointsOf(project), {
      url,
      events: subscribed,
    });
    if (reply.status !== 201)
      throw new Error(`create: ${reply.status} ${JSON.stringify(reply.body)}`);
    secrets.push(reply.body.secret);
    return reply.body;
  };
  const list = async (project: string) => {
    const reply = await current().owner.get<Page<Endpoint>>(endpointsOf(project));
    expect(reply.status).toBe(200);
    return reply.body.data;
  };
  const deliveries = async (project: string, endpointId: string, query = "") => {
    const reply = await current().owner.get<Page<DeliveryRecord>>(
      `${endpointsOf(project)}/${endpointId}/deliveries${query}`,
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body;
  };
  const publish = (project: string, type: string, data: Record<string, unknown> = {}) =>
    current().service.deps.webhooks.publish({
      id: `evt_test_${++events}`,
      type,
      projectId: project,
      data,
      occurredAt: new Date().toISOString(),
    });
  /** The JSON Schema GET /webhooks/event-types serves for a type, as a validator. */
  const payloadSchema = async (type: string) => {
    const reply = await current().owner.get<{ data: EventType[] }>("/webhooks/event-types");
    const entry = reply.body.data.find((t) => t.type === type);
    if (!entry) throw new Error(`no event type ${type}`);
    return z.fromJSONSchema(entry.schema as Parameters<typeof z.fromJSONSchema>[0]);
  };
  /**
   * Each secret the suite's creations revealed appears in its creation response only and in no
   * log line; `methods` are those the suite's exchanges used, so the scan covered them.
   */
  const expectSecretsKept = (methods: string[]) => {
    const { exchanges, service } = current();
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      const encoded = secret.slice("whsec_".length);
      const revealing = exchanges.filter((e) => e.text.includes(encoded));
      expect(revealing.map((e) => `${e.method} ${e.status}`)).toEqual(["POST 201"]);
      expect(service.logs.some((line) => line.includes(encoded))).toBe(false);
    }
    const seen = new Set(exchanges.map((e) => e.method));
    expect([...seen].sort()).toEqual([...methods].sort());
  };

  beforeAll(async () => {
    const set = await setUp(dir.path, {
      VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true",
      // The end-to-end monitor checks a plain-HTTP target on loopback.
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
      // The suite creates and edits more endpoints a minute than a person would.
      VIGIL_WEBHOOKS_WRITES_PER_MINUTE: "1000",
    });
    const { service, orgId } = set;
    const system = { deps: service.deps.domain, actor: { kind: "system" as const } };
    await createUser({ ctx: system, input: { ...VIEWER, orgId, role: "viewer" } });
    await createUser({ ctx: system, input: { ...OUTSIDER, newOrg: "Elsewhere" } });
    state = {
      service,
      owner: set.owner,
      viewer: set.client(await signIn(service, VIEWER.email, VIEWER.password)),
      outsider: set.client(await signIn(service, OUTSIDER.email, OUTSIDER.password)),
      exchanges: set.exchanges,
      projectId: set.projectId,
      orgId,
    };
  });
  afterAll(async () => {
    await state?.service.stop();
    await Promise.all(receivers.map((r) => r.close()));
    dir.remove();
  });

  return {
    state: current,
    receiver,
    verifyThen,
    freshProject,
    create,
    list,
    deliveries,
    publish,
    payloadSchema,
    secrets,
    failedVerifications,
    expectSecretsKept,
  };
}
