import { describe, expect, it } from "vitest";
import {
  DashboardExport,
  type DashboardVariable,
  PANEL_TYPES,
} from "../src/contracts/dashboards.js";
import { aiUsage } from "../src/dashboards/templates/ai-usage.js";
import { hostMetrics } from "../src/dashboards/templates/host-metrics.js";
import {
  DASHBOARD_TEMPLATES,
  type DashboardTemplate,
  findTemplate,
} from "../src/dashboards/templates/index.js";
import { monitorsUptime } from "../src/dashboards/templates/monitors-uptime.js";
import { runtime } from "../src/dashboards/templates/runtime.js";
import { serviceOverview } from "../src/dashboards/templates/service-overview.js";
import { compileTql } from "../src/tql/compile.js";

/** The shipped templates as documents: valid exports whose every query compiles with its values. */
const SOURCES: DashboardTemplate[] = [
  serviceOverview,
  hostMetrics,
  runtime,
  aiUsage,
  monitorsUptime,
];

/** The window and one value per variable, as the dashboard binds them. */
function parametersOf(variables: readonly DashboardVariable[]): Record<string, unknown> {
  const values: Record<string, unknown> = {
    from: "2026-03-01T10:00:00.000Z",
    to: "2026-03-01T11:00:00.000Z",
    bucket_seconds: 12,
  };
  for (const v of variables) values[v.name] = v.multi ? ["a", "b"] : "a";
  return values;
}

const compile = (text: string, parameters?: Record<string, unknown>) =>
  compileTql(text, { database: "vigil", rowCap: 10_001, ...(parameters ? { parameters } : {}) });

describe("dashboard templates", () => {
  it("ships the five templates, in the gallery's order, with unique ids", () => {
    expect(DASHBOARD_TEMPLATES.map((t) => t.id)).toEqual([
      "service-overview",
      "host-metrics",
      "runtime",
      "ai-usage",
      "monitors-uptime",
    ]);
    expect(findTemplate("host-metrics")?.title).toBe("Host metrics");
    expect(findTemplate("nope")).toBeUndefined();
  });

  it("parses each document with the export schema, as an import would", () => {
    for (const source of SOURCES) {
      const parsed = DashboardExport.safeParse(source.dashboard);
      expect(parsed.success, `${source.id}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      // A JSON round trip (an export file) parses to the same document.
      const file = JSON.parse(JSON.stringify(parsed.data));
      expect(DashboardExport.parse(file)).toEqual(parsed.data);
      expect(source.howToSend.trim().length, source.id).toBeGreaterThan(50);
      expect(source.tags.length, source.id).toBeGreaterThan(0);
    }
  });

  it("gives every panel a unique id and a place inside the grid without overlaps", () => {
    for (const { id, dashboard } of DASHBOARD_TEMPLATES) {
      const ids = dashboard.panels.map((p) => p.id);
      expect(new Set(ids).size, id).toBe(ids.length);
      const taken = new Set<string>();
      for (const panel of dashboard.panels) {
        const { x, y, w, h } = panel.gridPos;
        for (let dx = 0; dx < w; dx++)
          for (let dy = 0; dy < h; dy++) {
            const cell = `${x + dx},${y + dy}`;
            expect(taken.has(cell), `${id}/${panel.id} overlaps at ${cell}`).toBe(false);
            taken.add(cell);
          }
      }
      for (const row of dashboard.rows)
        for (let x = 0; x < 12; x++)
          expect(taken.has(`${x},${row.y}`), `${id}: row ${row.title}`).toBe(false);
    }
  });

  it("compiles every panel and variable query with the window and its variables", () => {
    let queries = 0;
    for (const { id, dashboard } of DASHBOARD_TEMPLATES) {
      const parameters = parametersOf(dashboard.variables);
      const texts = [
        ...dashboard.variables.flatMap((v) => (v.type === "query" ? [v.tql] : [])),
        ...dashboard.panels.flatMap((p) => p.queries.map((q) => q.tql)),
      ];
      for (const text of texts) {
        expect(() => compile(text, parameters), `${id}: ${text}`).not.toThrow();
        queries++;
      }
    }
    expect(queries).toBeGreaterThan(50);
  });

  it("uses only its declared variables and the window's placeholders", () => {
    for (const { id, dashboard } of DASHBOARD_TEMPLATES) {
      const declared = new Set(["from", "to", "bucket_seconds"]);
      for (const v of dashboard.variables) declared.add(v.name);
      for (const panel of dashboard.panels)
        for (const { tql } of panel.queries)
          for (const [, name] of tql.matchAll(/\{([A-Za-z_]\w*):/g))
            expect(declared.has(name ?? ""), `${id}/${panel.id}: {${name}}`).toBe(true);
    }
  });

  it("has data checks that compile alone (no placeholders) and end in a LIMIT", () => {
    for (const template of DASHBOARD_TEMPLATES) {
      expect(() => compile(template.dataCheck), template.id).not.toThrow();
      expect(template.dataCheck, template.id).toMatch(/LIMIT 1$/);
    }
  });

  it("uses stat, timeseries, table, bargauge, pie and heatmap panels across the templates", () => {
    const used = new Set(DASHBOARD_TEMPLATES.flatMap((t) => t.dashboard.panels.map((p) => p.type)));
    for (const type of ["stat", "timeseries", "table", "bargauge", "pie", "heatmap"] as const)
      expect(used, type).toContain(type);
    for (const type of used) expect(PANEL_TYPES).toContain(type);
    const overview = findTemplate("service-overview");
    expect(overview?.dashboard.variables[0]).toMatchObject({
      name: "service",
      multi: true,
      includeAll: true,
    });
    expect(findTemplate("host-metrics")?.dashboard.variables[0]?.name).toBe("host");
  });
});
