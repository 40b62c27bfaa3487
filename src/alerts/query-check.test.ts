import { describe, expect, it } from "vitest";
import { labelColumns, seriesFromResult } from "./query-check.js";

describe("alert query labels", () => {
  const columns = [
    { name: "__proto__", type: "String" },
    { name: "value", type: "UInt64" },
  ];

  it("keeps a `__proto__` column as an own label, so its series stay apart", () => {
    const samples = seriesFromResult({
      columns,
      rows: [
        ["api", 3],
        ["web", 1],
      ],
    });
    expect(samples.map((s) => [s.seriesKey, s.value])).toEqual([
      ['{"__proto__":"api"}', 3],
      ['{"__proto__":"web"}', 1],
    ]);
    expect(Object.hasOwn(samples[0]?.labels ?? {}, "__proto__")).toBe(true);
  });

  it("refuses prototype names as label columns", () => {
    expect(labelColumns(columns)).toMatchObject({ ok: false });
    expect(
      labelColumns([
        { name: "constructor", type: "String" },
        { name: "value", type: "UInt64" },
      ]),
    ).toMatchObject({ ok: false });
  });
});
