import pino from "pino";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { seriesKeyHash } from "../src/alerts/definition.js";
import { createAlertEngine } from "../src/alerts/evaluator.js";
import { incidentVerbs } from "../src/alerts/incidents-port.js";
import { UnavailableError } from "../src/lib/domain-errors.js";
import { createIdGenerator } from "../src/lib/ids.js";
import type { AlertRuleDefinition } from "../src/meta/repositories/alert-rule-definition.js";
import { type AlertRuleRecord, newAlertRuleRecord } from "../src/meta/repositories/alert-rules.js";
import { createChannel, listChannelDeliveries } from "../src/notifications/channels.js";
import { initialize } from "../src/setup/initialize.js";
import { createEndpoint } from "../src/webhooks/endpoints.js";
import { hexId, type SpanSpec, tracesBody } from "./helpers/otlp.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";
import {
  startWebhookReceiver,
  TEST_CA_FILE,
  type WebhookReceiver,
} from "./helpers/webhook-receiver.js";

/**
 * Alert evaluation end to end on a fake clock: the real service's deps (chDB + SQLite) on a temp
 * data dir, telemetry ingested over OTLP/HTTP, evaluations driven one by one (no scheduler
 * timers), the notification outbox, incidents and signed webhooks to a loopback receiver.
 */
const QUERY =
  "SELECT service_name AS service, argMax(duration_ms, timestamp) AS value FROM traces WHERE operation_name = 'checkout' GROUP BY service";
/** Starts at the real time: webhook receivers check timestamps within 5 minutes. */
let nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };

/** The real service on the fake clock; evaluations are driven by the test, not the scheduler. */
const boot = (dataDir: string): Promise<TestService> =>
  startTestService(
    dataDir,
    {
      VIGIL_GRPC_ENABLED: "false",
      VIGIL_LOG_LEVEL: "silent",
      // Evaluations are driven by the test; the scheduler has tests of its own.
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true",
      VIGIL_WEBHOOKS_CA_FILE: TEST_CA_FILE,
    },
    {},
    { clock, newId: createIdGenerator(() => nowMs) },
  );

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});

let dir: ReturnType<typeof makeTempDir>;
let service: TestService;
let projectId: string;
let apiKey: string;
let channelId: string;
let spanSeq = 0;

beforeEach(async () => {
  dir = makeTempDir("vigil-alerts-");
  nowMs = Date.now();
  service = await boot(dir.path);
  const admin = await initialize(service.deps.domain, {
    email: "alerts@example.com",
    password: "a long password",
  });
  projectId = admin.projectId;
  apiKey = admin.apiKey ?? "";
  channelId = (
    await createChannel({
      ctx: { deps: service.deps.domain, actor: { kind: "system" } },
      projectId,
      input: { name: "hooks", type: "webhook", settings: {} },
    })
  ).id;
  receiver.requests.length = 0;
});
afterEach(async () => {
  await service.stop();
  dir.remove();
});

/** Ingests one `checkout` span per service over OTLP/HTTP: each is the latest, so it is the value. */
async function ingest(values: Record<string, number>): Promise<void> {
  for (const [name, durationMs] of Object.entries(values)) {
    spanSeq++;
    const span: SpanSpec = {
      traceId: hexId(spanSeq, 32),
      spanId: hexId(spanSeq, 16),
      name: "checkout",
      kind: 2,
      startMs: Date.now() - 60_000 + spanSeq,
      durationMs,
    };
    const response = await fetch(`${service.url}/v1/traces`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify(tracesBody(name, [span])),
    });
    expect(response.status).toBe(200);
  }
}

let ruleSeq = 0;
async function addRule(
  change: Partial<AlertRuleDefinition> = {},
  extra: Partial<AlertRuleRecord> = {},
): Promise<AlertRuleRecord> {
  ruleSeq++;
  const at = clock.now().toISOString();
  return service.deps.meta.repos.alertRules.insert({
    ...newAlertRuleRecord({
      id: `alr_test${ruleSeq}`,
      projectId,
      name: `Checkout latency ${ruleSeq}`,
      description: "",
      severity: "high",
      definition: {
        preset: null,
        condition: { op: ">", threshold: 500 },
        interval: "1m",
        forSeconds: 120,
        noData: "ok",
        renotifyMinutes: 0,
        openIncident: false,
        messageTemplate: "{{labels.service}} checkout took {{value}} ms (over {{threshold}})",
        ...change,
      },
      query: QUERY,
      channelIds: [channelId],
      at,
    }),
    ...extra,
  });
}

/** Moves the clock and evaluates the rule once, as its scheduled slot would. */
async function evaluateAt(ruleId: string, seconds: number, base: number) {
  nowMs = base + seconds * 1000;
  return service.deps.alerts.engine.evaluate(ruleId);
}

const eventsOf = async (ruleId: string) =>
  (await service.deps.meta.repos.alertEvents.list({ ruleId }, { limit: 100, offset: 0 })).reverse();
const deliveriesOf = async () =>
  (await service.deps.meta.repos.notificationDeliveries.listByChannel(channelId, 100)).reverse();

describe("alert evaluation", () => {
  it("goes pending, fires after `for`, re-notifies on schedule and resolves when the value drops", async () => {
    const rule = await addRule({ forSeconds: 120, renotifyMinutes: 2 });
    const t0 = nowMs;
    await ingest({ shop: 900 });
    const first = await evaluateAt(rule.id, 0, t0);
    expect(first?.plan.changes.map((c) => c.kind)).toEqual(["pending"]);
    expect((await service.deps.meta.repos.alertRules.findById(rule.id))?.state).toBe("pending");
    expect(await deliveriesOf()).toHaveLength(0);

    await evaluateAt(rule.id, 60, t0);
    await evaluateAt(rule.id, 120, t0); // the breach has lasted `for`: fires
    const fired = await service.deps.meta.repos.alertRules.findById(rule.id);
    expect(fired).toMatchObject({
      state: "firing",
      lastValue: 900,
      lastSeries: 1,
      lastError: null,
    });
    await evaluateAt(rule.id, 180, t0);
    await evaluateAt(rule.id, 240, t0); // two minutes after the fire: a reminder
    await ingest({ shop: 120 });
    await evaluateAt(rule.id, 300, t0);

    const events = await eventsOf(rule.id);
    expect(events.map((e) => [e.kind, e.value, e.notified])).toEqual([
      ["pending", 900, false],
      ["fired", 900, true],
      ["renotified", 900, true],
      ["resolved", 120, true],
    ]);
    expect(events[1]).toMatchObject({
      labels: { service: "shop" },
      seriesKey: '{"service":"shop"}',
      threshold: 500,
      message: "shop checkout took 900 ms (over 500)",
      at: new Date(t0 + 120_000).toISOString(),
    });
    const deliveries = await deliveriesOf();
    expect(deliveries.map((d) => [d.event, d.ruleId, d.monitorId])).toEqual([
      ["alert.fired", rule.id, null],
      ["alert.renotified", rule.id, null],
      ["alert.resolved", rule.id, null],
    ]);
    expect(deliveries[2]?.payload).toMatchObject({
      event: "alert.resolved",
      rule: { id: rule.id, condition: "value > 500" },
      value: 120,
      firedAt: new Date(t0 + 120_000).toISOString(),
      resolvedAt: new Date(t0 + 300_000).toISOString(),
    });
    // The outbox sends them through the channel; its log names the rule.
    await service.deps.notifier.deliverDue();
    const log = await listChannelDeliveries({
      ctx: { deps: service.deps.domain, actor: { kind: "system" } },
      projectId,
      channelId,
    });
    expect(log.map((d) => [d.event, d.ruleId, d.status])).toEqual([
      ["alert.resolved", rule.id, "sent"],
      ["alert.renotified", rule.id, "sent"],
      ["alert.fired", rule.id, "sent"],
    ]);
    const after = await service.deps.meta.repos.alertRules.findById(rule.id);
    expect(after).toMatchObject({ state: "ok", lastValue: 120 });
    expect(await service.deps.meta.repos.alertSeries.list(rule.id)).toMatchObject([
      { state: "ok", lastValue: 120, firedAt: null },
    ]);
  });

  it("a muted rule is evaluated and recorded, but notifies no channel and sends no webhook", async () => {
    await createEndpoint({
      ctx: { deps: service.deps.domain, actor: { kind: "system" } },
      projectId,
      input: { url: `${receiver.url}/muted`, events: ["alert.fired", "alert.resolved"] },
    });
    const rule = await addRule({ forSeconds: 0 }, { muted: true, mutedUntil: null });
    const t0 = nowMs;
    await ingest({ shop: 900 });
    await evaluateAt(rule.id, 0, t0);
    await ingest({ shop: 100 });
    await evaluateAt(rule.id, 60, t0);
    expect((await eventsOf(rule.id)).map((e) => [e.kind, e.notified])).toEqual([
      ["fired", false],
      ["resolved", false],
    ]);
    expect(await deliveriesOf()).toHaveLength(0);
    await service.deps.webhooks.deliverer.deliverDue();
    // Only the endpoint's verification request reached the receiver.
    expect(receiver.requests.map((r) => r.headers["x-service-event"])).toEqual(["endpoint.verify"]);
  });

  it("noData: ok resolves, alerting fires after `for` on the {} series, keep changes nothing", async () => {
    const empty =
      "SELECT service_name AS service, max(duration_ms) AS value FROM traces WHERE operation_name = 'none' GROUP BY service";
    const t0 = nowMs;
    const alerting = await addRule({ noData: "alerting", forSeconds: 60 }, { query: empty });
    const keep = await addRule({ noData: "keep", forSeconds: 0 });
    const ok = await addRule({ noData: "ok", forSeconds: 0 });
    await ingest({ shop: 900 });
    for (const rule of [keep, ok]) await evaluateAt(rule.id, 0, t0);
    // The data goes away for both: their query now returns no rows.
    const repos = service.deps.meta.repos;
    for (const rule of [keep, ok]) {
      const current = await repos.alertRules.findById(rule.id);
      if (!current) throw new Error("rule gone");
      await repos.alertRules.updateDefinition(rule.id, {
        ...current,
        query: empty,
        updatedAt: current.updatedAt,
      });
    }
    for (const seconds of [0, 60]) await evaluateAt(alerting.id, seconds, t0);
    for (const rule of [keep, ok]) await evaluateAt(rule.id, 60, t0);

    // no_data and pending share their instant: compared without their order.
    expect((await eventsOf(alerting.id)).map((e) => [e.kind, e.seriesKey, e.value]).sort()).toEqual(
      [
        ["fired", "{}", null],
        ["no_data", "{}", null],
        ["pending", "{}", null],
      ],
    );
    expect((await repos.alertRules.findById(alerting.id))?.state).toBe("firing");
    expect((await eventsOf(keep.id)).map((e) => e.kind)).toEqual(["fired", "no_data"]);
    expect((await repos.alertRules.findById(keep.id))?.state).toBe("firing");
    expect((await eventsOf(ok.id)).map((e) => e.kind).sort()).toEqual([
      "fired",
      "no_data",
      "resolved",
    ]);
    expect((await repos.alertRules.findById(ok.id))?.state).toBe("ok");
  });

  it("a query error puts the rule in error once, never fires or resolves, and recovers", async () => {
    const rule = await addRule({ forSeconds: 0 });
    const t0 = nowMs;
    await ingest({ shop: 900 });
    await evaluateAt(rule.id, 0, t0);
    const repos = service.deps.meta.repos;
    const current = await repos.alertRules.findById(rule.id);
    if (!current) throw new Error("rule gone");
    const broken = "SELECT no_such_column AS value FROM traces";
    await repos.alertRules.updateDefinition(rule.id, { ...current, query: broken });
    await ingest({ shop: 10 }); // would resolve, if the query worked
    await evaluateAt(rule.id, 60, t0);
    await evaluateAt(rule.id, 120, t0);
    const failed = await repos.alertRules.findById(rule.id);
    expect(failed?.state).toBe("error");
    expect(failed?.lastError).toMatch(/no_such_column/);
    expect(await repos.alertSeries.list(rule.id)).toMatchObject([{ state: "firing" }]);
    await repos.alertRules.updateDefinition(rule.id, { ...current, query: QUERY });
    await evaluateAt(rule.id, 180, t0);
    expect((await eventsOf(rule.id)).map((e) => e.kind)).toEqual([
      "fired",
      "error",
      "recovered_from_error",
      "resolved",
    ]);
    expect((await deliveriesOf()).map((d) => d.event)).toEqual(["alert.fired", "alert.resolved"]);
  });

  it("a rule whose evaluations keep failing is shown as failing and backs off, then recovers", async () => {
    const rule = await addRule(
      { forSeconds: 0 },
      { query: "SELECT no_such_column AS value FROM traces" },
    );
    const t0 = nowMs;
    const engine = service.deps.alerts.engine;
    const repos = service.deps.meta.repos;
    const at = (seconds: number) => {
      nowMs = t0 + seconds * 1000;
      return engine.evaluateScheduled(rule.id);
    };
    const attempts = async () => (await repos.alertRules.findById(rule.id))?.failures;
    // One failure keeps the interval: it may have been the engine's, not the rule's.
    expect(await at(0)).toMatchObject({ plan: { state: "error", failures: 1 } });
    expect(await at(60)).toMatchObject({ plan: { failures: 2 } });
    // Two in a row: the next slot (60 s on) is skipped, the one after (120 s on) runs.
    expect(await at(120)).toBe("backing_off");
    expect(await attempts()).toBe(2);
    expect(await at(180)).toMatchObject({ plan: { failures: 3 } });
    // Three: four intervals.
    for (const seconds of [240, 300, 360]) expect(await at(seconds)).toBe("backing_off");
    expect(await at(420)).toMatchObject({ plan: { failures: 4 } });

    // The API says so: failing, why, since when and when it runs next; not a verdict on the data.
    const view = await service.fetch(`/v1/alerts/${rule.id}`, { headers: { "x-api-key": apiKey } });
    expect(view.status).toBe(200);
    const body = (await view.json()) as { state: string; failing: Record<string, unknown> };
    expect(body.state).toBe("error");
    expect(body.failing).toEqual({
      since: new Date(t0).toISOString(),
      failures: 4,
      reason: expect.stringMatching(/no_such_column/),
      nextEvaluationAt: new Date(t0 + (420 + 8 * 60) * 1000).toISOString(),
    });
    // Evaluated by hand (the preview, a test), it never backs off.
    nowMs = t0 + 430_000;
    expect(await engine.evaluate(rule.id)).toMatchObject({ plan: { failures: 5 } });

    // Backing off for 15 minutes now; an edit ends it: the next slot runs, works and clears it.
    expect(await at(490)).toBe("backing_off");
    const current = await repos.alertRules.findById(rule.id);
    if (!current) throw new Error("rule gone");
    await repos.alertRules.updateDefinition(rule.id, { ...current, query: QUERY });
    expect(await at(500)).toMatchObject({ plan: { failures: 0, failingSince: null } });
    const healed = (await (
      await service.fetch(`/v1/alerts/${rule.id}`, { headers: { "x-api-key": apiKey } })
    ).json()) as { failing: unknown };
    expect(healed.failing).toBeNull();
  });

  it("skips a slot the engine was too busy for, unrecorded: others' load never fails a rule", async () => {
    const rule = await addRule({ forSeconds: 0 });
    const busy = createAlertEngine({
      meta: service.deps.meta,
      clock,
      newId: service.deps.domain.newId,
      query: async () => {
        throw new UnavailableError("The telemetry engine is busy with other projects' queries", 1);
      },
      incidents: incidentVerbs(service.deps.domain),
      webhooks: service.deps.webhooks,
      logger: pino({ level: "silent" }),
    });
    expect(await busy.evaluateScheduled(rule.id)).toBe("engine_busy");
    expect(await busy.evaluateScheduled(rule.id)).toBe("engine_busy");
    const stored = await service.deps.meta.repos.alertRules.findById(rule.id);
    expect(stored).toMatchObject({ state: "ok", failures: 0, lastEvaluatedAt: null });
    expect(await eventsOf(rule.id)).toEqual([]);
  });

  it("a restart mid-pending neither loses nor duplicates the series' state", async () => {
    const rule = await addRule({ forSeconds: 120 });
    const t0 = nowMs;
    await ingest({ shop: 900, cart: 800 });
    await evaluateAt(rule.id, 0, t0);
    await service.stop();
    service = await boot(dir.path);
    await evaluateAt(rule.id, 60, t0);
    await service.stop();
    service = await boot(dir.path);
    await evaluateAt(rule.id, 120, t0);
    await evaluateAt(rule.id, 180, t0);
    const events = await eventsOf(rule.id);
    expect(events.map((e) => [e.kind, e.labels.service]).sort()).toEqual([
      ["fired", "cart"],
      ["fired", "shop"],
      ["pending", "cart"],
      ["pending", "shop"],
    ]);
    expect(
      events
        .filter((e) => e.kind === "fired")
        .every((e) => e.at === new Date(t0 + 120_000).toISOString()),
    ).toBe(true);
    expect((await deliveriesOf()).map((d) => d.event)).toEqual(["alert.fired", "alert.fired"]);
  });

  it("openIncident opens exactly one incident for the rule and resolves it with the last series", async () => {
    const rule = await addRule({ forSeconds: 0, openIncident: true });
    const t0 = nowMs;
    const repos = service.deps.meta.repos;
    await ingest({ shop: 900 });
    const first = await evaluateAt(rule.id, 0, t0);
    await ingest({ cart: 700 });
    await evaluateAt(rule.id, 60, t0);
    const open = await repos.incidents.findOpenBySource("alert", rule.id);
    expect(open).toMatchObject({
      source: "alert",
      sourceId: rule.id,
      status: "active",
      severity: "high",
    });
    expect(first?.incidentId).toBe(open?.id);
    await ingest({ shop: 100 });
    await evaluateAt(rule.id, 120, t0);
    expect(await repos.incidents.findOpenBySource("alert", rule.id)).toMatchObject({
      id: open?.id,
    });
    await ingest({ cart: 100 });
    await evaluateAt(rule.id, 180, t0);
    expect(await repos.incidents.findOpenBySource("alert", rule.id)).toBeUndefined();
    const incident = await repos.incidents.findById(open?.id ?? "");
    expect(incident).toMatchObject({ status: "resolved", durationMs: 180_000 });
    const timeline = await repos.incidents.listEvents([open?.id ?? ""]);
    expect(timeline.map((e) => e.type)).toEqual([
      "opened",
      "alert_fired",
      "alert_fired",
      "alert_resolved",
      "alert_resolved",
      "resolved",
    ]);
    expect(await repos.incidents.count({ projectId, source: "alert", sourceId: rule.id })).toBe(1);
    expect((await eventsOf(rule.id)).every((e) => e.incidentId === open?.id)).toBe(true);
  });

  it("a muted rule opens no incident; once unmuted, a series still firing opens it", async () => {
    const rule = await addRule({ forSeconds: 0, openIncident: true }, { muted: true });
    const t0 = nowMs;
    const repos = service.deps.meta.repos;
    await ingest({ shop: 900 });
    await evaluateAt(rule.id, 0, t0);
    expect(await repos.incidents.findOpenBySource("alert", rule.id)).toBeUndefined();
    await repos.alertRules.setMute(rule.id, {
      muted: false,
      mutedUntil: null,
      updatedAt: new Date(t0).toISOString(),
    });
    const unmuted = await evaluateAt(rule.id, 60, t0);
    const open = await repos.incidents.findOpenBySource("alert", rule.id);
    expect(open).toMatchObject({
      status: "active",
      startedAt: new Date(t0 + 60_000).toISOString(),
    });
    expect(unmuted?.incidentId).toBe(open?.id);
    // Its fire was made while muted: it is not sent again, and nothing new fired.
    expect(unmuted?.plan.changes).toEqual([]);
    expect(await deliveriesOf()).toHaveLength(0);
    expect(await repos.alertSeries.list(rule.id)).toMatchObject([{ incidentId: open?.id }]);
  });

  it("delivers alert.fired and alert.resolved webhooks with ruleId, signed per Standard Webhooks", async () => {
    const endpoint = await createEndpoint({
      ctx: { deps: service.deps.domain, actor: { kind: "system" } },
      projectId,
      input: { url: `${receiver.url}/alerts`, events: ["alert.fired", "alert.resolved"] },
    });
    const rule = await addRule({ forSeconds: 0 });
    const t0 = nowMs;
    await ingest({ shop: 900 });
    await evaluateAt(rule.id, 0, t0);
    // Evaluating again while firing enqueues nothing new.
    await evaluateAt(rule.id, 30, t0);
    await ingest({ shop: 100 });
    await evaluateAt(rule.id, 60, t0);
    const requests = (await receiver.waitFor(3, 10_000)).slice(1);
    await service.deps.notifier.deliverDue();
    await service.deps.webhooks.deliverer.deliverDue();
    expect(receiver.requests).toHaveLength(3);
    const verifier = new Webhook(endpoint.secret);
    const bodies = requests.map((r) => {
      const headers = {
        "webhook-id": String(r.headers["webhook-id"]),
        "webhook-timestamp": String(r.headers["webhook-timestamp"]),
        "webhook-signature": String(r.headers["webhook-signature"]),
      };
      return verifier.verify(r.body, headers) as { event: string; data: Record<string, unknown> };
    });
    expect(bodies.map((b) => b.event)).toEqual(["alert.fired", "alert.resolved"]);
    const firedAt = new Date(t0).toISOString();
    expect(bodies[0]?.data).toMatchObject({
      ruleId: rule.id,
      projectId,
      value: 900,
      threshold: 500,
      labels: { service: "shop" },
      firedAt,
      resolvedAt: null,
    });
    expect(bodies[1]?.data).toMatchObject({ ruleId: rule.id, value: 100, firedAt });
    expect(requests.map((r) => r.headers["x-service-event"])).toEqual([
      "alert.fired",
      "alert.resolved",
    ]);
    // The ids the store de-duplicates on: a retried evaluation (or the rule's webhook channel
    // publishing the same fire) never enqueues it twice.
    let attempts = await service.deps.meta.repos.webhookDeliveries.listAttempts(endpoint.id, 10);
    // The receiver has the requests; the deliverer records their outcome just after.
    for (let i = 0; i < 100 && attempts.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      attempts = await service.deps.meta.repos.webhookDeliveries.listAttempts(endpoint.id, 10);
    }
    const stored = await Promise.all(
      attempts.map((a) => service.deps.meta.repos.webhookDeliveries.findById(a.deliveryId)),
    );
    const hash = seriesKeyHash('{"service":"shop"}');
    expect(stored.map((d) => d?.eventId).sort()).toEqual([
      `alert.fired:${rule.id}:${hash}:${t0}`,
      `alert.resolved:${rule.id}:${hash}:${t0}`,
    ]);
  });
});
