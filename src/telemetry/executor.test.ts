import { describe, expect, it } from "vitest";
import { quoteIdentifier, renderSettings } from "./executor.js";

describe("renderSettings", () => {
  it("renders numbers, booleans and escaped strings", () => {
    expect(renderSettings({ readonly: 1, use_query_cache: false, log_comment: "it's" })).toBe(
      " SETTINGS readonly = 1, use_query_cache = 0, log_comment = 'it\\'s'",
    );
    expect(renderSettings(undefined)).toBe("");
  });

  it("refuses setting names that are not identifiers", () => {
    expect(() => renderSettings({ "readonly=0, x": 1 })).toThrow(/Invalid ClickHouse setting name/);
  });

  it("quotes identifiers", () => {
    expect(quoteIdentifier("a`b")).toBe("`a\\`b`");
  });
});
