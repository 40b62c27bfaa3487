import type { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../src/auth/users.js";
import { createIncident, type Incident, json, type Problem } from "./helpers/incidents-api.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";
import {
  addReceiverEndpoint,
  startWebhookReceiver,
  TEST_CA_FILE,
  type WebhookReceiver,
} from "./helpers/webhook-receiver.js";

interface Envelope {
  event: string;
  data: Record<string, unknown>;
}

/** Acknowledge, assign and severity change over the API: timeline entries and webhook events. */
describe("incident response API", () => {
  const dir = makeTempDir();
  let service: TestService;
  let receiver: WebhookReceiver;
  let owner: Session;
  let viewer: Session;
  let ownerId: string;
  let viewerId: string;
  let outsiderId: string;
  let memberId: string;
  let projectId: string;
  let webhook: Webhook;
  const base = () => `/api/projects/${projectId}/incidents`;

  /** The verified envelopes received so far, once `count` arrived. */
  const envelopes = async (count: number): Promise<Envelope[]> => {
    const requests = await receiver.waitFor(count);
    return requests.map(
      (r) => webhook.verify(r.body, r.headers as Record<string, string>) as Envelope,
    );
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    let orgId: string;
    ({ service, owner, viewer, projectId, ownerId, orgId } = await startWithRoles(dir.path, {
      VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true",
      VIGIL_WEBHOOKS_CA_FILE: TEST_CA_FILE,
      VIGIL_ALERTS_ENABLED: "false",
    }));
    const { users } = service.deps.meta.repos;
    viewerId = (await users.findByEmail("viewer@example.com"))?.id ?? "";
    outsiderId = (await users.findByEmail("outsider@example.com"))?.id ?? "";
    const ctx = { deps: service.deps.domain, actor: { kind: "system" as const } };
    memberId = (
      await createUser({
        ctx,
        input: {
          email: "ada@example.com",
          password: "ada secret 12",
          name: "Ada Ops",
          orgId,
          role: "member",
        },
      })
    ).user.id;
    webhook = await addReceiverEndpoint(service, {
      id: "whe_response",
      projectId,
      url: `${receiver.url}/response`,
      events: ["incident.acknowledged", "incident.assigned", "incident.severity_changed"],
    });
  });
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    dir.remove();
  });

  it("acknowledges once (again: the same state), on the timeline and as incident.acknowledged", async () => {
    const opened = await createIncident(owner, base(), { title: "Queue stuck", severity: "high" });
    expect(opened).toMatchObject({ acknowledgedAt: null, acknowledgedBy: null, assigneeId: null });
    const path = `${base()}/${opened.id}`;
    // Viewers only read.
    expect((await viewer.post(`${path}/acknowledge`)).status).toBe(403);
    const response = await owner.post(`${path}/acknowledge`, { message: "On it" });
    expect(response.status).toBe(200);
    const acked = await json<Incident>(response);
    expect(acked.acknowledgedAt).not.toBeNull();
    expect(acked.acknowledgedBy).toEqual({ kind: "user", id: ownerId, label: expect.any(String) });
    expect(acked.timeline.at(-1)).toMatchObject({
      type: "acknowledged",
      actor: { kind: "user", id: ownerId },
      message: "On it",
      public: false,
      data: { via: "app" },
    });
    // Idempotent: the same state, nothing more on the timeline, no second event.
    const again = await json<Incident>(await owner.post(`${path}/acknowledge`));
    expect(again.acknowledgedAt).toBe(acked.acknowledgedAt);
    expect(again.timeline).toHaveLength(acked.timeline.length);
    const [event] = await envelopes(1);
    expect(event).toMatchObject({
      event: "incident.acknowledged",
      data: {
        incidentId: opened.id,
        acknowledgedAt: acked.acknowledgedAt,
        acknowledgedBy: { kind: "user", id: ownerId },
      },
    });
    // A resolved incident that nobody acknowledged: nothing to acknowledge.
    const other = await createIncident(owner, base(), { title: "Disk full", severity: "low" });
    await owner.post(`${base()}/${other.id}/resolve`);
    const refused = await owner.post(`${base()}/${other.id}/acknowledge`);
    expect(refused.status).toBe(409);
    expect((await json<Problem>(refused)).detail).toMatch(/resolved/);
    // The list shows who acknowledged.
    const list = await json<{ data: Incident[] }>(await owner.get(`${base()}?status=active`));
    expect(list.data.find((i) => i.id === opened.id)?.acknowledgedBy?.kind).toBe("user");
  });

  it("assigns to members of the organization only, unassigns, each on the timeline and as incident.assigned", async () => {
    const opened = await createIncident(owner, base(), { title: "API slow", severity: "medium" });
    const path = `${base()}/${opened.id}/assignee`;
    for (const assigneeId of [outsiderId, "usr_nobody", ""]) {
      const refused = await owner.put(path, { assigneeId });
      expect(refused.status).toBe(400);
      expect((await json<Problem>(refused)).errors?.[0]?.field).toBe("assigneeId");
    }
    expect((await owner.put(path, {})).status).toBe(400);
    expect((await viewer.put(path, { assigneeId: viewerId })).status).toBe(403);
    const assigned = await json<Incident>(await owner.put(path, { assigneeId: memberId }));
    expect(assigned.assigneeId).toBe(memberId);
    expect(assigned.timeline.at(-1)).toMatchObject({
      type: "assigned",
      message: "Assigned to Ada Ops",
      data: { from: null, to: memberId, toName: "Ada Ops" },
    });
    // The same assignee again writes nothing; a viewer of the organization may be assigned.
    const same = await json<Incident>(await owner.put(path, { assigneeId: memberId }));
    expect(same.timeline).toHaveLength(assigned.timeline.length);
    expect((await json<Incident>(await owner.put(path, { assigneeId: viewerId }))).assigneeId).toBe(
      viewerId,
    );
    const cleared = await json<Incident>(await owner.put(path, { assigneeId: null }));
    expect(cleared.assigneeId).toBeNull();
    expect(cleared.timeline.at(-1)).toMatchObject({ type: "assigned", message: "Unassigned" });
    const events = (await envelopes(4)).filter((e) => e.event === "incident.assigned");
    expect(events.map((e) => e.data.assignee)).toEqual([
      { id: memberId, name: "Ada Ops", email: "ada@example.com" },
      expect.objectContaining({ id: viewerId }),
      null,
    ]);
    expect(events.map((e) => e.data.previousAssigneeId)).toEqual([null, memberId, viewerId]);
    expect(events[0]?.data.actor).toEqual({ kind: "user", id: ownerId });
  });

  it("changes severity by PATCH: a severity_changed entry and incident.severity_changed", async () => {
    const opened = await createIncident(owner, base(), { title: "Login errors", severity: "low" });
    const path = `${base()}/${opened.id}`;
    const bad = await owner.patch(path, { severity: "urgent" });
    expect(bad.status).toBe(400);
    expect((await json<Problem>(bad)).errors?.[0]?.field).toBe("severity");
    const changed = await json<Incident>(await owner.patch(path, { severity: "critical" }));
    expect(changed.severity).toBe("critical");
    expect(changed.timeline.at(-1)).toMatchObject({
      type: "severity_changed",
      data: { from: "low", to: "critical" },
    });
    // The same severity again is no change.
    await owner.patch(path, { severity: "critical" });
    const events = (await envelopes(5)).filter((e) => e.event === "incident.severity_changed");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      data: { incidentId: opened.id, severity: "critical", from: "low", to: "critical" },
    });
  });
});
