import { describe, expect, it } from "vitest";
import { UnixTime } from "../unix-time.js";
import { encodeRows } from "./insert-formats.js";

const rows = [
  {
    s: "it's a\ttab\\ and\nnewline",
    n: 12.5,
    b: true,
    m: { "k'1": "v\t1" },
    a: ["x", "y'z"],
    am: [{ k: "v" }],
    nothing: null,
    t: new UnixTime(1_700_000_000, 5),
    at: [new UnixTime(0, 0)],
  },
];

describe("insert encodings", () => {
  it("names the columns once, from the first row", () => {
    expect(encodeRows("JSONCompactEachRow", rows).columns).toEqual([
      "s",
      "n",
      "b",
      "m",
      "a",
      "am",
      "nothing",
      "t",
      "at",
    ]);
  });

  it("writes JSON lines, compact or keyed", () => {
    expect(encodeRows("JSONCompactEachRow", rows).body.toString()).toBe(
      `${JSON.stringify(["it's a\ttab\\ and\nnewline", 12.5, true, { "k'1": "v\t1" }, ["x", "y'z"], [{ k: "v" }], null, "1700000000.000000005", ["1970-01-01 00:00:00.000000000"]])}\n`,
    );
    expect(encodeRows("JSONEachRow", rows).body.toString()).toBe(`${JSON.stringify(rows[0])}\n`);
  });

  it("writes TabSeparated with escaped strings and quoted elements, never a raw tab inside a field", () => {
    expect(encodeRows("TabSeparated", rows).body.toString()).toBe(
      `${[
        "it's a\\ttab\\\\ and\\nnewline",
        "12.5",
        "true",
        "{'k\\'1':'v\\t1'}",
        "['x','y\\'z']",
        "[{'k':'v'}]",
        "\\N",
        "1700000000.000000005",
        "['1970-01-01 00:00:00.000000000']",
      ].join("\t")}\n`,
    );
  });
});
