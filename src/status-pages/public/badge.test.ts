import { describe, expect, it } from "vitest";
import {
  BADGE_LABEL_MAX,
  BadgeQuery,
  type BadgeStyle,
  cleanBadgeLabel,
  renderStatusBadge,
} from "./badge.js";
import { PALETTE } from "./page-style.js";

describe("renderStatusBadge", () => {
  it.each([
    ["operational", PALETTE.operational.solid],
    ["degraded", PALETTE.degraded.solid],
    ["down", PALETTE.down.solid],
    ["maintenance", PALETTE.maintenance.solid],
  ] as const)("draws %s in its color", (status, color) => {
    const svg = renderStatusBadge(status);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(svg).toContain(`>${status}</text>`);
    expect(svg).toContain(">status</text>");
    expect(svg).toContain(`fill="${color}"`);
    expect(svg).toContain(`<title>status: ${status}</title>`);
  });

  it("uses a custom label and style", () => {
    const styles: BadgeStyle[] = ["flat", "flat-square", "plastic", "for-the-badge"];
    const svgs = styles.map((style) => renderStatusBadge("operational", { label: "api", style }));
    for (const svg of svgs) expect(svg).toContain("<title>");
    expect(svgs[0]).toContain(">api</text>");
    expect(svgs[3]).toContain(">API</text>"); // for-the-badge upper-cases
    expect(new Set(svgs).size).toBe(styles.length);
  });

  it("falls back to flat for a style it does not know", () => {
    const style = "social<script>" as BadgeStyle;
    expect(renderStatusBadge("down", { style })).toBe(renderStatusBadge("down"));
  });

  it("escapes XML in the label", () => {
    const svg = renderStatusBadge("down", { label: `<script>alert("x")</script>&` });
    expect(svg).not.toContain("<script");
    expect(svg).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;");
  });
});

describe("cleanBadgeLabel", () => {
  it("defaults, strips control and bidi characters, and collapses whitespace", () => {
    expect(cleanBadgeLabel(undefined)).toBe("status");
    expect(cleanBadgeLabel("   ")).toBe("status");
    expect(cleanBadgeLabel("a\u0000b\u202Ec\n\td")).toBe("a b c d");
  });

  it(`limits the label to ${BADGE_LABEL_MAX} characters`, () => {
    expect(cleanBadgeLabel("x".repeat(40))).toBe("x".repeat(40));
    const long = cleanBadgeLabel("y".repeat(500));
    expect(Array.from(long)).toHaveLength(BADGE_LABEL_MAX);
    expect(long.endsWith("…")).toBe(true);
    expect(Array.from(cleanBadgeLabel("🙂".repeat(50)))).toHaveLength(BADGE_LABEL_MAX);
  });
});

describe("BadgeQuery", () => {
  it("accepts a short label and a known style, rejects the rest", () => {
    expect(BadgeQuery.parse({ label: "api", style: "plastic" })).toEqual({
      label: "api",
      style: "plastic",
    });
    expect(BadgeQuery.safeParse({ label: "z".repeat(41) }).success).toBe(false);
    expect(BadgeQuery.safeParse({ style: "social" }).success).toBe(false);
  });
});
