import { createApiKey } from "../../src/auth/api-keys.js";
import type { RunningService } from "../../src/cli/serve.js";
import { systemCtx } from "../../src/context.js";
import { createProject } from "../../src/projects/projects.js";
import { createTraceLoader } from "../../src/read/trace-lookup.js";
import { initialize } from "../../src/setup/initialize.js";
import type { TelemetryExecutor } from "../../src/telemetry/executor.js";
import { log } from "../harness/run.js";
import { fmt } from "../harness/stats.js";
import { load, settle } from "./data.js";
import { SPANS } from "./settings.js";

/** One project with the demo dataset and a second with a tenth of it, through the real OTLP endpoint. */
export async function loadDataset(service: RunningService) {
  const { deps } = service;
  const setup = await initialize({
    ctx: systemCtx(deps.domain),
    input: {
      email: "bench@example.com",
      password: "bench password 1",
    },
  });
  const apiKey = setup.apiKey ?? "";
  const projectId = setup.projectId;
  const system = { deps: deps.domain, actor: { kind: "system" as const } };
  const other = await createProject({
    ctx: system,
    input: { name: "other", orgId: setup.orgId },
  });
  const otherKey = await createApiKey({
    ctx: system,
    projectId: other.id,
    input: { name: "bench other", role: "full" },
  });

  // 1. The dataset, through the real OTLP endpoint.
  log(`Loading ${fmt(SPANS)} spans (+ ${fmt(Math.round(SPANS / 10))} in a second project)`);
  const loadStarted = performance.now();
  const loaded = await load(service.url, apiKey, SPANS, 42, "project");
  const second = await load(service.url, otherKey.key, Math.round(SPANS / 10), 7, "other");
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const counts = await deps.telemetry.query<{ project_id: string; spans: string }>(
    `SELECT project_id, count() AS spans FROM vigil.traces GROUP BY project_id`,
  );
  const logCounts = await deps.telemetry.query<{ project_id: string; logs: string }>(
    `SELECT project_id, count() AS logs FROM vigil.logs GROUP BY project_id`,
  );
  const storedSpans = Number(counts.find((c) => c.project_id === projectId)?.spans ?? 0);
  const storedLogs = Number(logCounts.find((c) => c.project_id === projectId)?.logs ?? 0);
  const otherSpans = Number(counts.find((c) => c.project_id === other.id)?.spans ?? 0);
  if (storedSpans !== loaded.items.traces)
    throw new Error(`stored ${storedSpans} spans of ${loaded.items.traces} acknowledged`);
  log(
    `Loaded in ${loadSeconds.toFixed(1)} s: ${fmt(storedSpans)} spans and ${fmt(storedLogs)} logs, ` +
      `plus ${fmt(otherSpans)} spans in the second project; waiting for merges to settle`,
  );
  const parts = await settle(deps.telemetry);
  log(`  active parts: ${JSON.stringify(parts)}`);
  return {
    deps,
    apiKey,
    projectId,
    system,
    other,
    otherKey,
    loaded,
    second,
    loadSeconds,
    storedSpans,
    storedLogs,
    otherSpans,
    parts,
  };
}
export type Dataset = Awaited<ReturnType<typeof loadDataset>>;

/**
 * A system ctx whose read verbs run on `telemetry` as it is: no read admission, and trace
 * lookups batched by a loader of their own over it, as the service's are over its engine.
 */
export function readCtxOver(d: Dataset, telemetry: TelemetryExecutor) {
  const read = { ...d.deps.read, telemetry, traces: createTraceLoader(telemetry) };
  return { ...d.system, deps: { ...d.deps.domain, read } };
}
