import { describe, expect, it } from "vitest";
import { type PathSegment, parseJsonPath } from "../../contracts/json-path.js";
import { jsonValueText, readJsonPath, resolveJsonPath } from "./json-path.js";
import { type JsonValue, parseJsonText } from "./json-text.js";
import type { ReadCache } from "./read-value.js";

const segments = (path: string): PathSegment[] => {
  const parsed = parseJsonPath(path);
  if (!parsed.ok) throw new Error(`expected '${path}' to parse: ${parsed.message}`);
  return parsed.segments;
};
const refusal = (path: string): string => {
  const parsed = parseJsonPath(path);
  if (parsed.ok) throw new Error(`expected '${path}' to be refused`);
  return parsed.message;
};
const doc = (text: string): JsonValue => {
  const value = parseJsonText(text);
  if (value === undefined) throw new Error("test document is not JSON");
  return value;
};

describe("parseJsonPath: the supported syntax", () => {
  it.each<[string, PathSegment[]]>([
    ["$", []],
    ["$.a", [{ key: "a" }]],
    ["$.a.b", [{ key: "a" }, { key: "b" }]],
    ["$.items[0].id", [{ key: "items" }, { index: 0 }, { key: "id" }]],
    ["a", [{ key: "a" }]],
    ["a.b", [{ key: "a" }, { key: "b" }]],
    ["items[0].id", [{ key: "items" }, { index: 0 }, { key: "id" }]],
    ["$[0]", [{ index: 0 }]],
    ["[0].x", [{ index: 0 }, { key: "x" }]],
    ["$[0][12]", [{ index: 0 }, { index: 12 }]],
    ["$['odd.key']", [{ key: "odd.key" }]],
    ['$["odd.key"].x', [{ key: "odd.key" }, { key: "x" }]],
    ["$.a['b c']", [{ key: "a" }, { key: "b c" }]],
    ["$['']", [{ key: "" }]],
    ["$[ 'spaced' ]", [{ key: "spaced" }]],
    ["$['a:b']", [{ key: "a:b" }]],
    ["$['a,b']", [{ key: "a,b" }]],
    ["$['a]b']", [{ key: "a]b" }]],
    ["$['*']", [{ key: "*" }]],
    [`$["it's"]`, [{ key: "it's" }]],
    ["$.my-key.sub-key", [{ key: "my-key" }, { key: "sub-key" }]],
    ["$.x-request-id", [{ key: "x-request-id" }]],
    ["$.$ref", [{ key: "$ref" }]],
    ["$.ключ", [{ key: "ключ" }]],
    ["  $.a  ", [{ key: "a" }]],
  ])("%s", (path, expected) => {
    expect(segments(path)).toEqual(expected);
  });
});

describe("parseJsonPath: refusals name what is unsupported", () => {
  it.each([
    ["$..a", "recursive descent"],
    ["$.a..b", "recursive descent"],
    ["$.a..", "recursive descent"],
    ["$.*", "wildcards (*)"],
    ["*", "wildcards (*)"],
    ["$.a*", "wildcards (*)"],
    ["$.a[*]", "wildcards ([*])"],
    ["$.a[?(@.x)]", "filters"],
    ["$.a[?(@.x[0])]", "filters"],
    ["$.a[0:2]", "array slices"],
    ["$.a[:]", "array slices"],
    ["$.a[0,1]", "unions"],
    ["$['a','b']", "unions"],
    ["$.a[-1]", "negative indexes"],
    ["$.a[0", "a '[' is not closed"],
    ["$[", "a '[' is not closed"],
    ["$['a'", "a '[' is not closed"],
    ["$.a.", "a member name is missing at position 5"],
    ["$.", "a member name is missing at position 3"],
    [".a", "a member name is missing at position 1"],
    ["$a", "unexpected 'a' at position 2"],
    ["$.a]", "unexpected ']' at position 4"],
    ["$[x]", "'[x]' is not an array index or a quoted name"],
    ["$[]", "'[]' is not an array index or a quoted name"],
    ["$[1.5]", "'[1.5]' is not an array index or a quoted name"],
    ["$[1234567890]", "is not an array index"],
  ])("%s → %s", (path, message) => {
    expect(refusal(path)).toContain(message);
  });

  it("quotes the path in its message", () => {
    expect(refusal("$..a")).toBe("recursive descent (..) is not supported in '$..a'");
  });

  it("refuses an empty or blank path", () => {
    expect(refusal("")).toBe("the JSON path is empty");
    expect(refusal("   ")).toBe("the JSON path is empty");
  });
});

describe("resolveJsonPath", () => {
  const document = doc(
    '{"a":{"b":"deep"},"items":[{"id":7},{"id":8}],"s":"text","odd.key":1,"n":null,"__proto__":{"x":1}}',
  );
  const resolve = (path: string) => resolveJsonPath(document, segments(path));

  it("finds values", () => {
    expect(resolve("$.a.b")).toEqual({ found: true, value: "deep" });
    expect(jsonValueText((resolve("$.items[1].id") as { value: JsonValue }).value)).toBe("8");
    expect(resolve("$['odd.key']").found).toBe(true);
    expect(resolve("$.n")).toEqual({ found: true, value: null });
    expect(jsonValueText((resolve("$.__proto__.x") as { value: JsonValue }).value)).toBe("1");
    expect(resolve("$")).toEqual({ found: true, value: document });
  });

  it.each([
    ["$.missing", "$.missing does not exist"],
    ["$.a.missing", "$.a.missing does not exist"],
    ["$.items[2]", "$.items[2] does not exist"],
    ["$.items[5].id", "$.items[5] does not exist"],
    ["$.items.id", "$.items.id does not exist"],
    ["$.a[0]", "$.a[0] does not exist"],
    ["$.s[0]", "$.s[0] does not exist"],
    ["$.s.length", "$.s.length does not exist"],
    ["$.n.x", "$.n.x does not exist"],
    ["$.constructor", "$.constructor does not exist"],
    ["$.items.length", "$.items.length does not exist"],
  ])("%s does not resolve", (path, reason) => {
    expect(resolve(path)).toEqual({ found: false, reason });
  });

  it("reads an index on a top-level array", () => {
    expect(resolveJsonPath(doc('[{"x":"y"}]'), segments("[0].x"))).toEqual({
      found: true,
      value: "y",
    });
    expect(resolveJsonPath(doc('{"0":"y"}'), segments("$[0]")).found).toBe(false);
  });
});

describe("jsonValueText", () => {
  it("gives strings as they are, numbers as written, literals and containers as JSON text", () => {
    expect(jsonValueText(doc('"a \\"quoted\\" text"'))).toBe('a "quoted" text');
    expect(jsonValueText(doc('""'))).toBe("");
    expect(jsonValueText(doc("1.50"))).toBe("1.50");
    expect(jsonValueText(doc("-0"))).toBe("-0");
    expect(jsonValueText(doc("1e3"))).toBe("1e3");
    expect(jsonValueText(doc("12345678901234567890"))).toBe("12345678901234567890");
    expect(jsonValueText(doc("true"))).toBe("true");
    expect(jsonValueText(doc("false"))).toBe("false");
    expect(jsonValueText(doc("null"))).toBe("null");
    expect(jsonValueText(doc('{ "a" : [ 1 , "x" ] , "b" : { } }'))).toBe('{"a":[1,"x"],"b":{}}');
    expect(jsonValueText(doc("[ ]"))).toBe("[]");
    expect(jsonValueText(doc("{}"))).toBe("{}");
  });
});

describe("readJsonPath", () => {
  it("reads a value, parsing the body once per cache", () => {
    const cache: ReadCache = {};
    const body = '{"a":{"b":[1.0,2]}}';
    expect(readJsonPath(body, "$.a.b[0]", cache)).toEqual({ kind: "value", value: "1.0" });
    expect(cache.json?.ok).toBe(true);
    // The cached document is used, whatever body is passed afterwards.
    expect(readJsonPath("not json", "a.b", cache)).toEqual({ kind: "value", value: "[1.0,2]" });
  });

  it("reports a body that is not JSON as absent", () => {
    expect(readJsonPath("<html>", "$.a", {})).toEqual({
      kind: "absent",
      reason: "the response body is not JSON",
    });
    expect(readJsonPath("", "$", {})).toEqual({
      kind: "absent",
      reason: "the response body is not JSON",
    });
  });

  it("reports an unresolved path as absent", () => {
    expect(readJsonPath('{"a":1}', "$.b", {})).toEqual({
      kind: "absent",
      reason: "$.b does not exist",
    });
  });

  it("reports a refused or empty path as invalid", () => {
    expect(readJsonPath('{"a":1}', "$..a", {})).toEqual({
      kind: "invalid",
      message: "Invalid JSON path: recursive descent (..) is not supported in '$..a'",
    });
    expect(readJsonPath('{"a":1}', " ", {})).toEqual({
      kind: "invalid",
      message: "The JSON path is empty: enter a path such as $.data.id",
    });
  });
});
