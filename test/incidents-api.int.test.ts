import type { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createIncident,
  type Incident,
  json,
  type Page,
  type Problem,
} from "./helpers/incidents-api.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";
import {
  addReceiverEndpoint,
  startWebhookReceiver,
  TEST_CA_FILE,
  type WebhookReceiver,
} from "./helpers/webhook-receiver.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The incident management API (docs/design.md §4) over HTTP, with webhooks delivered for real. */
describe("incident management API", () => {
  const dir = makeTempDir();
  let service: TestService;
  let receiver: WebhookReceiver;
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let ownerId: string;
  let projectId: string;
  let endpointId: string;
  let webhook: Webhook;
  const base = () => `/api/projects/${projectId}/incidents`;

  const create = (body: Record<string, unknown>) => createIncident(owner, base(), body);

  /** The event ids of the endpoint's deliveries so far, after each was attempted. */
  const deliveredEventIds = async (count: number): Promise<string[]> => {
    await receiver.waitFor(count);
    const { webhookDeliveries } = service.deps.meta.repos;
    // The receiver has answered; the attempts are recorded just after (the recorder batches).
    let attempts = await webhookDeliveries.listAttempts(endpointId, 50);
    for (let i = 0; attempts.length < count && i < 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      attempts = await webhookDeliveries.listAttempts(endpointId, 50);
    }
    const deliveries = await Promise.all(
      attempts.map((a) => webhookDeliveries.findById(a.deliveryId)),
    );
    return deliveries.map((d) => d?.eventId ?? "").sort();
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    ({ service, owner, viewer, outsider, projectId, ownerId } = await startWithRoles(dir.path, {
      VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true",
      VIGIL_WEBHOOKS_CA_FILE: TEST_CA_FILE,
      // Rule states are set by the tests: no scheduled evaluation may change them meanwhile.
      VIGIL_ALERTS_ENABLED: "false",
    }));
    endpointId = "whe_incidents";
    webhook = await addReceiverEndpoint(service, {
      id: endpointId,
      projectId,
      url: `${receiver.url}/incidents`,
      events: ["incident.created", "incident.resolved"],
    });
  });
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    dir.remove();
  });

  it("opens, updates, comments, resolves and reopens an incident, each step on the timeline with its actor", async () => {
    const opened = await create({
      title: "Card payments failing",
      severity: "high",
      message: "Some card payments fail; investigating.",
    });
    expect(opened).toMatchObject({
      status: "active",
      severity: "high",
      source: "manual",
      sourceId: null,
      createdBy: ownerId,
    });
    expect(opened.id).toMatch(/^inc_/);
    expect(opened.timeline.map((e) => e.type)).toEqual(["opened", "update"]);
    expect(opened.updates).toEqual([
      expect.objectContaining({
        phase: "investigating",
        public: true,
        actor: { kind: "user", id: ownerId },
      }),
    ]);
    const path = `${base()}/${opened.id}`;

    const patched = await json<Incident>(
      await owner.patch(path, { title: "Card payments failing in EU", severity: "critical" }),
    );
    expect(patched).toMatchObject({ title: "Card payments failing in EU", severity: "critical" });
    expect(patched.timeline.slice(-2)).toEqual([
      expect.objectContaining({
        type: "title_changed",
        data: { from: "Card payments failing", to: "Card payments failing in EU" },
      }),
      expect.objectContaining({ type: "severity_changed", data: { from: "high", to: "critical" } }),
    ]);

    const commented = await json<Incident>(
      await owner.post(`${path}/comments`, { message: "Paging the payments team" }),
    );
    expect(commented.timeline.at(-1)).toMatchObject({ type: "comment", public: false });
    expect(commented.updates).toHaveLength(1);

    const monitoring = await json<Incident>(
      await owner.post(`${path}/updates`, { message: "Fix deployed", phase: "monitoring" }),
    );
    expect(monitoring.status).toBe("active");
    expect(monitoring.updates.map((u) => u.phase)).toEqual(["investigating", "monitoring"]);

    // A public update with phase resolved resolves it.
    const resolved = await json<Incident>(
      await owner.post(`${path}/updates`, { message: "All good", phase: "resolved" }),
    );
    expect(resolved.status).toBe("resolved");
    expect(resolved.durationMs).toBeGreaterThanOrEqual(0);
    expect(resolved.timeline.slice(-2).map((e) => e.type)).toEqual(["update", "resolved"]);
    expect((await owner.post(`${path}/resolve`, {})).status).toBe(409);
    // A resolved incident takes no public update (it would contradict its state): reopen first.
    for (const phase of ["monitoring", "resolved"]) {
      const refused = await owner.post(`${path}/updates`, { message: "Still fine", phase });
      expect(refused.status).toBe(409);
      expect((await json<Problem>(refused)).detail).toContain("reopen it first");
    }
    await sleep(60); // time spent resolved, which the duration must leave out

    // Resolve and reopen take no body at all (no content-type either).
    const bare = (action: string) =>
      service.fetch(`${path}/${action}`, {
        method: "POST",
        headers: { cookie: owner.cookie, origin: service.url },
      });
    const reopened = await json<Incident>(await bare("reopen"));
    expect(reopened).toMatchObject({ status: "active", resolvedAt: null, durationMs: null });
    expect((await owner.post(`${path}/reopen`)).status).toBe(409);
    const noComment = await bare("comments");
    expect(noComment.status).toBe(400);
    expect(await noComment.text()).toContain("message");
    await sleep(5); // a second resolution at a later millisecond: a new incident.resolved
    const again = await json<Incident>(
      await owner.post(`${path}/resolve`, { message: "Really fixed" }),
    );
    expect(again.status).toBe("resolved");
    expect(again.timeline.slice(-3).map((e) => e.type)).toEqual([
      "reopened",
      "comment",
      "resolved",
    ]);

    // The duration sums the active periods: opened → resolved, reopened → resolved again.
    const ms = (type: string, nth = 0) =>
      Date.parse(again.timeline.filter((e) => e.type === type)[nth]?.at ?? "");
    expect(again.durationMs).toBe(
      ms("resolved") - ms("opened") + (ms("resolved", 1) - ms("reopened")),
    );

    // Newest last, and the same through GET.
    const fetched = await json<Incident>(await viewer.get(path));
    expect(fetched.timeline).toEqual(again.timeline);
    const times = fetched.timeline.map((e) => e.at);
    expect([...times].sort()).toEqual(times);

    // incident.created once, incident.resolved once per resolution, signed (Standard Webhooks).
    const ids = await deliveredEventIds(3);
    const resolutions = fetched.timeline
      .filter((e) => e.type === "resolved")
      .map((e) => Date.parse(e.at));
    expect(ids).toEqual(
      [
        `incident.created:${opened.id}`,
        ...resolutions.map((ms) => `incident.resolved:${opened.id}:${ms}`),
      ].sort(),
    );
    for (const request of receiver.requests) {
      const verified = webhook.verify(request.body, request.headers as Record<string, string>) as {
        event: string;
        data: { incidentId: string; source: string; sourceId: string | null };
      };
      expect(verified.data).toMatchObject({
        incidentId: opened.id,
        source: "manual",
        sourceId: null,
      });
    }
  });

  it("lists with status, severity and source filters and pages", async () => {
    const low = await create({ title: "Slow search", severity: "low" });
    await create({ title: "Slow search 2", severity: "low" });
    const page = await json<Page<Incident>>(
      await viewer.get(`${base()}?severity=low&status=active&source=manual&limit=1`),
    );
    expect(page.pagination).toMatchObject({ page: 1, limit: 1, total: 2, hasMore: true });
    expect(page.data[0]?.title).toBe("Slow search 2");
    const bySeverity = await json<Page<Incident>>(
      await viewer.get(`${base()}?sort_by=severity&sort_order=asc&limit=1000`),
    );
    expect(bySeverity.data.at(0)?.severity).toBe("low");
    expect(bySeverity.data.some((i) => i.id === low.id)).toBe(true);
    expect((await viewer.get(`${base()}?source=monitor`)).status).toBe(200);
    const bad = await json<Problem>(await viewer.get(`${base()}?colour=red`));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad)).toContain("colour");
  });

  it("names the offending field on bad input", async () => {
    const cases: [string, string, Record<string, unknown>, string][] = [
      ["POST", base(), { title: "x", severity: "huge" }, "severity"],
      ["POST", base(), { title: "x", severity: "low", colour: "red" }, "colour"],
      ["POST", base(), { severity: "low" }, "title"],
    ];
    const incident = await create({ title: "Fields", severity: "medium" });
    const path = `${base()}/${incident.id}`;
    cases.push(
      ["PATCH", path, { status: "resolved" }, "status"],
      ["PATCH", path, {}, "title"],
      ["POST", `${path}/updates`, { message: "m", phase: "done" }, "phase"],
      ["POST", `${path}/updates`, { phase: "identified" }, "message"],
      ["POST", `${path}/resolve`, { reason: "x" }, "reason"],
      ["POST", `${path}/comments`, { message: "" }, "message"],
    );
    for (const [method, target, body, field] of cases) {
      const response =
        method === "PATCH" ? await owner.patch(target, body) : await owner.post(target, body);
      const problem = await json<Problem>(response);
      expect(response.status, `${method} ${target} ${JSON.stringify(body)}`).toBe(400);
      expect(JSON.stringify(problem), JSON.stringify(body)).toContain(field);
    }
  });

  it("lets viewers read but not write, and hides the project from another organization", async () => {
    const incident = await create({ title: "Roles", severity: "low" });
    const path = `${base()}/${incident.id}`;
    expect((await viewer.get(base())).status).toBe(200);
    expect((await viewer.get(path)).status).toBe(200);
    expect((await viewer.post(base(), { title: "No", severity: "low" })).status).toBe(403);
    expect((await viewer.patch(path, { severity: "high" })).status).toBe(403);
    for (const action of ["resolve", "reopen"])
      expect((await viewer.post(`${path}/${action}`, {})).status).toBe(403);
    expect((await viewer.post(`${path}/comments`, { message: "hi" })).status).toBe(403);
    expect(
      (await viewer.post(`${path}/updates`, { message: "hi", phase: "identified" })).status,
    ).toBe(403);

    for (const target of [base(), path]) expect((await outsider.get(target)).status).toBe(404);
    expect((await outsider.post(base(), { title: "x", severity: "low" })).status).toBe(404);
    expect((await outsider.post(`${path}/resolve`, {})).status).toBe(404);
    expect((await owner.get(`${base()}/inc_unknown`)).status).toBe(404);
  });

  it("needs a session, and a same-origin Origin on writes", async () => {
    expect((await service.fetch(base())).status).toBe(401);
    const incident = await create({ title: "CSRF", severity: "low" });
    for (const origin of ["https://evil.example", undefined]) {
      const forged = await service.fetch(`${base()}/${incident.id}/resolve`, {
        method: "POST",
        headers: {
          cookie: owner.cookie,
          "content-type": "application/json",
          ...(origin === undefined ? {} : { origin }),
        },
        body: "{}",
      });
      expect(forged.status, String(origin)).toBe(403);
    }
    expect((await json<Incident>(await owner.get(`${base()}/${incident.id}`))).status).toBe(
      "active",
    );
  });
});
