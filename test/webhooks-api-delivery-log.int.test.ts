import { beforeAll, describe, expect, it } from "vitest";
import type { TestService } from "./helpers/test-service.js";
import {
  type Client,
  type DeliveryRecord,
  type Endpoint,
  endpointsOf,
  eventually,
  expectServiceHeaders,
  ISO,
  type Problem,
  useWebhookApiSuite,
  verified,
} from "./helpers/webhook-api.js";

// The test action and the delivery log: what each attempt record shows, failures, timeouts
// and the last 50 records (docs/webhooks.md).

describe("webhook management API: test pings and the delivery log", () => {
  const suite = useWebhookApiSuite();
  const { receiver, verifyThen, freshProject, create, deliveries, publish, payloadSchema } = suite;
  let service: TestService;
  let owner: Client;
  beforeAll(() => {
    ({ service, owner } = suite.state());
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

  // Runs last: it scans every response of the suite.
  it("reveals each secret only in its creation response, and never logs one", () => {
    suite.expectSecretsKept(["GET", "PATCH", "POST"]);
  });
});
