import { describe, expect, it } from "vitest";
import { pooledRandomBytes } from "./random-pool.js";

describe("pooledRandomBytes", () => {
  it("gives new buffers of the size asked, never the same bytes twice, across refills", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const bytes = pooledRandomBytes(16);
      expect(bytes).toHaveLength(16);
      seen.add(bytes.toString("hex"));
    }
    expect(seen.size).toBe(1000);
    expect(pooledRandomBytes(10_000)).toHaveLength(10_000);
  });

  it("hands out copies: changing one leaves the next draws alone", () => {
    const first = pooledRandomBytes(8);
    first.fill(0);
    expect(pooledRandomBytes(8).equals(Buffer.alloc(8))).toBe(false);
  });
});
