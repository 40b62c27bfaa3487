import { beforeAll, describe, expect, it } from "vitest";
import type { TestService } from "./helpers/test-service.js";
import {
  type Client,
  type DeliveryRecord,
  type Endpoint,
  type EventType,
  endpointsOf,
  eventually,
  expectServiceHeaders,
  type Page,
  type Problem,
  sleep,
  useWebhookApiSuite,
  verified,
} from "./helpers/webhook-api.js";

// An endpoint's life after creation (disabled, deleted, the per-project cap) and who may
// read or change it; the OpenAPI document's /webhooks paths (docs/webhooks.md).

describe("webhook management API: endpoints and access", () => {
  const suite = useWebhookApiSuite();
  const { receiver, freshProject, create, list, deliveries, publish } = suite;
  let service: TestService;
  let owner: Client;
  let viewer: Client;
  let outsider: Client;
  let projectId: string;
  beforeAll(() => {
    ({ service, owner, viewer, outsider, projectId } = suite.state());
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
    suite.expectSecretsKept(["DELETE", "GET", "PATCH", "POST"]);
  });
});
