import { describe, expect, it } from "vitest";
import { sessionParams, stringLiteral } from "./session-params.js";

describe("sessionParams", () => {
  it("sets every value in one statement, as a string literal holding its Escaped-format text", () => {
    expect(
      sessionParams("SELECT {a:String}, {n:Int64}, {ids:Array(String)}", {
        a: "it's a \\ tab\there\nnext",
        n: 42,
        ids: ["x", "y'z"],
      }),
    ).toBe(
      "SET param_a = 'it\\'s a \\\\\\\\ tab\\\\there\\\\nnext', " +
        "param_n = '42', " +
        "param_ids = '[\\'x\\',\\'y\\\\\\'z\\']'; ",
    );
  });

  it("puts settings first in the same statement, and sets them alone when there are no values", () => {
    expect(sessionParams("SELECT {a:String}", { a: "x" }, ["priority = 5"])).toBe(
      "SET priority = 5, param_a = 'x'; ",
    );
    expect(sessionParams("SELECT 1", {}, ["priority = 1"])).toBe("SET priority = 1; ");
  });

  it("refuses a placeholder without a value: the session may hold an earlier statement's", () => {
    expect(() => sessionParams("SELECT {a:String}, {b:String}", { a: "x" })).toThrow(
      /placeholder \{b:…\} without a value/,
    );
    // Inside quotes it is text, not a placeholder.
    expect(sessionParams("SELECT '{b:String}' AS `{c:x}`, \"{d:y}\", 'it''s {e:z}'", {})).toBe("");
  });

  it("falls back to binding when a value is of a kind it does not encode", () => {
    expect(sessionParams("SELECT {a:Bool}", { a: true })).toBeUndefined();
    expect(sessionParams("SELECT {a:Float64}", { a: Number.NaN })).toBeUndefined();
    expect(sessionParams("SELECT {a:String}", { a: { nested: 1 } })).toBeUndefined();
  });

  it("quotes a string literal so only its own quote ends it", () => {
    expect(stringLiteral("a'b\\c")).toBe("'a\\'b\\\\c'");
  });
});
