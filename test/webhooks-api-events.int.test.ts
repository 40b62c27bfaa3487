import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { hexId, sendOtlp, tracesBody } from "./helpers/otlp.js";
import type { TestService } from "./helpers/test-service.js";
import {
  type Client,
  type EventType,
  EXPECTED_EVENT_TYPES,
  expectServiceHeaders,
  ISO,
  sleep,
  useWebhookApiSuite,
  verified,
} from "./helpers/webhook-api.js";

// Events from the domains that emit them, end to end: a monitor's outage, an ingested
// exception, and the event types the API lists (docs/webhooks.md).

describe("webhook management API: events end to end", () => {
  const suite = useWebhookApiSuite();
  const { receiver, freshProject, create, payloadSchema } = suite;
  let service: TestService;
  let owner: Client;
  beforeAll(() => {
    ({ service, owner } = suite.state());
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

  // Runs last: it scans every response of the suite.
  it("reveals each secret only in its creation response, and never logs one", () => {
    suite.expectSecretsKept(["GET", "POST"]);
  });
});
