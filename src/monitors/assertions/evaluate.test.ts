import { describe, expect, it } from "vitest";
import { OPERATORS, type Operator } from "../../contracts/monitor-catalog.js";
import { evaluateAssertion, MAX_ACTUAL_CHARS } from "./evaluate.js";
import { body, header, json, response, run } from "./sample-response.test-helper.js";

describe("rule 2: an absent value passes only not_equals and not_contains", () => {
  const passing = new Set<Operator>(["not_equals", "not_contains"]);
  const absent: [string, (operator: Operator, value: string) => ReturnType<typeof run>][] = [
    ["missing JSON key", (operator, value) => json("$.missing", operator, value)],
    ["index out of range", (operator, value) => json("$.user.roles[9]", operator, value)],
    ["key on a string", (operator, value) => json("$.name.first", operator, value)],
    ["body not JSON", (operator, value) => json("$.token", operator, value, { body: "<html>" })],
    ["truncated body", (operator, value) => json("$", operator, value, { body: '{"a":' })],
    ["absent header", (operator, value) => header("x-missing", operator, value)],
  ];
  for (const [name, evaluate] of absent)
    for (const operator of OPERATORS)
      it.each(["", "abc", "0", ".*", "^$"])(`${name}: ${operator} with expected %j`, (value) => {
        const result = evaluate(operator, value);
        expect(result.passed).toBe(passing.has(operator));
        expect(result.actual).toBeNull();
        expect(result.message).toContain(passing.has(operator) ? "passes" : "fails");
      });

  it("names the reason", () => {
    expect(json("$.a.b", "equals", "x").message).toBe(
      "$.a does not exist, so the value is empty: fails under equals",
    );
    expect(json("$.a", "not_equals", "x", { body: "oops" }).message).toBe(
      "the response body is not JSON, so the value is empty: passes under not_equals",
    );
    expect(header("X-Missing", "not_contains", "x").message).toBe(
      "header 'X-Missing' is absent, so the value is empty: passes under not_contains",
    );
  });

  it("a JSON null or empty string is present, not absent", () => {
    expect(json("$.none", "equals", "null").passed).toBe(true);
    expect(json("$.none", "not_equals", "null").passed).toBe(false);
    expect(json("$.empty", "equals", "").passed).toBe(true);
    expect(json("$.empty", "not_contains", "").passed).toBe(false);
    expect(header("x-empty", "equals", "")).toMatchObject({ passed: true, actual: "" });
  });

  it("header names of Object.prototype members are absent, not inherited", () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      expect(header(name, "contains", "x").passed).toBe(false);
      expect(header(name, "not_equals", "x").passed).toBe(true);
      expect(header(name, "not_equals", "x").actual).toBeNull();
    }
  });
});

describe("rule 3: an empty path or header name fails with a message", () => {
  it.each(["", "   ", "\t\n"])("json_path with path %j", (path) => {
    for (const operator of OPERATORS) {
      const result = json(path, operator, "x");
      expect(result).toMatchObject({ passed: false, actual: null, target: path });
      expect(result.message).toBe("The JSON path is empty: enter the JSON path to read");
    }
  });

  it.each(["", "   "])("header with name %j", (name) => {
    for (const operator of OPERATORS) {
      const result = header(name, operator, "x");
      expect(result).toMatchObject({ passed: false, actual: null });
      expect(result.message).toBe("The header name is empty: enter the header name to read");
    }
  });

  it("a refused path fails under every operator, even not_equals", () => {
    for (const operator of OPERATORS) {
      const result = json("$..token", operator, "x");
      expect(result.passed).toBe(false);
      expect(result.message).toContain("Invalid JSON path: recursive descent");
    }
  });
});

describe("rule 4: header names are case-insensitive, values case-sensitive", () => {
  it("finds the header whatever the case of the name", () => {
    for (const name of ["content-type", "Content-Type", "CONTENT-TYPE", " Content-Type "])
      expect(header(name, "contains", "application/json").passed).toBe(true);
  });

  it("compares the value case-sensitively", () => {
    expect(header("Content-Type", "contains", "Application/JSON").passed).toBe(false);
    expect(header("Content-Type", "equals", "application/json; charset=utf-8").passed).toBe(true);
    expect(header("Content-Type", "equals", "application/json; charset=UTF-8").passed).toBe(false);
  });

  it("compares a numeric header value numerically under less_than / greater_than", () => {
    expect(header("X-Count", "greater_than", "9").passed).toBe(true);
    expect(header("X-Count", "less_than", "100").passed).toBe(true);
  });
});

describe("rule 5: JSON numbers are read as text and compare numerically", () => {
  it("keeps the written form for string operators", () => {
    expect(json("$.price", "equals", "1.50")).toMatchObject({ passed: true, actual: "1.50" });
    expect(json("$.big", "equals", "12345678901234567890").passed).toBe(true);
    expect(json("$.big", "contains", "567890").passed).toBe(true);
  });

  it("compares numerically under less_than / greater_than", () => {
    expect(json("$.price", "less_than", "1.6").passed).toBe(true);
    expect(json("$.price", "greater_than", "1.499").passed).toBe(true);
    expect(json("$.big", "greater_than", "1e19").passed).toBe(true);
    expect(json("$.user.id", "less_than", "2").passed).toBe(true);
  });

  it("coerces a JSON string that holds a number, and fails on one that does not", () => {
    const body = '{"s":"15","t":"12abc"}';
    expect(json("$.s", "greater_than", "9", { body }).passed).toBe(true);
    expect(json("$.t", "greater_than", "9", { body }).passed).toBe(false);
  });

  it("fails on booleans, null, objects and arrays", () => {
    for (const path of ["$.flag", "$.none", "$.user", "$.list", "$.obj"]) {
      expect(json(path, "less_than", "100").passed).toBe(false);
      expect(json(path, "greater_than", "-100").passed).toBe(false);
    }
  });
});

describe("rule 7: a path landing on an object or array compares its JSON text", () => {
  it("uses compact JSON text", () => {
    expect(json("$.user", "equals", '{"id":1,"roles":["a","b"]}')).toMatchObject({
      passed: true,
      actual: '{"id":1,"roles":["a","b"]}',
    });
    expect(json("$.user.roles", "equals", '["a","b"]').passed).toBe(true);
    expect(json("$.user.roles", "contains", '"b"').passed).toBe(true);
    expect(json("$.list", "equals", "[]").passed).toBe(true);
    expect(json("$.obj", "equals", "{}").passed).toBe(true);
    expect(json("$.list", "not_equals", "").passed).toBe(true);
    expect(json("$.user", "matches", '^\\{"id":1,').passed).toBe(true);
  });

  it("writes the JSON text compactly whatever the body's layout", () => {
    const spaced = '{ "user" : { "id" : 1 , "roles" : [ "a" , "b" ] } }';
    expect(json("$.user", "equals", '{"id":1,"roles":["a","b"]}', { body: spaced }).passed).toBe(
      true,
    );
    expect(
      json("$", "equals", '{"user":{"id":1,"roles":["a","b"]}}', { body: spaced }).passed,
    ).toBe(true);
  });

  it("compares a string value without its quotes", () => {
    expect(json("$.token", "equals", "abc").passed).toBe(true);
    expect(json("$.token", "equals", '"abc"').passed).toBe(false);
  });
});

describe("body_contains and body_not_contains", () => {
  it("body_contains reads the whole raw body", () => {
    const result = run({ type: "body_contains", operator: "contains", value: '"token":"abc"' });
    expect(result.passed).toBe(true);
    expect(run({ type: "body_contains", operator: "contains", value: "TOKEN" }).passed).toBe(false);
    expect(run({ type: "body_contains", operator: "not_contains", value: "error" }).passed).toBe(
      true,
    );
    expect(
      run({ type: "body_contains", operator: "equals", value: "ok" }, { body: "ok" }).passed,
    ).toBe(true);
    expect(
      run({ type: "body_contains", operator: "matches", value: "^o" }, { body: "ok" }).passed,
    ).toBe(true);
  });

  it("body_not_contains passes exactly when the text is absent (contains)", () => {
    expect(body("all good", "contains", "error")).toMatchObject({
      passed: true,
      message: 'absent: does not contain "error"',
    });
    expect(body("an error happened", "contains", "error")).toMatchObject({
      passed: false,
      message: 'present: contains "error"',
    });
    expect(body("ERROR", "contains", "error").passed).toBe(true);
  });

  it("body_not_contains with equals", () => {
    expect(body("maintenance", "equals", "maintenance").passed).toBe(false);
    expect(body("maintenance mode", "equals", "maintenance").passed).toBe(true);
  });

  it("body_not_contains with matches", () => {
    expect(body("code 500 returned", "matches", "\\b5\\d\\d\\b").passed).toBe(false);
    expect(body("code 200 returned", "matches", "\\b5\\d\\d\\b").passed).toBe(true);
  });

  it("body_not_contains with a malformed pattern FAILS", () => {
    for (const text of ["", "anything", "(abc"]) {
      const result = body(text, "matches", "(abc");
      expect(result.passed).toBe(false);
      expect(result.message).toMatch(/^invalid regular expression: /);
    }
  });

  it("body_not_contains on an empty body", () => {
    expect(body("", "contains", "x").passed).toBe(true);
    // The empty text is in every body.
    expect(body("", "contains", "").passed).toBe(false);
  });
});

describe("the result", () => {
  it("carries type, operator, target and expected", () => {
    expect(json("$.token", "equals", "abc")).toEqual({
      type: "json_path",
      operator: "equals",
      target: "$.token",
      expected: "abc",
      actual: "abc",
      passed: true,
      message: 'equals "abc"',
    });
    const status = run({ type: "status_code", operator: "equals", value: "201" });
    expect(status).toEqual({
      type: "status_code",
      operator: "equals",
      expected: "201",
      actual: "200",
      passed: false,
      message: '"200" does not equal "201"',
    });
    expect("target" in status).toBe(false);
  });

  it(`clips actual at ${MAX_ACTUAL_CHARS} characters but compares the whole value`, () => {
    const long = `${"a".repeat(5000)}END`;
    const result = run(
      { type: "body_contains", operator: "contains", value: "END" },
      { body: long },
    );
    expect(result.passed).toBe(true);
    expect(result.actual).toBe(`${"a".repeat(MAX_ACTUAL_CHARS)}…`);
    const exact = "b".repeat(MAX_ACTUAL_CHARS);
    expect(
      run({ type: "body_contains", operator: "equals", value: exact }, { body: exact }).actual,
    ).toBe(exact);
    const over = `${exact}c`;
    expect(
      run({ type: "body_contains", operator: "equals", value: over }, { body: over }),
    ).toMatchObject({ passed: true, actual: `${exact}…` });
  });

  it("clips long values in messages", () => {
    const long = "x".repeat(300);
    const message = run(
      { type: "body_contains", operator: "equals", value: "y" },
      { body: long },
    ).message;
    expect(message).toBe(`"${"x".repeat(200)}…" does not equal "y"`);
  });

  it("parses the body once for several json_path assertions sharing a cache", () => {
    const cache = {};
    const snapshot = response();
    const first = evaluateAssertion(
      { type: "json_path", path: "$.count", operator: "equals", value: "7" },
      snapshot,
      cache,
    );
    expect(first.passed).toBe(true);
    expect(cache).toHaveProperty("json.ok", true);
    const second = evaluateAssertion(
      { type: "json_path", path: "$.token", operator: "equals", value: "abc" },
      snapshot,
      cache,
    );
    expect(second.passed).toBe(true);
  });
});
