import { describe, expect, it } from "vitest";
import { BASE, contrastRatio, PALETTE, type Tone } from "./page-style.js";

const tones = Object.keys(PALETTE) as Tone[];
const WHITE = "#ffffff";

describe("contrastRatio", () => {
  it("matches the WCAG extremes", () => {
    expect(contrastRatio("#000000", WHITE)).toBeCloseTo(21, 5);
    expect(contrastRatio(WHITE, WHITE)).toBeCloseTo(1, 5);
    expect(contrastRatio("#777777", WHITE)).toBeCloseTo(4.48, 2);
  });
});

describe("palette meets WCAG AA", () => {
  it.each(tones)("%s: white on solid, ink on soft and on white reach 4.5:1", (tone) => {
    const c = PALETTE[tone];
    expect(contrastRatio(WHITE, c.solid)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(c.ink, c.soft)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(c.ink, WHITE)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(tones.filter((t) => t !== "neutral"))(
    "%s: the history bar reaches 3:1 against white (non-text contrast)",
    (tone) => {
      expect(contrastRatio(PALETTE[tone].bar, WHITE)).toBeGreaterThanOrEqual(3);
    },
  );

  it("body, muted, link and tooltip text reach 4.5:1 on their backgrounds", () => {
    for (const bg of [BASE.surface, BASE.page]) {
      expect(contrastRatio(BASE.text, bg)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(BASE.muted, bg)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(BASE.link, bg)).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrastRatio(WHITE, BASE.tipBg)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(BASE.tipMuted, BASE.tipBg)).toBeGreaterThanOrEqual(4.5);
  });
});
