/**
 * The values TQL binds to placeholders: each checked against its type (kind, range, length,
 * items), turned into what the engine parses (date-times in UTC, 64-bit integers exactly), and
 * refused with the field `parameters.<name>` and the placeholder's position. `vigil tql --param`.
 */
import { describe, expect, it } from "vitest";
import { collectParam } from "../src/cli/tql.js";
import { compileTql } from "../src/tql/compile.js";
import { TqlError } from "../src/tql/tql-errors.js";

/** The value bound for `{v:<type>}` given `value`. */
const bound = (type: string, value: unknown) =>
  compileTql(`SELECT {v:${type}}`, { database: "vigil", rowCap: 1, parameters: { v: value } })
    .params.p_v;

/** Why `value` does not fit `{v:<type>}` (the error's message after the placeholder). */
function refused(type: string, value: unknown): string {
  try {
    bound(type, value);
  } catch (error) {
    if (!(error instanceof TqlError)) throw error;
    expect(error.issues).toEqual([{ field: "parameters.v", message: error.message }]);
    expect(error.extensions).toEqual({ position: { line: 1, column: 8 } });
    return error.message.replace(/^Parameter 'v' \([^)]*\)+ /, "");
  }
  throw new Error(`expected {v:${type}} to refuse ${JSON.stringify(value)}`);
}

describe("TQL parameter values: strings and booleans", () => {
  it("binds a String as it is, and refuses other kinds and overlong text", () => {
    expect(bound("String", "")).toBe("");
    expect(bound("String", "it's \\ {x:String} \n")).toBe("it's \\ {x:String} \n");
    expect(refused("String", 5)).toBe("needs a string, not a number");
    expect(refused("String", true)).toBe("needs a string, not a boolean");
    expect(refused("String", null)).toBe("needs a string, not null");
    expect(refused("String", { a: 1 })).toBe("needs a string, not an object");
    expect(refused("String", ["a"])).toBe("takes one value, not a list");
    expect(bound("String", "x".repeat(4096))).toHaveLength(4096);
    expect(refused("String", "x".repeat(4097))).toBe("is 4097 characters long; at most 4096");
  });

  it("reads a Bool from a boolean, true/false/1/0 as text or 0/1", () => {
    for (const yes of [true, "true", "TRUE", " 1 ", 1]) expect(bound("Bool", yes)).toBe("true");
    for (const no of [false, "false", "0", 0]) expect(bound("Bool", no)).toBe("false");
    expect(refused("Bool", "yes")).toBe("needs true or false, not the text given");
    expect(refused("Bool", 2)).toBe("needs true or false, not a number");
    expect(refused("Bool", "constructor")).toBe("needs true or false, not the text given");
  });
});

describe("TQL parameter values: numbers", () => {
  it("binds integers exactly, from numbers or digits, within their type's range", () => {
    expect(bound("UInt8", 255)).toBe("255");
    expect(bound("Int8", "-128")).toBe("-128");
    expect(bound("Int32", " +7 ")).toBe("7");
    expect(bound("UInt64", "18446744073709551615")).toBe("18446744073709551615");
    expect(bound("Int64", "-9223372036854775808")).toBe("-9223372036854775808");
    expect(refused("UInt8", 256)).toBe("is outside the range of UInt8 (0 to 255)");
    expect(refused("UInt32", -1)).toBe("is outside the range of UInt32 (0 to 4294967295)");
    expect(refused("UInt64", "18446744073709551616")).toBe(
      "is outside the range of UInt64 (0 to 18446744073709551615)",
    );
    expect(refused("Int16", 1.5)).toBe("needs a whole number, not 1.5");
    expect(refused("Int64", 2 ** 60)).toBe(
      "is beyond ±2^53 as a JSON number, which loses digits: send it as a string",
    );
    expect(refused("Int64", "1e3")).toBe("needs a whole number, not the text given");
    expect(refused("Int64", "12; DROP")).toBe("needs a whole number, not the text given");
    expect(refused("UInt8", "")).toBe("needs a whole number, not an empty string");
    expect(refused("UInt8", false)).toBe("needs a whole number, not a boolean");
  });

  it("binds floats as numbers, from numbers or numeric text, finite only", () => {
    expect(bound("Float64", 0.25)).toBe(0.25);
    expect(bound("Float64", "-1.5e-3")).toBe(-0.0015);
    expect(bound("Float32", "3")).toBe(3);
    expect(refused("Float64", "NaN")).toBe("needs a finite number, not the text given");
    expect(refused("Float64", "Infinity")).toBe("needs a finite number, not the text given");
    expect(refused("Float64", "0x10")).toBe("needs a finite number, not the text given");
    expect(refused("Float64", Number.POSITIVE_INFINITY)).toBe(
      "needs a finite number, not a non-finite number",
    );
    expect(refused("Float32", 1e39)).toBe("is beyond the range of Float32");
  });
});

describe("TQL parameter values: dates and times", () => {
  it("reads ISO-8601 with a zone, an offset or none (UTC) into the engine's UTC text", () => {
    expect(bound("DateTime64(3)", "2026-03-01T10:00:00Z")).toBe("2026-03-01 10:00:00.000");
    expect(bound("DateTime64(3)", "2026-03-01T10:00:00.123456+02:00")).toBe(
      "2026-03-01 08:00:00.123",
    );
    expect(bound("DateTime64(9)", "2026-03-01 23:30:05.123456789-0130")).toBe(
      "2026-03-02 01:00:05.123456789",
    );
    expect(bound("DateTime64(6)", "2026-03-01T10:00")).toBe("2026-03-01 10:00:00.000000");
    expect(bound("DateTime64(0)", "2026-03-01T10:00:00.999Z")).toBe("2026-03-01 10:00:00");
    expect(bound("DateTime", "2026-03-01T10:00:00.999+00:00")).toBe("2026-03-01 10:00:00");
    expect(bound("DateTime", "2026-03-01")).toBe("2026-03-01 00:00:00");
    expect(bound("DateTime64(3)", "1900-01-01T00:00:00Z")).toBe("1900-01-01 00:00:00.000");
  });

  it("reads a Date as written, or the UTC day of a date and time", () => {
    expect(bound("Date", "2024-02-29")).toBe("2024-02-29");
    expect(bound("Date", "2026-03-01T23:30:00-02:00")).toBe("2026-03-02");
  });

  it("refuses what is no date, an impossible one, or one outside its type's range", () => {
    expect(refused("DateTime64(3)", "yesterday")).toBe(
      "needs an ISO-8601 date and time such as 2026-03-01T10:00:00Z",
    );
    expect(refused("DateTime64(3)", "2026-03-01T10:00:00Z'); DROP")).toMatch(/^needs an ISO/);
    expect(refused("DateTime64(3)", 1_700_000_000_000)).toBe(
      "needs a date as a string, not a number",
    );
    expect(refused("Date", "01/03/2026")).toBe("needs a date such as 2026-03-01");
    expect(refused("Date", "2025-02-29")).toBe("is not a valid date");
    expect(refused("DateTime", "2026-03-01T24:00:00Z")).toBe("is not a valid date and time");
    expect(refused("DateTime", "2026-03-01T10:60:00Z")).toBe("is not a valid date and time");
    expect(refused("DateTime", "1969-12-31T23:59:59Z")).toBe(
      "is outside the range DateTime holds (1970-01-01 00:00:00 to 2106-02-07 06:28:15 UTC)",
    );
    expect(refused("DateTime64(3)", "2300-01-01")).toMatch(/^is outside the range DateTime64/);
    expect(refused("Date", "2149-06-07")).toMatch(/^is outside the range Date holds/);
  });
});

describe("TQL parameter values: lists", () => {
  it("checks every item against the element type; integers in a list are numbers", () => {
    expect(bound("Array(String)", ["a", "b'c"])).toEqual(["a", "b'c"]);
    expect(bound("Array(UInt64)", [1, "2"])).toEqual([1, 2]);
    expect(bound("Array(Bool)", [true, 0])).toEqual(["true", "false"]);
    expect(bound("Array(Date)", ["2026-03-01"])).toEqual(["2026-03-01"]);
    expect(bound("Array(DateTime64(3))", ["2026-03-01T10:00:00Z"])).toEqual([
      "2026-03-01 10:00:00.000",
    ]);
    expect(bound("Array(Float64)", [])).toEqual([]);
    expect(refused("Array(String)", "a")).toBe("needs a list of String values, not the text given");
    expect(refused("Array(String)", ["a", 1])).toBe("item 1 needs a string, not a number");
    expect(refused("Array(UInt8)", [1, 2, 300])).toBe(
      "item 2 is outside the range of UInt8 (0 to 255)",
    );
    expect(refused("Array(UInt64)", ["18446744073709551615"])).toBe(
      "item 0 is beyond ±2^53, which a list item cannot hold; compare with a single parameter",
    );
    expect(refused("Array(String)", [["nested"]])).toBe("item 0 needs a string, not a list");
    expect(refused("Array(String)", ["x".repeat(4097)])).toBe(
      "item 0 is 4097 characters long; at most 4096",
    );
  });

  it("takes at most 1,000 items", () => {
    expect(
      bound(
        "Array(UInt16)",
        Array.from({ length: 1000 }, (_, i) => i),
      ),
    ).toHaveLength(1000);
    expect(
      refused(
        "Array(UInt16)",
        Array.from({ length: 1001 }, (_, i) => i),
      ),
    ).toBe("has 1001 items; at most 1000");
  });
});

describe("TQL parameter values: the set of them", () => {
  it("takes at most 64 besides the window's, whether used or not", () => {
    const window = { from: "2026-03-01", to: "2026-03-02", bucket_seconds: 60 };
    const sixtyFour = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`p${i}`, i]));
    expect(
      compileTql("SELECT {p63:UInt8}, {bucket_seconds:UInt32}", {
        database: "vigil",
        rowCap: 1,
        parameters: { ...sixtyFour, ...window },
      }).params,
    ).toEqual({ p_p63: "63", p_bucket_seconds: "60" });
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`p${i}`, i]));
    const error = (() => {
      try {
        compileTql("SELECT 1", { database: "vigil", rowCap: 1, parameters: many });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(TqlError);
    expect((error as TqlError).issues).toEqual([
      { field: "parameters", message: "At most 64 parameters may be given (65 were)" },
    ]);
  });

  it("names the first placeholder without a value, where it is first used", () => {
    try {
      compileTql("SELECT {a:String},\n {b:UInt8}, {b:UInt8}", {
        database: "vigil",
        rowCap: 1,
        parameters: { a: "x", B: 1, ["__proto__"]: 1 },
      });
      throw new Error("expected a refusal");
    } catch (error) {
      expect(error).toBeInstanceOf(TqlError);
      expect((error as TqlError).message).toBe(
        "Parameter 'b' (UInt8) has no value: give it as parameters.b",
      );
      expect((error as TqlError).extensions).toEqual({ position: { line: 2, column: 2 } });
    }
  });
});

describe("vigil tql --param", () => {
  it("reads name=value as text, and a JSON array as a list", () => {
    let values = collectParam("service=checkout");
    values = collectParam('ids=["a", 2]', values);
    values = collectParam("q=a=b", values);
    expect(values).toEqual({ service: "checkout", ids: ["a", 2], q: "a=b" });
    expect(() => collectParam("novalue")).toThrow(/give name=value/);
    expect(() => collectParam("ids=[{}]")).toThrow(/a list is a JSON array of strings or numbers/);
    expect(() => collectParam("ids=[oops")).toThrow(/a list is a JSON array/);
  });
});
