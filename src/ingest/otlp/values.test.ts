import { describe, expect, it } from "vitest";
import type { AnyValue } from "./types.js";
import {
  anyValueText,
  attributeMap,
  cleanText,
  ItemRejection,
  int32Column,
  MAX_ANY_VALUE_DEPTH,
  MAX_TIME_NANOS,
  timeNanos,
  uint64Column,
} from "./values.js";

const limits = { maxValueLength: 64, maxAttributes: 10 };

/** An AnyValue of `depth` nested kvlists around a string. */
function nested(depth: number): AnyValue {
  let value: AnyValue = { stringValue: "leaf" };
  for (let i = 0; i < depth; i++) value = { kvlistValue: { values: [{ key: "k", value }] } };
  return value;
}

describe("cleanText", () => {
  it("replaces lone surrogates with U+FFFD and keeps pairs", () => {
    expect(cleanText("a\ud800b", 100)).toBe("a\ufffdb");
    expect(cleanText("a\udc00", 100)).toBe("a\ufffd");
    expect(cleanText("ok 😀", 100)).toBe("ok 😀");
  });

  it("cuts to the limit, never between the halves of a pair", () => {
    expect(cleanText("abcdef", 3)).toBe("abc");
    expect(cleanText("ab😀", 3)).toBe("ab");
    expect(cleanText(42, 3)).toBe("");
  });
});

describe("timeNanos", () => {
  it("passes times in range and treats zero as absent", () => {
    expect(timeNanos("1700000000000000000", "t")).toBe(1_700_000_000_000_000_000n);
    expect(timeNanos(0, "t")).toBe(0n);
    expect(timeNanos(undefined, "t")).toBe(0n);
  });

  it("rejects 2262-04-12, int64-max, uint64-max and negative times", () => {
    const reject = (value: string) => () => timeNanos(value, "start_time_unix_nano");
    for (const value of [
      "9223415999000000000", // 2262-04-12
      "9223372036854775807", // int64-max
      "18446744073709551615", // uint64-max
      MAX_TIME_NANOS.toString(),
      "-1",
    ]) {
      expect(reject(value)).toThrow(ItemRejection);
      expect(reject(value)).toThrow(/start_time_unix_nano is outside/);
    }
    expect(() => timeNanos({ low: -1, high: 0x7fffffff, unsigned: true }, "t")).toThrow(
      ItemRejection,
    );
    expect(timeNanos((MAX_TIME_NANOS - 1n).toString(), "t")).toBe(MAX_TIME_NANOS - 1n);
  });
});

describe("engine column types", () => {
  it("UInt64 counts: exact numbers, decimal text past 2^53, negatives rejected", () => {
    expect(uint64Column("12", "count")).toBe(12);
    expect(uint64Column("18446744073709551615", "count")).toBe("18446744073709551615");
    expect(() => uint64Column(1e30, "count")).toThrow(/count is not an unsigned 64-bit/);
    expect(() => uint64Column("-1", "count")).toThrow(ItemRejection);
  });

  it("Int32 fields: integers in range only", () => {
    expect(int32Column(-3, "scale")).toBe(-3);
    expect(int32Column(undefined, "scale")).toBe(0);
    for (const bad of [1.5, 2 ** 40, "x", Number.NaN])
      expect(() => int32Column(bad, "scale")).toThrow(ItemRejection);
  });
});

describe("attributeMap", () => {
  it("cuts keys like values and makes both well-formed", () => {
    const long = "k".repeat(10_000);
    const map = attributeMap(
      [
        { key: long, value: { stringValue: "v".repeat(10_000) } },
        { key: "s\ud800", value: { stringValue: "x\udfffy" } },
      ],
      limits,
    );
    expect(Object.keys(map)).toEqual(["k".repeat(64), "s\ufffd"]);
    expect(map["k".repeat(64)]).toBe("v".repeat(64));
    expect(map["s\ufffd"]).toBe("x\ufffdy");
  });

  it("makes strings and keys inside structured values well-formed", () => {
    const text = anyValueText(
      { kvlistValue: { values: [{ key: "a\ud800", value: { stringValue: "\udc00" } }] } },
      1000,
    );
    expect(text).toBe('{"a\ufffd":"\ufffd"}');
  });

  it(`accepts ${MAX_ANY_VALUE_DEPTH} levels of nesting and rejects deeper`, () => {
    expect(anyValueText(nested(MAX_ANY_VALUE_DEPTH), 10_000)).toContain("leaf");
    expect(() => anyValueText(nested(MAX_ANY_VALUE_DEPTH + 1), 10_000)).toThrow(
      /nests deeper than 16 levels/,
    );
  });

  it("rejects a wrong shape instead of ignoring it", () => {
    expect(() => attributeMap("x" as never, limits)).toThrow(/attributes must be an array/);
    expect(() => anyValueText("x" as never, 10)).toThrow(ItemRejection);
  });
});
