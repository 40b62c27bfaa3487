import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRule, updateRule } from "../src/alerts/alert-rules.js";
import { systemCtx } from "../src/context.js";
import { demoRequests } from "../src/demo/generator.js";
import { sendAll } from "../src/demo/sender.js";
import { initialize } from "../src/setup/initialize.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

/** A preset rule over the `vigil demo` dataset, evaluated on a fake clock as its slots would. */
describe("an alert rule over the demo dataset", () => {
  const dir = makeTempDir();
  let service: TestService;
  let projectId: string;
  let nowMs = Date.now();
  const clock = { now: () => new Date(nowMs) };

  beforeAll(async () => {
    service = await startTestService(
      dir.path,
      // Evaluations are driven by the test, one slot at a time.
      { VIGIL_ALERTS_ENABLED: "false", VIGIL_RATE_LIMIT_PER_MINUTE: "10000" },
      {},
      { clock },
    );
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "alert-demo@example.com",
        password: "correct horse battery",
      },
    });
    projectId = setup.projectId;
    const requests = demoRequests({
      spans: 4000,
      batchSpans: 500,
      windowMs: 3_600_000,
      nowMs: Date.now(),
    });
    await sendAll([...requests], { url: service.url, key: setup.apiKey ?? "", concurrency: 2 });
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("goes pending, fires after `for`, and resolves once the value no longer breaches", async () => {
    // No scheduler: the test evaluates the rule itself, at the times it chooses.
    const alertRules = {
      tql: service.deps.tql,
      webhooks: service.deps.webhooks,
      maxRulesPerProject: 500,
    };
    const ctx = {
      deps: { ...service.deps.domain, alertRules },
      actor: { kind: "system" as const },
    };
    const rule = await createRule({
      ctx,
      projectId,
      input: {
        name: "Demo error rate",
        severity: "high",
        preset: { kind: "error_rate", params: { window: "1h", groupBy: "service" } },
        condition: { op: ">", threshold: 0 },
        forSeconds: 120,
      },
    });
    const t0 = nowMs;
    const evaluateAt = async (seconds: number) => {
      nowMs = t0 + seconds * 1000;
      const evaluation = await service.deps.alerts.engine.evaluate(rule.id);
      return evaluation?.plan.state;
    };
    const seriesStates = async () =>
      (await service.deps.meta.repos.alertSeries.list(rule.id)).map((s) => s.state);

    // The demo's services fail some requests: each with errors is a series, pending at first.
    expect(await evaluateAt(0)).toBe("pending");
    const pending = await seriesStates();
    expect(pending.length).toBeGreaterThan(0);
    expect(new Set(pending)).toEqual(new Set(["pending"]));
    expect(await evaluateAt(60)).toBe("pending");
    // Breaching for the whole `for` (120 s): every series fires, once.
    expect(await evaluateAt(120)).toBe("firing");
    expect(new Set(await seriesStates())).toEqual(new Set(["firing"]));
    const events = await service.deps.meta.repos.alertEvents.list(
      { ruleId: rule.id },
      { limit: 100, offset: 0 },
    );
    expect(events.filter((e) => e.kind === "fired")).toHaveLength(pending.length);

    // The demo's error rates stay far below 99% (the preset is in percent): no longer breaching.
    await updateRule({
      ctx,
      projectId,
      ruleId: rule.id,
      input: { condition: { op: ">", threshold: 99 } },
    });
    expect(await evaluateAt(180)).toBe("ok");
    const after = await service.deps.meta.repos.alertEvents.list(
      { ruleId: rule.id },
      { limit: 100, offset: 0 },
    );
    expect(after.filter((e) => e.kind === "resolved")).toHaveLength(pending.length);
    const view = await service.deps.meta.repos.alertRules.findById(rule.id);
    expect(view).toMatchObject({ state: "ok", lastError: null });
  });
});
