import { describe, expect, it } from "vitest";
import { Batcher } from "./batcher.js";

describe("Batcher", () => {
  it("runs a lone key at once and gathers keys that arrive while a batch runs", async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const batcher = new Batcher<number, string>(async (keys) => {
      batches.push([...keys]);
      if (batches.length === 1) await new Promise<void>((r) => (release = r));
      return keys.map((k) => `v${k}`);
    }, 3);
    const first = batcher.load(1);
    const rest = [2, 3, 4, 5].map((k) => batcher.load(k));
    await new Promise((r) => setTimeout(r, 5));
    expect(batches).toEqual([[1]]);
    release();
    expect(await Promise.all([first, ...rest])).toEqual(["v1", "v2", "v3", "v4", "v5"]);
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
  });

  it("fails every key of a failed batch and goes on with the next", async () => {
    let calls = 0;
    const batcher = new Batcher<number, number>(async (keys) => {
      calls++;
      if (calls === 1) throw new Error("engine down");
      return keys.map((k) => k * 2);
    }, 10);
    await expect(batcher.load(1)).rejects.toThrow("engine down");
    expect(await batcher.load(2)).toBe(4);
  });
});
