/**
 * The query builder's compiler: each filter operator, each aggregation, group/order/limit and
 * each bucket as TQL text, the alert's form (a `value` per series over the last minutes), and
 * every generated query compiling with compileTql for its target (alert: with no window given,
 * as the evaluator runs it).
 */
import { describe, expect, it } from "vitest";
import { FILTER_OPS, type Filter } from "../src/contracts/explore-filters.js";
import {
  BUILDER_FUNCTIONS,
  BuilderQuery,
  type BuilderQueryInput,
} from "../src/contracts/query-builder.js";
import {
  BuilderQueryError,
  type BuilderTarget,
  builderToTql,
} from "../src/contracts/query-builder-tql.js";
import { compileTql } from "../src/tql/compile.js";

const WINDOW = { from: "2026-03-01T10:00:00Z", to: "2026-03-01T11:00:00Z", bucket_seconds: 60 };
const TARGETS: BuilderTarget[] = ["table", "chart", "alert"];

const build = (input: BuilderQueryInput, target: BuilderTarget = "table") =>
  builderToTql(BuilderQuery.parse(input), { target });

/** Compiles as its target runs it: a table or chart with the window, an alert without. */
function compiles(text: string, target: BuilderTarget): void {
  const parameters = target === "alert" ? {} : WINDOW;
  expect(() => compileTql(text, { database: "vigil", rowCap: 10_001, parameters })).not.toThrow();
}

const count = { aggregations: [{ fn: "count" as const }] };

describe("query builder → TQL", () => {
  it("writes a count per group, one clause per line, in the window", () => {
    expect(
      build({
        source: "traces",
        filters: [{ field: "service_name", op: "=", value: "checkout" }],
        aggregations: [{ fn: "count" }, { fn: "p95", field: "duration_ms" }],
        groupBy: ["http_route"],
        limit: 10,
      }),
    ).toBe(
      [
        "SELECT http_route, count() AS count, quantile(0.95)(`duration_ms`) AS p95_duration_ms",
        "FROM traces",
        "WHERE $__timeFilter(timestamp)",
        "  AND `service_name` = 'checkout'",
        "GROUP BY http_route",
        "ORDER BY count DESC",
        "LIMIT 10",
      ].join("\n"),
    );
  });

  const op = (filter: Filter) =>
    build({ source: "traces", filters: [filter], ...count })
      .split("\n")
      .find((l) => l.startsWith("  AND "))
      ?.slice(6);

  it("writes each filter operator through the shared filter expression, values quoted", () => {
    const cases: [Filter, string][] = [
      [{ field: "service_name", op: "=", value: "api" }, "`service_name` = 'api'"],
      [{ field: "attributes.user.id", op: "!=", value: "o'b" }, "attributes['user.id'] != 'o\\'b'"],
      [
        { field: "resource.host.name", op: "in", value: ["a", "b"] },
        "resource_attributes['host.name'] IN ('a', 'b')",
      ],
      [
        { field: "http_status_code", op: "not_in", value: ["500", "503"] },
        "`http_status_code` NOT IN (500, 503)",
      ],
      [
        { field: "status_message", op: "contains", value: "time" },
        "positionCaseInsensitiveUTF8(toString(`status_message`), 'time') > 0",
      ],
      [
        { field: "status_message", op: "not_contains", value: "time" },
        "positionCaseInsensitiveUTF8(toString(`status_message`), 'time') = 0",
      ],
      [
        { field: "http_route", op: "regex", value: "^/api" },
        "match(toString(`http_route`), '^/api')",
      ],
      [
        { field: "http_route", op: "not_regex", value: "^/api" },
        "NOT match(toString(`http_route`), '^/api')",
      ],
      [{ field: "attributes.db.system", op: "exists" }, "mapContains(attributes, 'db.system')"],
      [
        { field: "attributes.db.system", op: "not_exists" },
        "NOT mapContains(attributes, 'db.system')",
      ],
      [{ field: "duration_ms", op: ">", value: 250 }, "`duration_ms` > 250"],
      [{ field: "duration_ms", op: ">=", value: 250 }, "`duration_ms` >= 250"],
      [
        { field: "attributes.retries", op: "<", value: 3 },
        "toFloat64OrNull(attributes['retries']) < 3",
      ],
      [{ field: "http_status_code", op: "<=", value: 399 }, "`http_status_code` <= 399"],
    ];
    expect(cases.map(([f]) => f.op).sort()).toEqual([...FILTER_OPS].sort());
    for (const [filter, expected] of cases) {
      expect(op(filter), filter.op).toBe(expected);
      for (const target of TARGETS)
        compiles(build({ source: "traces", filters: [filter], ...count }, target), target);
    }
  });

  it("writes each aggregation, attributes read as numbers", () => {
    const expected: Record<(typeof BUILDER_FUNCTIONS)[number], [string | undefined, string]> = {
      count: [undefined, "count() AS count"],
      rate: [
        undefined,
        "count() / ((toUnixTimestamp64Milli({to:DateTime64(3)}) - toUnixTimestamp64Milli({from:DateTime64(3)})) / 1000) AS rate",
      ],
      sum: [
        "attributes.bytes",
        "sum(toFloat64OrNull(attributes['bytes'])) AS sum_attributes_bytes",
      ],
      avg: ["duration_ms", "avg(`duration_ms`) AS avg_duration_ms"],
      min: ["resource.cpu", "min(toFloat64OrNull(resource_attributes['cpu'])) AS min_resource_cpu"],
      max: ["http_status_code", "max(`http_status_code`) AS max_http_status_code"],
      p50: ["duration_ms", "quantile(0.5)(`duration_ms`) AS p50_duration_ms"],
      p90: ["duration_ms", "quantile(0.9)(`duration_ms`) AS p90_duration_ms"],
      p95: ["duration_ms", "quantile(0.95)(`duration_ms`) AS p95_duration_ms"],
      p99: [
        "attributes.ms",
        "quantile(0.99)(toFloat64OrNull(attributes['ms'])) AS p99_attributes_ms",
      ],
      count_distinct: ["trace_id", "uniq(`trace_id`) AS count_distinct_trace_id"],
    };
    for (const fn of BUILDER_FUNCTIONS) {
      const [field, column] = expected[fn];
      const input = { source: "traces" as const, aggregations: [{ fn, field }] };
      expect(build(input).split("\n")[0], fn).toBe(`SELECT ${column}`);
      for (const target of TARGETS) compiles(build(input, target), target);
    }
    // A rate of a field sums it per second.
    expect(
      build({
        source: "logs",
        aggregations: [{ fn: "rate", field: "attributes.bytes" }],
        bucket: 10,
      }),
    ).toContain("sum(toFloat64OrNull(attributes['bytes'])) / 10 AS rate_attributes_bytes");
  });

  it("buckets: auto through $__timeInterval, fixed seconds, none; rate per bucket", () => {
    const auto = build({ source: "logs", aggregations: [{ fn: "rate" }], bucket: "auto" });
    expect(auto).toBe(
      [
        "SELECT $__timeInterval(timestamp) AS t, count() / {bucket_seconds:UInt32} AS rate",
        "FROM logs",
        "WHERE $__timeFilter(timestamp)",
        "GROUP BY t",
        "ORDER BY t",
      ].join("\n"),
    );
    const fixed = build({ source: "logs", aggregations: [{ fn: "rate" }], bucket: 30 });
    expect(fixed).toContain(
      "SELECT toStartOfInterval(timestamp, INTERVAL 30 SECOND) AS t, count() / 30 AS rate",
    );
    // A chart is over time: no bucket becomes auto.
    expect(build({ source: "logs", ...count, bucket: "none" }, "chart")).toContain(
      "$__timeInterval(timestamp) AS t",
    );
    for (const bucket of ["auto", 30, "none"] as const)
      for (const target of TARGETS)
        compiles(build({ source: "logs", aggregations: [{ fn: "rate" }], bucket }, target), target);
  });

  it("a bucketed, grouped query keeps the top `limit` groups by the order, as series", () => {
    const input: BuilderQueryInput = {
      source: "traces",
      aggregations: [{ fn: "count" }, { fn: "avg", field: "duration_ms" }],
      groupBy: ["service_name", "attributes.http.route"],
      orderBy: { by: 1, dir: "desc" },
      limit: 5,
      bucket: "auto",
    };
    const text = build(input);
    expect(text).toBe(
      [
        "SELECT $__timeInterval(timestamp) AS t, service_name, attributes['http.route'] AS attributes_http_route, count() AS count, avg(`duration_ms`) AS avg_duration_ms",
        "FROM traces",
        "WHERE $__timeFilter(timestamp)",
        "  AND (service_name, attributes['http.route']) IN (",
        "    SELECT service_name, attributes['http.route']",
        "    FROM traces",
        "    WHERE $__timeFilter(timestamp)",
        "    GROUP BY service_name, attributes['http.route']",
        "    ORDER BY avg(`duration_ms`) DESC",
        "    LIMIT 5",
        "  )",
        "GROUP BY t, service_name, attributes_http_route",
        "ORDER BY t, service_name, attributes_http_route",
      ].join("\n"),
    );
    for (const target of TARGETS) compiles(build(input, target), target);
  });

  it("orders by a group field or an aggregation, either way, and limits", () => {
    const base = {
      source: "logs" as const,
      aggregations: [
        { fn: "count" as const },
        { fn: "count_distinct" as const, field: "trace_id" },
      ],
      groupBy: ["level"],
    };
    expect(build({ ...base, orderBy: { by: "level", dir: "asc" }, limit: 3 })).toMatch(
      /\nORDER BY level ASC\nLIMIT 3$/,
    );
    expect(build({ ...base, orderBy: { by: 1, dir: "asc" } })).toMatch(
      /\nORDER BY count_distinct_trace_id ASC\nLIMIT 100$/,
    );
    expect(
      build({ ...base, orderBy: { by: "level", dir: "desc" }, bucket: 60 }).split("\n"),
    ).toContain("    ORDER BY level DESC");
  });

  it("names columns off the source's own: count over metrics, an attribute named like a column", () => {
    const text = build({
      source: "metrics",
      aggregations: [{ fn: "count" }, { fn: "sum", field: "value" }],
      groupBy: ["attributes.metric_name", "attributes.value"],
      filters: [{ field: "count", op: ">", value: 1 }],
    });
    expect(text.split("\n")[0]).toBe(
      "SELECT attributes['metric_name'] AS attributes_metric_name, attributes['value'] AS attributes_value, count() AS count_2, sum(`value`) AS sum_value",
    );
    compiles(text, "table");
  });

  it("for an alert: the first aggregation as value, labels, the last window seconds, no bucket, order or limit", () => {
    const text = build(
      {
        source: "logs",
        filters: [{ field: "level", op: "=", value: "error" }],
        aggregations: [{ fn: "rate" }, { fn: "count" }],
        groupBy: ["service_name", "resource.host.name"],
        bucket: "auto",
        limit: 3,
        window: 600,
      },
      "alert",
    );
    expect(text).toBe(
      [
        "SELECT service_name, resource_attributes['host.name'] AS resource_host_name, count() / 600 AS value",
        "FROM logs",
        "WHERE timestamp >= now() - INTERVAL 600 SECOND",
        "  AND `level` = 'error'",
        "GROUP BY service_name, resource_host_name",
      ].join("\n"),
    );
    compiles(text, "alert");
    expect(build({ source: "logs", ...count }, "alert")).toContain("INTERVAL 300 SECOND");
  });

  it("an alert filtering on metrics' value column names its number apart, then value", () => {
    const text = build(
      {
        source: "metrics",
        filters: [{ field: "value", op: ">", value: 0 }],
        aggregations: [{ fn: "avg", field: "value" }],
        groupBy: ["value", "metric_name"],
      },
      "alert",
    );
    expect(text).toBe(
      [
        "SELECT value_2, metric_name, avg_value AS value",
        "FROM (",
        "  SELECT value AS value_2, metric_name, avg(`value`) AS avg_value",
        "  FROM metrics",
        "  WHERE timestamp >= now() - INTERVAL 300 SECOND",
        "    AND `value` > 0",
        "  GROUP BY value_2, metric_name",
        ")",
      ].join("\n"),
    );
    compiles(text, "alert");
  });

  it("refuses fields the source lacks, naming their paths", () => {
    const issues = (input: unknown) => {
      const parsed = BuilderQuery.safeParse(input);
      return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join("."));
    };
    expect(
      issues({
        source: "logs",
        filters: [{ field: "duration_ms", op: ">", value: 1 }],
        aggregations: [
          { fn: "avg", field: "nope" },
          { fn: "sum" },
          { fn: "count", field: "level" },
        ],
        groupBy: ["level", "level", "bogus"],
        orderBy: { by: 9, dir: "asc" },
      }),
    ).toEqual([
      "filters.0.field",
      "aggregations.0.field",
      "aggregations.1.field",
      "aggregations.2.field",
      "groupBy.1",
      "groupBy.2",
      "orderBy.by",
    ]);
    expect(issues({ source: "logs", aggregations: [{ fn: "avg", field: "message" }] })).toEqual([
      "aggregations.0.field",
    ]);
    expect(issues({ source: "logs", ...count, orderBy: { by: "level" } })).toEqual(["orderBy.by"]);
    expect(issues({ source: "logs", aggregations: [] })).toEqual(["aggregations"]);
    expect(issues({ source: "logs", ...count, limit: 10_001 })).toEqual(["limit"]);
    expect(issues({ source: "logs", ...count, bucket: 0 })).toEqual(["bucket"]);
    // The compiler refuses an unchecked query too.
    expect(() =>
      builderToTql(
        {
          source: "logs",
          filters: [],
          aggregations: [{ fn: "sum" }],
          groupBy: [],
          limit: 1,
          bucket: "none",
        },
        { target: "table" },
      ),
    ).toThrow(BuilderQueryError);
  });
});
