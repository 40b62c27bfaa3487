import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readBounded, utf8Prefix } from "./bounded-body.js";

describe("utf8Prefix", () => {
  it.each([
    ["abc", 2, "ab"],
    ["aé", 2, "a"],
    ["aé", 3, "aé"],
    ["a€", 3, "a"],
    ["a😀", 4, "a"],
    ["a😀", 5, "a😀"],
    ["é", 0, ""],
    ["", 3, ""],
  ])("%j cut to %i bytes is %j", (text, max, expected) => {
    expect(utf8Prefix(Buffer.from(text), max).toString()).toBe(expected);
  });
});

describe("readBounded", () => {
  const chunks = (...parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)));

  it("reads a body that fits whole", async () => {
    const { bytes, truncated } = await readBounded(chunks("ab", "cd"), 4);
    expect([bytes.toString(), truncated]).toEqual(["abcd", false]);
  });

  it("stops at the limit, mid-chunk, and says it cut", async () => {
    const { bytes, truncated } = await readBounded(chunks("ab", "cdef", "gh"), 3);
    expect([bytes.toString(), truncated]).toEqual(["abc", true]);
  });

  it("ends the source's iteration when it stops early", async () => {
    let ended = false;
    async function* source() {
      try {
        for (;;) yield Buffer.from("xxxx");
      } finally {
        ended = true;
      }
    }
    expect((await readBounded(source(), 10)).truncated).toBe(true);
    expect(ended).toBe(true);
  });
});
