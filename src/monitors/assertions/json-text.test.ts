import { describe, expect, it } from "vitest";
import { JsonNumber, type JsonValue, parseJsonText, stringifyJsonText } from "./json-text.js";

/** The parsed value as plain data: Maps become objects (own __proto__ kept), numbers their text. */
function plain(value: JsonValue | undefined): unknown {
  if (value === undefined || value === null || typeof value !== "object") return value;
  if (value instanceof JsonNumber) return { num: value.text };
  if (Array.isArray(value)) return value.map(plain);
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, member] of value) out[key] = plain(member);
  return out;
}

const num = (text: string) => ({ num: text });

describe("parseJsonText: valid JSON", () => {
  it("reads scalars", () => {
    expect(parseJsonText("null")).toBe(null);
    expect(parseJsonText("true")).toBe(true);
    expect(parseJsonText("false")).toBe(false);
    expect(parseJsonText('"hi"')).toBe("hi");
    expect(parseJsonText('""')).toBe("");
    expect(plain(parseJsonText("42"))).toEqual(num("42"));
  });

  it("reads empty containers", () => {
    expect(parseJsonText("[]")).toEqual([]);
    const empty = parseJsonText("{}");
    expect(empty).toBeInstanceOf(Map);
    expect((empty as Map<string, JsonValue>).size).toBe(0);
    expect(plain(parseJsonText("[ ]"))).toEqual([]);
    expect(plain(parseJsonText("{ \n }"))).toEqual({});
    expect(plain(parseJsonText('{"a":[],"b":{}}'))).toEqual({ a: [], b: {} });
  });

  it("reads nested objects and arrays", () => {
    const text = '{"a":{"b":[1,{"c":[true,false,null]},"x"]},"d":[[[]]]}';
    expect(plain(parseJsonText(text))).toEqual({
      a: { b: [num("1"), { c: [true, false, null] }, "x"] },
      d: [[[]]],
    });
  });

  it("accepts the four JSON whitespace characters everywhere", () => {
    const text = ' \t\n\r{ "a" \t:\n [ 1 ,\r\n2 ] ,"b" : "c" }\n ';
    expect(plain(parseJsonText(text))).toEqual({ a: [num("1"), num("2")], b: "c" });
  });

  it("decodes every escape, including \\u and surrogate pairs", () => {
    expect(parseJsonText(String.raw`"\" \\ \/ \b \f \n \r \t"`)).toBe('" \\ / \b \f \n \r \t');
    expect(parseJsonText(String.raw`"\u0041\u00e9\u4e2d"`)).toBe("Aé中");
    expect(parseJsonText(String.raw`"\ud83d\ude00"`)).toBe("😀");
    expect(parseJsonText(String.raw`"\u0000"`)).toBe("\u0000");
    expect(parseJsonText(String.raw`{"k\"ey":"v"}`)).toEqual(new Map([['k"ey', "v"]]));
    // An escaped backslash right before the closing quote ends the string.
    expect(parseJsonText(String.raw`["a\\","b"]`)).toEqual(["a\\", "b"]);
  });

  it("keeps raw unicode text", () => {
    expect(parseJsonText('"héllo 中文 😀"')).toBe("héllo 中文 😀");
    expect(plain(parseJsonText('{"ключ":"значение"}'))).toEqual({ ключ: "значение" });
  });

  it("keeps numbers exactly as written", () => {
    for (const text of [
      "0",
      "-0",
      "1.50",
      "1e3",
      "1E+3",
      "2.5e-10",
      "-12.0",
      "12345678901234567890",
      "0.1000000000000000000001",
    ]) {
      const value = parseJsonText(text);
      expect(value).toBeInstanceOf(JsonNumber);
      expect((value as JsonNumber).text).toBe(text);
    }
    expect(plain(parseJsonText('{"id":12345678901234567890,"p":1.50}'))).toEqual({
      id: num("12345678901234567890"),
      p: num("1.50"),
    });
  });

  it("treats __proto__ and other Object.prototype names as plain keys", () => {
    const value = parseJsonText('{"__proto__":{"polluted":true},"constructor":1}');
    expect(value).toBeInstanceOf(Map);
    const map = value as Map<string, JsonValue>;
    expect([...map.keys()]).toEqual(["__proto__", "constructor"]);
    expect(map.get("__proto__")).toEqual(new Map([["polluted", true]]));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("keeps the last of duplicate keys (as JSON.parse does)", () => {
    const map = parseJsonText('{"a":1,"b":2,"a":3}') as Map<string, JsonValue>;
    expect(map.size).toBe(2);
    expect((map.get("a") as JsonNumber).text).toBe("3");
    expect(stringifyJsonText(map)).toBe(JSON.stringify(JSON.parse('{"a":1,"b":2,"a":3}')));
  });

  it("reads nesting up to the cap", () => {
    const depth = 500;
    const text = `${"[".repeat(depth)}1${"]".repeat(depth)}`;
    expect(stringifyJsonText(parseJsonText(text) as JsonValue)).toBe(text);
  });
});

describe("parseJsonText: invalid JSON is undefined", () => {
  it.each([
    ["empty text", ""],
    ["whitespace only", "  \n"],
    ["trailing comma in an array", "[1,2,]"],
    ["trailing comma in an object", '{"a":1,}'],
    ["a lone comma", "[,]"],
    ["missing comma", "[1 2]"],
    ["single-quoted string", "'a'"],
    ["single-quoted key", "{'a':1}"],
    ["unquoted key", "{a:1}"],
    ["missing colon", '{"a" 1}'],
    ["leading zero", "01"],
    ["leading zero inside", "[007]"],
    ["leading plus", "+1"],
    ["bare decimal point", ".5"],
    ["trailing decimal point", "1."],
    ["bare exponent", "1e"],
    ["lone minus", "-"],
    ["hex number", "0x10"],
    ["NaN", "NaN"],
    ["Infinity", "Infinity"],
    ["-Infinity", "-Infinity"],
    ["undefined", "undefined"],
    ["trailing garbage", '{"a":1}x'],
    ["two values", "1 2"],
    ["trailing closer", "[1]]"],
    ["unterminated string", '"abc'],
    ["unterminated string ending in an escape", '"abc\\'],
    ["unterminated array", "[1,2"],
    ["unterminated object", '{"a":1'],
    ["raw newline in a string", '"a\nb"'],
    ["raw tab in a string", '"a\tb"'],
    ["raw NUL in a string", '"a\u0000b"'],
    ["invalid escape", String.raw`"\x41"`],
    ["short \\u escape", String.raw`"\u12"`],
    ["truncated literal", "tru"],
    ["capitalised literal", "True"],
    ["comment", "[1] // c"],
    ["byte order mark", "\uFEFF{}"],
    ["non-JSON whitespace", "\u00a0{}"],
  ])("%s", (_name, text) => {
    expect(parseJsonText(text)).toBeUndefined();
  });

  it("refuses nesting beyond the cap without overflowing the stack", () => {
    expect(parseJsonText(`${"[".repeat(600)}${"]".repeat(600)}`)).toBeUndefined();
    expect(parseJsonText(`${'{"a":'.repeat(600)}1${"}".repeat(600)}`)).toBeUndefined();
    // Far deeper than any stack: refused at the cap, not by a RangeError.
    expect(parseJsonText(`${"[".repeat(200_000)}${"]".repeat(200_000)}`)).toBeUndefined();
    expect(parseJsonText("[".repeat(200_000))).toBeUndefined();
  });
});

describe("stringifyJsonText", () => {
  it.each([
    "null",
    "true",
    '"a\\"b\\\\c\\n\\u0001é😀"',
    "[]",
    "{}",
    '{"a":1,"b":[true,false,null,"x"],"c":{"d":{}}}',
    '[{"id":1,"tags":["a","b"]},{"id":2,"tags":[]}]',
    '{"__proto__":1,"k":"v"}',
    '{"nested":[[1,[2,[3]]]],"s":"line\\nbreak","u":"\\u2028"}',
  ])("is compact and equal to JSON.stringify: %s", (text) => {
    const spaced = text.replace(/([,:[{])/g, "$1 \n\t").replace(/([\]}])/g, " $1");
    const parsed = parseJsonText(spaced);
    expect(parsed).not.toBeUndefined();
    expect(stringifyJsonText(parsed as JsonValue)).toBe(JSON.stringify(JSON.parse(text)));
  });

  it("writes numbers as they were read", () => {
    const text = '{"a":1.50,"b":-0,"c":1e3,"d":12345678901234567890,"e":[1E-2]}';
    expect(stringifyJsonText(parseJsonText(text) as JsonValue)).toBe(text);
  });

  it("keeps the source order of integer-like keys (JSON.stringify would move them first)", () => {
    expect(stringifyJsonText(parseJsonText('{"b":1,"1":2}') as JsonValue)).toBe('{"b":1,"1":2}');
  });
});
