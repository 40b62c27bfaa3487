import { describe, expect, it } from "vitest";
import {
  EXPLORE_SOURCES,
  FilterError,
  FiltersParam,
  filterExpression,
  quoteString,
  resolveField,
  SOURCE_COLUMNS,
} from "../src/contracts/explore-filters.js";
import { TELEMETRY_TABLES } from "../src/telemetry/tables.js";

const tql = (field: string, op: string, value?: unknown, source: "traces" | "logs" = "traces") =>
  filterExpression(source, { field, op, value } as never, quoteString);

describe("explore filters", () => {
  it("name only columns the telemetry tables have, with their numeric kind", () => {
    for (const source of EXPLORE_SOURCES) {
      const table = TELEMETRY_TABLES.find((t) => t.name === source);
      const columns = new Map(table?.columns.map((c) => [c.name, c.type]));
      for (const [name, kind] of Object.entries(SOURCE_COLUMNS[source])) {
        const type = columns.get(name);
        expect(type, `${source}.${name}`).toBeDefined();
        expect(/Int|Float/.test(type ?? "") ? "number" : "string", `${source}.${name}`).toBe(kind);
      }
    }
  });

  it("resolve columns, attributes and resource attributes; nothing else", () => {
    expect(resolveField("logs", "level")).toEqual({
      kind: "column",
      column: "level",
      type: "string",
    });
    expect(resolveField("traces", "attributes.http.route")).toEqual({
      kind: "attribute",
      map: "attributes",
      key: "http.route",
    });
    expect(resolveField("metrics", "resource.host.name")).toMatchObject({
      map: "resource_attributes",
      key: "host.name",
    });
    expect(resolveField("logs", "duration_ms")).toBeUndefined();
    expect(resolveField("traces", "attributes.")).toBeUndefined();
  });

  it("compile every operator, every value through the literal", () => {
    expect(tql("service_name", "=", "api")).toBe("`service_name` = 'api'");
    expect(tql("attributes.user.id", "!=", "o'brien")).toBe("attributes['user.id'] != 'o\\'brien'");
    expect(tql("resource.host.name", "in", ["a", "b"])).toBe(
      "resource_attributes['host.name'] IN ('a', 'b')",
    );
    expect(tql("http_status_code", "not_in", [500, "503"])).toBe(
      "`http_status_code` NOT IN (500, 503)",
    );
    expect(tql("status_message", "contains", "Time")).toBe(
      "positionCaseInsensitiveUTF8(toString(`status_message`), 'Time') > 0",
    );
    expect(tql("http_route", "not_regex", "^/api")).toBe(
      "NOT match(toString(`http_route`), '^/api')",
    );
    expect(tql("attributes.db.system", "exists")).toBe("mapContains(attributes, 'db.system')");
    expect(tql("http_route", "not_exists")).toBe("`http_route` = ''");
    expect(tql("duration_ms", ">=", 250)).toBe("`duration_ms` >= 250");
    expect(tql("attributes.retries", "<", 3)).toBe("toFloat64OrNull(attributes['retries']) < 3");
  });

  it("binds instead of quoting when the caller binds", () => {
    const bound: string[] = [];
    const sql = filterExpression(
      "logs",
      { field: "attributes.user.id", op: "=", value: "u1" },
      (text) => {
        bound.push(text);
        return `{p${bound.length}:String}`;
      },
    );
    expect(sql).toBe("attributes[{p1:String}] = {p2:String}");
    expect(bound).toEqual(["user.id", "u1"]);
  });

  it("refuse a field the source lacks, and text for a number column, naming the part", () => {
    expect(() => tql("level", "=", "x")).toThrow(FilterError);
    expect(() => tql("duration_ms", "=", "slow")).toThrow(
      expect.objectContaining({ part: "value", field: "duration_ms" }),
    );
    expect(() => tql("message", "=", "x", "logs")).not.toThrow();
  });

  it("parse the query parameter and name what is wrong", () => {
    expect(FiltersParam.parse('[{"field":"level","op":"exists"}]')).toEqual([
      { field: "level", op: "exists" },
    ]);
    const issues = (text: string) => {
      const result = FiltersParam.safeParse(text);
      return result.success
        ? []
        : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(issues("{")[0]).toMatch(/not JSON/);
    expect(issues('[{"field":"level","op":"in","value":"x"}]')).toEqual([
      "0.value: in takes a non-empty list of values",
    ]);
    expect(issues('[{"field":"level","op":">","value":"3"}]')).toEqual([
      "0.value: > takes a number",
    ]);
    expect(issues('[{"field":"level","op":"exists","value":"x"}]')).toEqual([
      "0.value: exists takes no value",
    ]);
    expect(issues('[{"field":"level","op":"like","value":"x"}]')[0]).toMatch(/^0\.op/);
    expect(issues('[{"field":"message","op":"regex","value":"("}]')[0]).toMatch(
      /^0\.value: not a regular expression/,
    );
    expect(issues('[{"field":"message","op":"not_regex","value":"a(?=b)"}]')[0]).toMatch(
      /^0\.value: lookarounds/,
    );
    expect(issues('[{"field":"message","op":"regex","value":"^/api/.*$"}]')).toEqual([]);
  });
});
