import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn, startTestService, type TestService } from "./helpers/test-service.js";
import {
  startWebhookReceiver,
  TEST_CA_FILE,
  type WebhookReceiver,
} from "./helpers/webhook-receiver.js";

const OWNER = { email: "hooks-owner@example.com", password: "correct horse battery" };

describe("webhooks smoke", () => {
  const dir = makeTempDir();
  let service: TestService;
  let receiver: WebhookReceiver;
  let owner: Awaited<ReturnType<typeof signIn>>;
  let projectId: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    service = await startTestService(dir.path, {
      VIGIL_ADMIN_EMAIL: OWNER.email,
      VIGIL_ADMIN_PASSWORD: OWNER.password,
      VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true",
      VIGIL_WEBHOOKS_CA_FILE: TEST_CA_FILE,
    });
    owner = await signIn(service, OWNER.email, OWNER.password);
    const projects = (await (await owner.get("/api/projects")).json()) as {
      data: { id: string }[];
    };
    projectId = projects.data[0]?.id ?? "";
  });
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    dir.remove();
  });

  it("creates, verifies, pings and logs", async () => {
    const created = await owner.post(`/webhooks/${projectId}/endpoints`, {
      url: `${receiver.url}/hook`,
      events: ["monitor.down", "error.created"],
    });
    const endpoint = (await created.json()) as { id: string; secret: string };
    expect(created.status, JSON.stringify(endpoint)).toBe(201);
    expect(receiver.requests[0]?.body).toBe('{"type":"endpoint.verify"}');
    const ping = await owner.post(`/webhooks/${projectId}/endpoints/${endpoint.id}/test`);
    const record = (await ping.json()) as { success: boolean; status: number };
    expect(ping.status, JSON.stringify(record)).toBe(200);
    expect(record).toMatchObject({ success: true, status: 200, attempt: 1 });
    const delivered = receiver.requests[1];
    if (!delivered) throw new Error("no ping");
    const wh = new Webhook(endpoint.secret);
    const payload = wh.verify(delivered.body, delivered.headers as Record<string, string>);
    expect(payload).toMatchObject({
      event: "test.ping",
      attempt: 1,
      data: { type: "test.ping", projectId },
    });
    const log = (await (
      await owner.get(`/webhooks/${projectId}/endpoints/${endpoint.id}/deliveries`)
    ).json()) as { data: unknown[] };
    expect(log.data).toHaveLength(1);
    const types = (await (await owner.get("/webhooks/event-types")).json()) as {
      data: { type: string }[];
    };
    expect(types.data.map((t) => t.type)).toContain("monitor.down");
    // a published event reaches it through the deliverer
    await service.deps.webhooks.publish({
      id: "evt_1",
      type: "monitor.down",
      projectId,
      data: { x: 1 },
      occurredAt: new Date().toISOString(),
    });
    const all = await receiver.waitFor(3);
    const third = all[2];
    if (!third) throw new Error("none");
    expect(wh.verify(third.body, third.headers as Record<string, string>)).toMatchObject({
      event: "monitor.down",
    });
  });
});
