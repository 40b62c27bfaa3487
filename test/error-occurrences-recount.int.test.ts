import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const T = Date.now() - 3_600_000;
const time = (ms: number) => new Date(ms).toISOString().replace("T", " ").replace("Z", "");
const P = "prj_recount";

/**
 * A data directory from before error_occurrences.log_id counted an exception event and its log
 * of the same span as two occurrences. Starting the release that adds the column takes those
 * second sources off the groups' counts, once.
 */
describe("error groups counted by an earlier release", () => {
  const dir = makeTempDir();
  let executor: TelemetryExecutor;

  const counts = async () =>
    Object.fromEntries(
      (
        await executor.query<{ fingerprint: string; occurrence_count: string }>(
          "SELECT fingerprint, occurrence_count FROM vigil.error_groups FINAL WHERE project_id = {p:String} ORDER BY fingerprint",
          { params: { p: P } },
        )
      ).map((r) => [r.fingerprint, Number(r.occurrence_count)]),
    );

  beforeAll(async () => {
    executor = createChdbExecutor({ path: dir.path, database: "vigil", sessions: 2 });
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
    // The earlier release's table: no log_id.
    await executor.command("ALTER TABLE vigil.error_occurrences DROP COLUMN log_id");
    const occurrence = (fingerprint: string, n: number, span: string, message = "boom") => ({
      project_id: P,
      fingerprint,
      timestamp: time(T + n),
      service_name: "api",
      trace_id: span ? "a".repeat(32) : "",
      span_id: span,
      source: "backend",
      message,
    });
    await executor.insert("error_occurrences", [
      // fp_twice: two spans, each with its exception event and its log: 4 rows, 2 occurrences.
      occurrence("fp_twice", 1, "1".repeat(16)),
      occurrence("fp_twice", 2, "1".repeat(16)),
      occurrence("fp_twice", 3, "2".repeat(16)),
      occurrence("fp_twice", 4, "2".repeat(16)),
      // fp_distinct: one span, two different messages; and two logs without a span.
      occurrence("fp_distinct", 5, "3".repeat(16), "first"),
      occurrence("fp_distinct", 6, "3".repeat(16), "second"),
      occurrence("fp_distinct", 7, ""),
      occurrence("fp_distinct", 8, ""),
    ]);
    const group = (fingerprint: string, count: number) => ({
      project_id: P,
      fingerprint,
      exception_type: "TypeError",
      message: "boom",
      stacktrace: "",
      culprit: "",
      first_seen: time(T),
      last_seen: time(T + 8),
      occurrence_count: count,
      status: "active",
      resolved_at: time(0),
      severity: "medium",
      services: ["api"],
      sample_trace_id: "",
      sample_span_id: "",
      source: "backend",
      version: 5,
    });
    // fp_twice also had 3 occurrences whose rows the retention has since removed.
    await executor.insert("error_groups", [group("fp_twice", 7), group("fp_distinct", 4)]);
  }, 60_000);
  afterAll(async () => {
    await executor?.close();
    dir.remove();
  });

  it("takes the second sources off the counts when the release starts, and only then", async () => {
    expect(await counts()).toEqual({ fp_distinct: 4, fp_twice: 7 });
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
    expect(await counts()).toEqual({ fp_distinct: 4, fp_twice: 5 });
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
    expect(await counts()).toEqual({ fp_distinct: 4, fp_twice: 5 });
  });
});
