import { describe, expect, it } from "vitest";
import { AI_CONTEXTS } from "../../../contracts/ai.js";
import { ANALYZERS } from "./index.js";

describe("the analyzer registry", () => {
  it("has unique ids prefixed by their context, and every context covered", () => {
    const ids = ANALYZERS.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const analyzer of ANALYZERS)
      expect(analyzer.id.startsWith(`${analyzer.context}.`)).toBe(true);
    for (const context of AI_CONTEXTS)
      expect(
        ANALYZERS.some((a) => a.context === context),
        context,
      ).toBe(true);
  });
});
