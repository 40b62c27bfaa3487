import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { systemCtx } from "../../src/context.js";
import { createIdGenerator } from "../../src/lib/ids.js";
import type { AlertRuleDefinition } from "../../src/meta/repositories/alert-rule-definition.js";
import {
  type AlertRuleRecord,
  newAlertRuleRecord,
} from "../../src/meta/repositories/alert-rules.js";
import { createChannel } from "../../src/notifications/channels.js";
import { initialize } from "../../src/setup/initialize.js";
import { hexId, type SpanSpec, tracesBody } from "./otlp.js";
import { makeTempDir } from "./temp-dir.js";
import { startTestService, type TestService } from "./test-service.js";
import { startWebhookReceiver, TEST_CA_FILE, type WebhookReceiver } from "./webhook-receiver.js";

// Alert evaluation end to end on a fake clock (test/alert-evaluation*.int.test.ts): the real
// service's deps (chDB + SQLite) on a temp data dir, telemetry ingested over OTLP/HTTP,
// evaluations driven one by one (no scheduler timers), the notification outbox, incidents and
// signed webhooks to a loopback receiver.

/** The latest `checkout` duration of each service. */
export const QUERY =
  "SELECT service_name AS service, argMax(duration_ms, timestamp) AS value FROM traces WHERE operation_name = 'checkout' GROUP BY service";

/** What a test of the file reads and moves: set anew before each test. */
export interface AlertEvaluationHarness {
  /** The fake clock's time; starts at the real time (receivers check timestamps within 5 minutes). */
  nowMs: number;
  clock: { now(): Date };
  receiver: WebhookReceiver;
  dir: ReturnType<typeof makeTempDir>;
  service: TestService;
  projectId: string;
  apiKey: string;
  /** A webhook channel of the project, each rule's. */
  channelId: string;
  /** The real service on the fake clock, on a data dir (a restart boots it again). */
  boot(dataDir: string): Promise<TestService>;
  /** Ingests one `checkout` span per service over OTLP/HTTP: each is the latest, so it is the value. */
  ingest(values: Record<string, number>): Promise<void>;
  /** Stores a rule over QUERY (threshold 500, `for` 120 s) notifying the channel. */
  addRule(
    change?: Partial<AlertRuleDefinition>,
    extra?: Partial<AlertRuleRecord>,
  ): Promise<AlertRuleRecord>;
  /** Moves the clock and evaluates the rule once, as its scheduled slot would. */
  evaluateAt(
    ruleId: string,
    seconds: number,
    base: number,
  ): ReturnType<TestService["deps"]["alerts"]["engine"]["evaluate"]>;
  eventsOf(ruleId: string): Promise<Awaited<ReturnType<AlertEventList>>>;
  deliveriesOf(): Promise<Awaited<ReturnType<DeliveryList>>>;
}
type AlertEventList = TestService["deps"]["meta"]["repos"]["alertEvents"]["list"];
type DeliveryList = TestService["deps"]["meta"]["repos"]["notificationDeliveries"]["listByChannel"];

/** Registers the hooks (a receiver per file, a fresh service per test) and returns the harness. */
export function alertEvaluationHarness(): AlertEvaluationHarness {
  let spanSeq = 0;
  let ruleSeq = 0;
  const h = {
    nowMs: Date.now(),
    clock: { now: () => new Date(h.nowMs) },
    boot: (dataDir: string): Promise<TestService> =>
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
        { clock: h.clock, newId: createIdGenerator(() => h.nowMs) },
      ),
    async ingest(values: Record<string, number>): Promise<void> {
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
        const response = await fetch(`${h.service.url}/v1/traces`, {
          method: "POST",
          headers: { "x-api-key": h.apiKey, "content-type": "application/json" },
          body: JSON.stringify(tracesBody(name, [span])),
        });
        expect(response.status).toBe(200);
      }
    },
    async addRule(
      change: Partial<AlertRuleDefinition> = {},
      extra: Partial<AlertRuleRecord> = {},
    ): Promise<AlertRuleRecord> {
      ruleSeq++;
      const at = h.clock.now().toISOString();
      return h.service.deps.meta.repos.alertRules.insert({
        ...newAlertRuleRecord({
          id: `alr_test${ruleSeq}`,
          projectId: h.projectId,
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
            escalationPolicyId: null,
            ...change,
          },
          query: QUERY,
          channelIds: [h.channelId],
          at,
        }),
        ...extra,
      });
    },
    evaluateAt(ruleId: string, seconds: number, base: number) {
      h.nowMs = base + seconds * 1000;
      return h.service.deps.alerts.engine.evaluate(ruleId);
    },
    eventsOf: async (ruleId: string) =>
      (
        await h.service.deps.meta.repos.alertEvents.list({ ruleId }, { limit: 100, offset: 0 })
      ).reverse(),
    deliveriesOf: async () =>
      (
        await h.service.deps.meta.repos.notificationDeliveries.listByChannel(h.channelId, 100)
      ).reverse(),
  } as AlertEvaluationHarness;

  beforeAll(async () => {
    h.receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await h.receiver.close();
  });
  beforeEach(async () => {
    h.dir = makeTempDir("vigil-alerts-");
    h.nowMs = Date.now();
    h.service = await h.boot(h.dir.path);
    const admin = await initialize({
      ctx: systemCtx(h.service.deps.domain),
      input: { email: "alerts@example.com", password: "a long password" },
    });
    h.projectId = admin.projectId;
    h.apiKey = admin.apiKey ?? "";
    h.channelId = (
      await createChannel({
        ctx: { deps: h.service.deps.domain, actor: { kind: "system" } },
        projectId: h.projectId,
        input: { name: "hooks", type: "webhook", settings: {} },
      })
    ).id;
    h.receiver.requests.length = 0;
  });
  afterEach(async () => {
    await h.service.stop();
    h.dir.remove();
  });
  return h;
}
