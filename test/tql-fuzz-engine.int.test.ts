/**
 * Seeded fuzzing of TQL, the engine: the fuzz inputs that compiled run in the engine beside another
 * project's rows; no raw engine error may escape the error mapping, and no result or message may
 * show the other project's values or the rewritten query.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "../src/lib/domain-errors.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { createTqlService, type TqlService } from "../src/tql/tql-service.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { getCorpus } from "./helpers/tql-fuzz-inputs.js";
import { ENGINE_INPUTS, ENGINE_PROBES, engineInputs, show } from "./helpers/tql-fuzz-outcomes.js";

const PROJECT_A = "prj_fuzz_attacker";
const PROJECT_B = "prj_fuzz_victim";
const B_MARKERS = ["victim-secret-svc", "VICTIM-SECRET", PROJECT_B];

interface EngineFailure {
  query: string;
  kind: "internal" | "leak" | "internals-in-message";
  code: string;
  message: string;
}

function engineCode(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (
    /\(([A-Z][A-Z0-9_]+)\)\s*(?:\(version[^)]*\))?\s*$/.exec(text)?.[1] ??
    /Code:\s*(\d+)/.exec(text)?.[1] ??
    "?"
  );
}

const INTERNALS =
  /project_id`? = |`vigil`\.|\(SELECT `|Syntax error: failed at position|max_memory_usage|max_execution_time|readonly = 1|\{project:String\}/;

async function runAll(
  run: (query: string) => Promise<unknown>,
  queries: readonly string[],
): Promise<EngineFailure[]> {
  const failures: EngineFailure[] = [];
  for (const query of queries) {
    try {
      const result = await run(query);
      const text = JSON.stringify(result);
      for (const marker of B_MARKERS)
        if (text.includes(marker) && !query.includes(marker))
          failures.push({ query, kind: "leak", code: "-", message: `result holds ${marker}` });
    } catch (error) {
      if (!(error instanceof DomainError) || error.code === "internal") {
        failures.push({
          query,
          kind: "internal",
          code: engineCode(error),
          message: (error instanceof Error ? error.message : String(error)).slice(0, 200),
        });
        continue;
      }
      for (const marker of B_MARKERS)
        if (error.message.includes(marker) && !query.includes(marker))
          failures.push({
            query,
            kind: "leak",
            code: error.code,
            message: error.message.slice(0, 200),
          });
      const internals = INTERNALS.exec(error.message)?.[0];
      if ((internals && !query.includes(internals)) || error.message.includes(PROJECT_A))
        failures.push({
          query,
          kind: "internals-in-message",
          code: error.code,
          message: error.message.slice(0, 300),
        });
    }
  }
  return failures;
}

function report(failures: readonly EngineFailure[]): string {
  const byCode = new Map<string, EngineFailure[]>();
  for (const failure of failures) {
    const key = `${failure.kind} ${failure.code}`;
    byCode.set(key, [...(byCode.get(key) ?? []), failure]);
  }
  return [...byCode.entries()]
    .map(
      ([key, list]) =>
        `${key} ×${list.length}:\n${list
          .slice(0, 5)
          .map((f) => `    ${show(f.query)}\n      → ${f.message}`)
          .join("\n")}`,
    )
    .join("\n");
}

describe("TQL fuzzing: the engine", () => {
  const dir = makeTempDir("vigil-tql-fuzz-");
  let executor: TelemetryExecutor;
  let service: TqlService;

  beforeAll(async () => {
    executor = createChdbExecutor({ path: dir.path, database: "vigil" });
    await ensureTelemetrySchema(executor, { retentionDays: 3650 });
    const ts = new Date(Date.now() - 60_000).toISOString().replace("T", " ").replace("Z", "");
    const both = (row: (project: string, i: number) => Record<string, unknown>) =>
      [PROJECT_B, PROJECT_A, PROJECT_B, PROJECT_A].map((project, i) => row(project, i));
    const svc = (project: string) => (project === PROJECT_A ? "fuzz-svc" : "victim-secret-svc");
    const msg = (project: string) => (project === PROJECT_A ? "fuzz message" : "VICTIM-SECRET log");
    // Both projects in one insert, as the batch writer does: their rows share parts.
    await executor.insert(
      "traces",
      both((p, i) => ({
        project_id: p,
        timestamp: ts,
        trace_id: `${i}`.padStart(32, "a"),
        span_id: `${i}`.padStart(16, "b"),
        service_name: svc(p),
        operation_name: "op",
        status: i % 2 ? "ok" : "error",
        duration_ms: 10 * i,
        events_name: ["exception"],
      })),
    );
    await executor.insert(
      "logs",
      both((p, i) => ({
        project_id: p,
        timestamp: ts,
        trace_id: `${i}`.padStart(32, "a"),
        service_name: svc(p),
        level: "error",
        message: msg(p),
      })),
    );
    await executor.insert(
      "metrics",
      both((p) => ({
        project_id: p,
        timestamp: ts,
        metric_name: svc(p),
        metric_type: "gauge",
        value: 1,
      })),
    );
    await executor.insert(
      "error_groups",
      both((p, i) => ({
        project_id: p,
        fingerprint: `fp${i}`,
        message: msg(p),
        services: [svc(p)],
        first_seen: ts,
        last_seen: ts,
        version: 1,
      })),
    );
    service = createTqlService({
      executor,
      limits: { maxExecutionSeconds: 2, maxMemoryBytes: 256 * 1024 * 1024, maxRowsToRead: 1e9 },
    });
  });
  afterAll(async () => {
    await executor?.close();
    dir.remove();
  });

  it(`maps every engine error of ${ENGINE_INPUTS}+ compiled fuzz inputs to a query error or a limit`, {
    timeout: 240_000,
  }, async () => {
    const inputs = [...engineInputs(), ...ENGINE_PROBES];
    expect(inputs.length).toBeGreaterThanOrEqual(400);
    // Most of them reach the engine through something other than the generated calls.
    const calls = new Set(getCorpus().calls);
    expect(inputs.filter((text) => !calls.has(text)).length).toBeGreaterThan(200);
    const started = performance.now();
    const failures = await runAll((query) => service.query(PROJECT_A, query), inputs);
    console.info(
      `engine: ${inputs.length} queries in ${Math.round(performance.now() - started)} ms, ${failures.length} failures`,
    );
    expect(failures, `\n${report(failures)}`).toEqual([]);
  });
});
