import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../lib/domain-errors.js";
import { compileTql } from "../tql/compile.js";
import { compilePreset, PRESET_KINDS, PRESETS, tqlString } from "./presets.js";

const compile = (text: string) => compileTql(text, { database: "vigil", rowCap: 0 });

/** Every preset, plainly and with every option, must compile with the TQL compiler. */
const CASES: Record<string, Record<string, unknown>[]> = {
  error_rate: [{}, { window: "1h", service: "api", route: "/orders/:id", groupBy: "route" }],
  latency_percentile: [
    {},
    { percentile: 99.9, service: "api", route: "/x", groupBy: "service", window: "15m" },
  ],
  log_count: [
    {},
    { level: "error", service: "api", search: `timeout "it's 100%" back\\slash`, groupBy: "level" },
  ],
  error_group_occurrences: [
    {},
    { errorId: "0123456789abcdef0123456789abcdef", service: "api", groupBy: "error_id" },
  ],
  metric_aggregate: [
    { metric: "queue.depth" },
    { metric: "cpu", aggregation: "percentile", percentile: 90, groupBy: "host.name" },
    { metric: "cpu", aggregation: "last", service: "api", groupBy: "service" },
  ],
};

const fieldOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidInputError) return error.issues[0]?.field;
    throw error;
  }
  return undefined;
};

describe("alert presets", () => {
  it("has a case for every preset", () => {
    expect(Object.keys(CASES).sort()).toEqual([...PRESET_KINDS].sort());
  });

  it("registers exactly the contract's kinds, in its order", () => {
    expect(Object.keys(PRESETS)).toEqual([...PRESET_KINDS]);
  });

  for (const [kind, cases] of Object.entries(CASES))
    for (const params of cases)
      it(`${kind} ${JSON.stringify(params)} compiles to TQL returning value`, () => {
        const { query, preset } = compilePreset({ kind, params });
        expect(preset.kind).toBe(kind);
        expect(preset.params).toMatchObject(params);
        expect(query).toMatch(/ AS value FROM /);
        const printed = compile(query);
        expect(printed.sql).toContain("LIMIT 0");
      });

  it("keeps defaults in the stored params and labels grouped series", () => {
    const rate = compilePreset({ kind: "error_rate", params: { groupBy: "service" } });
    expect(rate.preset.params).toEqual({ window: "5m", groupBy: "service" });
    expect(rate.query).toBe(
      "SELECT service_name AS service, if(sum(request_count) = 0, NULL, 100 * sum(error_count) / sum(request_count)) AS value FROM http_requests WHERE timestamp >= now() - INTERVAL 5 MINUTE GROUP BY service",
    );
    // In percent, as the Overview shows an error rate: a threshold past 100 is refused.
    expect(rate.range).toEqual({ unit: "percent", min: 0, max: 100 });
    const metric = compilePreset({
      kind: "metric_aggregate",
      params: { metric: "m", groupBy: "host.name" },
    });
    expect(metric.query).toContain("attributes['host.name'] AS host_name");
    expect(metric.query).toContain("GROUP BY host_name");
  });

  it("escapes user text into TQL string literals", () => {
    expect(tqlString("it's a \\ path")).toBe("'it\\'s a \\\\ path'");
    const { query } = compilePreset({ kind: "log_count", params: { search: "50%_off" } });
    expect(query).toContain("lower(message) LIKE '%50\\\\%\\\\_off%'");
  });

  it("names the bad field of a preset", () => {
    expect(fieldOf(() => compilePreset({ kind: "nope", params: {} }))).toBe("preset.kind");
    expect(fieldOf(() => compilePreset({ kind: "error_rate", params: { window: "2d" } }))).toBe(
      "preset.params.window",
    );
    expect(fieldOf(() => compilePreset({ kind: "metric_aggregate", params: {} }))).toBe(
      "preset.params.metric",
    );
    expect(
      fieldOf(() =>
        compilePreset({
          kind: "metric_aggregate",
          params: { metric: "m", aggregation: "percentile" },
        }),
      ),
    ).toBe("preset.params.percentile");
    expect(fieldOf(() => compilePreset({ kind: "error_rate", params: { groupBy: "host" } }))).toBe(
      "preset.params.groupBy",
    );
  });
});
