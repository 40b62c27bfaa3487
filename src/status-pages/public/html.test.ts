import { describe, expect, it } from "vitest";
import {
  escapeHtml,
  formatDuration,
  formatUptime,
  formatUtcDay,
  makeTimeFormatter,
  rangeHtml,
  safeHttpUrl,
  timeHtml,
} from "./html.js";

describe("escapeHtml", () => {
  it("escapes markup and both quote kinds", () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;",
    );
  });
});

describe("safeHttpUrl", () => {
  it("keeps absolute http(s) URLs, normalized", () => {
    expect(safeHttpUrl("https://acme.example/logo.png")).toBe("https://acme.example/logo.png");
    expect(safeHttpUrl("  HTTP://Acme.example ")).toBe("http://acme.example/");
  });

  it.each([
    "javascript:alert(1)",
    " JavaScript:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox",
    "/relative/path",
    "//evil.example/x",
    "mailto:ops@acme.example",
    "",
  ])("drops %j", (url) => {
    expect(safeHttpUrl(url)).toBeNull();
  });
});

describe("formatUptime", () => {
  it("floors so that any downtime never reads 100%", () => {
    expect(formatUptime(100)).toBe("100%");
    expect(formatUptime(99.999)).toBe("99.99%");
    expect(formatUptime(99.99)).toBe("99.99%");
    expect(formatUptime(0)).toBe("0.00%");
    expect(formatUptime(null)).toBe("No data");
  });
});

describe("formatDuration", () => {
  it("reads naturally", () => {
    expect(formatDuration(0)).toBe("0 min");
    expect(formatDuration(10_000)).toBe("< 1 min");
    expect(formatDuration(45 * 60_000)).toBe("45 min");
    expect(formatDuration(125 * 60_000)).toBe("2 h 5 min");
    expect(formatDuration(120 * 60_000)).toBe("2 h");
    expect(formatDuration(76 * 3_600_000)).toBe("3 d 4 h");
  });
});

describe("formatUtcDay", () => {
  it("formats a UTC day without shifting it", () => {
    expect(formatUtcDay("2025-03-03")).toBe("Mon, Mar 3, 2025");
    expect(formatUtcDay("not a day")).toBe("not a day");
  });
});

describe("makeTimeFormatter", () => {
  it("shows times in the page's zone with its abbreviation, DST included", () => {
    const berlin = makeTimeFormatter("Europe/Berlin");
    expect(berlin.at("2025-01-15T12:00:00Z")).toBe("Jan 15, 2025, 1:00 PM CET");
    expect(berlin.at("2025-07-15T12:00:00Z")).toBe("Jul 15, 2025, 2:00 PM CEST");
    expect(makeTimeFormatter("America/New_York").at("2025-01-15T12:00:00Z")).toBe(
      "Jan 15, 2025, 7:00 AM EST",
    );
  });

  it("falls back to UTC for an unknown zone and passes unparseable times through", () => {
    const f = makeTimeFormatter("Mars/Olympus_Mons");
    expect(f.at("2025-01-15T12:00:00Z")).toBe("Jan 15, 2025, 12:00 PM UTC");
    expect(f.at("yesterday")).toBe("yesterday");
  });

  it("shortens a range within one local day", () => {
    const f = makeTimeFormatter("Europe/Berlin");
    expect(f.range("2025-01-15T12:00:00Z", "2025-01-15T14:30:00Z")).toEqual([
      "Jan 15, 2025, 1:00 PM",
      "3:30 PM CET",
    ]);
    expect(f.range("2025-01-15T12:00:00Z", "2025-01-16T12:00:00Z")).toEqual([
      "Jan 15, 2025, 1:00 PM CET",
      "Jan 16, 2025, 1:00 PM CET",
    ]);
  });

  it("wraps times in <time> with the instant, escaped", () => {
    const f = makeTimeFormatter("UTC");
    expect(timeHtml("2025-01-15T12:00:00Z", f)).toBe(
      '<time datetime="2025-01-15T12:00:00Z">Jan 15, 2025, 12:00 PM UTC</time>',
    );
    expect(timeHtml('"><script>', f)).not.toContain("<script>");
    expect(rangeHtml("2025-01-15T12:00:00Z", "2025-01-15T13:00:00Z", f)).toContain(
      "</time> – <time",
    );
  });
});
