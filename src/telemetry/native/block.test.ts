import { describe, expect, it } from "vitest";
import { RefusedValueError } from "../executor.js";
import { UnixTime } from "../unix-time.js";
import { encodeNativeBlock, nativePlan } from "./block.js";

/** What chDB itself writes for `SELECT … FORMAT Native` of the same one row. */
const ENGINE_BYTES =
  "07 01 01 73 06 53 74 72 69 6e 67 02 61 62 01 75 06 55 49 6e 74 31 36 07 00 01 61 0d 41 72 72 61 79 28 53 74 72 69 6e 67 29 02 00 00 00 00 00 00 00 01 78 02 79 7a 01 6d 13 4d 61 70 28 53 74 72 69 6e 67 2c 20 53 74 72 69 6e 67 29 01 00 00 00 00 00 00 00 01 6b 01 76 01 74 14 44 61 74 65 54 69 6d 65 36 34 28 39 2c 20 27 55 54 43 27 29 00 ca 9a 3b 00 00 00 00 01 62 04 42 6f 6f 6c 01 02 61 6d 1a 41 72 72 61 79 28 4d 61 70 28 53 74 72 69 6e 67 2c 20 53 74 72 69 6e 67 29 29 02 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 01 61 01 62";

const types = (entries: [string, string][]) => new Map(entries);
const one = (type: string, value: unknown) => {
  const plan = nativePlan(["c"], types([["c", type]]));
  if (!plan) throw new Error(`no codec for ${type}`);
  return encodeNativeBlock(plan, [{ c: value }]);
};
/** The column data of a one-column, one-row block (after the counts, name and type). */
const data = (type: string, value: unknown) => {
  const block = one(type, value);
  const typeName = (nativePlan(["c"], types([["c", type]])) ?? [])[0]?.codec.type ?? "";
  return block.subarray(2 + 2 + 1 + typeName.length);
};
const int64 = (bytes: Buffer) => bytes.readBigInt64LE(0);

describe("Native blocks", () => {
  it("writes the bytes the engine writes for the same row", () => {
    const plan = nativePlan(
      ["s", "u", "a", "m", "t", "b", "am"],
      types([
        ["s", "String"],
        ["u", "UInt16"],
        ["a", "Array(String)"],
        ["m", "Map(LowCardinality(String), String)"],
        ["t", "DateTime64(9, 'UTC')"],
        ["b", "Bool"],
        ["am", "Array(Map(LowCardinality(String), String))"],
      ]),
    );
    if (!plan) throw new Error("every type has a codec");
    const block = encodeNativeBlock(plan, [
      {
        s: "ab",
        u: 7,
        a: ["x", "yz"],
        m: { k: "v" },
        t: "1.000000000",
        b: true,
        am: [{ a: "b" }, {}],
      },
    ]);
    expect(block.toString("hex").match(/../g)?.join(" ")).toBe(ENGINE_BYTES);
  });

  it("writes times from every form the mappers use, exactly at nanosecond precision", () => {
    const ns = "DateTime64(9, 'UTC')";
    expect(int64(data(ns, "1732671876.123456789"))).toBe(1732671876123456789n);
    expect(int64(data(ns, new UnixTime(1732671876, 123456789)))).toBe(1732671876123456789n);
    expect(int64(data(ns, new UnixTime(4102444799, 999999999)))).toBe(4102444799999999999n);
    expect(int64(data("DateTime64(3, 'UTC')", new UnixTime(1709208000, 123999999)))).toBe(
      1709208000123n,
    );
    expect(data("DateTime('UTC')", new UnixTime(1709208000, 999999999)).readUInt32LE(0)).toBe(
      1709208000,
    );
    expect(int64(data(ns, "4102444799.999999999"))).toBe(4102444799999999999n);
    expect(int64(data(ns, "1970-01-01 00:00:00.000000000"))).toBe(0n);
    expect(int64(data(ns, "2001-09-09 01:46:40.5"))).toBe(1000000000500000000n);
    expect(int64(data("DateTime64(3, 'UTC')", "2024-02-29 12:00:00.123"))).toBe(1709208000123n);
    expect(int64(data("DateTime64(3, 'UTC')", "1709208000.1239"))).toBe(1709208000123n);
    expect(data("DateTime('UTC')", 1709208000).readUInt32LE(0)).toBe(1709208000);
    expect(data("DateTime", 5).readUInt32LE(0)).toBe(5);
    // A Date is its day number (the attribute catalog's day).
    expect(data("Date", "1970-01-01").readUInt16LE(0)).toBe(0);
    expect(data("Date", "2024-02-29").readUInt16LE(0)).toBe(19782);
    expect(data("Date", "2149-06-06").readUInt16LE(0)).toBe(65535);
  });

  it("writes multi-byte text with its byte length, and long text with a varint length", () => {
    expect(data("String", "é").toString("hex")).toBe("02c3a9");
    const long = "x".repeat(300);
    const bytes = data("String", long);
    expect(bytes.subarray(0, 2).toString("hex")).toBe("ac02");
    expect(bytes.subarray(2).toString()).toBe(long);
    expect(data("String", null).toString("hex")).toBe("00");
  });

  it("writes 64-bit integers from numbers, decimal text and bigints", () => {
    expect(data("UInt64", 2 ** 40 + 3).readBigUInt64LE(0)).toBe(2n ** 40n + 3n);
    expect(data("UInt64", "18446744073709551615").readBigUInt64LE(0)).toBe(2n ** 64n - 1n);
    expect(data("UInt64", 5n).readBigUInt64LE(0)).toBe(5n);
  });

  it("refuses values the column cannot hold, with the engine's error code", () => {
    const refused = (type: string, value: unknown) => {
      try {
        one(type, value);
      } catch (error) {
        expect(error).toBeInstanceOf(RefusedValueError);
        return (error as RefusedValueError).code;
      }
      throw new Error(`${String(value)} was accepted for ${type}`);
    };
    expect(refused("UInt8", 300)).toBe("VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE");
    expect(refused("UInt16", -1)).toBe("VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE");
    expect(refused("UInt64", "not a number")).toBe("CANNOT_PARSE_NUMBER");
    expect(refused("UInt64", "18446744073709551616")).toBe("VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE");
    expect(refused("Int32", 1.5)).toBe("CANNOT_PARSE_NUMBER");
    expect(refused("Float64", "x")).toBe("CANNOT_PARSE_NUMBER");
    expect(refused("DateTime64(9, 'UTC')", "yesterday")).toBe("CANNOT_PARSE_DATETIME");
    expect(refused("Date", "2024-02-29 12:00:00")).toBe("CANNOT_PARSE_DATE");
    expect(refused("Date", "2149-06-07")).toBe("VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE");
    expect(refused("Array(String)", "x")).toBe("TYPE_MISMATCH");
  });

  it("has no plan for a column it does not know or a type it does not write", () => {
    expect(nativePlan(["a"], types([["b", "String"]]))).toBeUndefined();
    expect(nativePlan(["a"], types([["a", "Nullable(String)"]]))).toBeUndefined();
    expect(nativePlan(["a"], types([["a", "DateTime64(9, 'Europe/Paris')"]]))).toBeUndefined();
  });
});
