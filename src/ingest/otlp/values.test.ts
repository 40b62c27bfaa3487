import { describe, expect, it } from "vitest";
import { UnixTime } from "../../telemetry/unix-time.js";
import type { AnyValue, Int64 } from "./otlp-messages.js";
import {
  anyValueText,
  attributeMap,
  cleanText,
  ItemRejection,
  int32Column,
  int64Value,
  MAX_ANY_VALUE_DEPTH,
  MAX_TIME_SECONDS,
  timeOf,
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

describe("timeOf", () => {
  it("passes times in range in every encoding and treats zero as absent", () => {
    const expected = new UnixTime(1_700_000_000, 123_456_789);
    expect(timeOf("1700000000123456789", "t")).toEqual(expected);
    // protobufjs's Long of the same count, and a double (exact: the count is even enough).
    expect(timeOf({ low: 0x3d85cd15, high: 0x17979cfe, unsigned: true }, "t")).toEqual(expected);
    expect(timeOf(Number(1_700_000_000_123_456_768n), "t")).toEqual(
      new UnixTime(1_700_000_000, 123_456_768),
    );
    expect(timeOf("000000123", "t")).toEqual(new UnixTime(0, 123));
    for (const absent of [0, "0", "-0", undefined, null, "x", Number.NaN])
      expect(timeOf(absent as never, "t")).toBeUndefined();
  });

  it("rejects 2262-04-12, int64-max, uint64-max and negative times", () => {
    const reject = (value: Int64) => () => timeOf(value, "start_time_unix_nano");
    const max = String(MAX_TIME_SECONDS * 1e9);
    for (const value of [
      "9223415999000000000", // 2262-04-12
      "9223372036854775807", // int64-max
      "18446744073709551615", // uint64-max
      "1".repeat(40),
      max,
      "-1",
      -5,
      1e30,
      { low: 1, high: -1, unsigned: false },
    ]) {
      expect(reject(value)).toThrow(ItemRejection);
      expect(reject(value)).toThrow(/start_time_unix_nano is outside/);
    }
    expect(() => timeOf({ low: -1, high: 0x7fffffff, unsigned: true }, "t")).toThrow(ItemRejection);
    expect(timeOf(`${MAX_TIME_SECONDS - 1}999999999`, "t")).toEqual(
      new UnixTime(MAX_TIME_SECONDS - 1, 999_999_999),
    );
  });

  it("splits any 64-bit count exactly as BigInt division would", () => {
    const random32 = () => Math.floor(Math.random() * 2 ** 32);
    const cases: [number, number][] = [
      [0, 0],
      [0xffffffff, 0xffffffff],
      [999_999_999, 0],
      [1_000_000_000, 0],
    ];
    for (let i = 0; i < 2000; i++) cases.push([random32(), random32()]);
    for (const [low, high] of cases) {
      const nanos = (BigInt(high) << 32n) | BigInt(low);
      const time = UnixTime.fromWords(low | 0, high | 0);
      expect([time.seconds, time.nanos]).toEqual([
        Number(nanos / 1_000_000_000n),
        Number(nanos % 1_000_000_000n),
      ]);
      // The same count as a JSON number would carry it: the nearest double, split exactly.
      const double = Number(nanos);
      if (double < 2 ** 64) {
        const exact = BigInt(double);
        const fromNumber = UnixTime.fromNanosNumber(double);
        expect([fromNumber.seconds, fromNumber.nanos]).toEqual([
          Number(exact / 1_000_000_000n),
          Number(exact % 1_000_000_000n),
        ]);
      }
    }
  });

  it("spells DateTime64(9) text as the engine reads it, calendar text before 2001-09-09", () => {
    expect(new UnixTime(1_700_000_000, 5).toJSON()).toBe("1700000000.000000005");
    expect(new UnixTime(0, 0).toJSON()).toBe("1970-01-01 00:00:00.000000000");
    expect(JSON.stringify({ t: new UnixTime(999_999_999, 1) })).toBe(
      '{"t":"2001-09-09 01:46:39.000000001"}',
    );
    expect(UnixTime.fromMillis(1_700_000_000_123.9)).toEqual(
      new UnixTime(1_700_000_000, 123_000_000),
    );
    expect(new UnixTime(1_700_000_000, 123_999_999).millis).toBe(1_700_000_000_123);
    const start = new UnixTime(10, 999_999_999);
    const end = new UnixTime(12, 1);
    expect(end.nanosSince(start)).toBe(1_000_000_002);
    expect(start.isBefore(end)).toBe(true);
    expect(end.isBefore(start)).toBe(false);
    expect(start.isBefore(start)).toBe(false);
  });
});

describe("int64Value", () => {
  it("is a number when safe, a bigint beyond, from every encoding, signed and unsigned", () => {
    expect(int64Value("-42")).toBe(-42);
    expect(int64Value("-0")).toBe(0);
    expect(int64Value(7.9)).toBe(7);
    expect(int64Value({ low: -2, high: -1, unsigned: false })).toBe(-2);
    expect(int64Value({ low: 5, high: 1, unsigned: true })).toBe(2 ** 32 + 5);
    expect(int64Value({ low: -1, high: -1, unsigned: true })).toBe(18_446_744_073_709_551_615n);
    expect(int64Value({ low: 0, high: -2147483648, unsigned: false })).toBe(
      -9_223_372_036_854_775_808n,
    );
    expect(int64Value("9007199254740993")).toBe(9_007_199_254_740_993n);
    expect(int64Value("9007199254740991")).toBe(Number.MAX_SAFE_INTEGER);
    expect(int64Value(1e21)).toBe(1_000_000_000_000_000_000_000n);
    expect(int64Value("1.5")).toBe(0);
    expect(anyValueText({ intValue: { low: -1, high: -1, unsigned: false } }, 64)).toBe("-1");
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
