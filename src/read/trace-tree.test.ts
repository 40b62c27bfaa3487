import { describe, expect, it } from "vitest";
import { traceDetailJson } from "./trace-json.js";
import type { SpanView } from "./trace-lookup.js";
import { buildTraceTree, preOrder, type SpanInput, type TreeNode } from "./trace-tree.js";
import type { TraceTree } from "./traces.js";

const MS = 1_000_000n;
const span = (spanId: string, parentSpanId: string, startMs: number, endMs: number) => ({
  spanId,
  parentSpanId,
  startNs: BigInt(startMs) * MS,
  endNs: BigInt(endMs) * MS,
  data: spanId,
});

/** The tree as nested [id, depth, selfMs, orphan, children] for exact comparisons. */
type Shape = [string, number, number, boolean, Shape[]];
function shape(node: TreeNode<string>): Shape {
  return [
    node.spanId,
    node.depth,
    Number(node.selfNs / MS),
    node.orphan,
    node.children.map((c) => shape(c)),
  ];
}

describe("buildTraceTree", () => {
  it("nests children in start order whatever the input order, with depth and self time", () => {
    const spans = [
      span("c2", "b", 60, 90),
      span("b", "a", 10, 100),
      span("a", "", 0, 120),
      span("c1", "b", 20, 50),
      span("d", "a", 105, 110),
    ];
    const tree = buildTraceTree(spans);
    expect(tree && shape(tree.root)).toEqual([
      "a",
      0,
      120 - 90 - 5,
      false,
      [
        [
          "b",
          1,
          90 - 30 - 30,
          false,
          [
            ["c1", 2, 30, false, []],
            ["c2", 2, 30, false, []],
          ],
        ],
        ["d", 1, 5, false, []],
      ],
    ]);
    expect(tree?.hasRoot).toBe(true);
    expect(tree?.orphanCount).toBe(0);
    expect(tree?.spanCount).toBe(5);
  });

  it("self time counts overlapping children once and clips children outside the span", () => {
    const tree = buildTraceTree([
      span("a", "", 0, 100),
      span("b", "a", 10, 60),
      span("c", "a", 40, 80), // overlaps b by 20 ms
      span("d", "a", 90, 150), // runs past the parent's end: only 10 ms count
    ]);
    expect(tree && Number(tree.root.selfNs / MS)).toBe(100 - 70 - 10);
  });

  it("hangs spans with a missing parent under the root, flagged, keeping their own subtree", () => {
    const tree = buildTraceTree([
      span("a", "", 0, 100),
      span("x", "missing", 30, 60),
      span("y", "x", 35, 40),
      span("b", "a", 10, 20),
    ]);
    expect(tree && shape(tree.root)).toEqual([
      "a",
      0,
      100 - 10 - 30,
      false,
      [
        ["b", 1, 10, false, []],
        ["x", 1, 25, true, [["y", 2, 5, false, []]]],
      ],
    ]);
    expect(tree?.orphanCount).toBe(1);
  });

  it("without any root, the earliest span stands in and the others hang under it", () => {
    const tree = buildTraceTree([span("b", "gone", 10, 50), span("c", "gone", 20, 30)]);
    expect(tree?.hasRoot).toBe(false);
    expect(tree && shape(tree.root)).toEqual(["b", 0, 30, false, [["c", 1, 10, true, []]]]);
  });

  it("a second root becomes an orphan under the first", () => {
    const tree = buildTraceTree([span("r2", "", 5, 10), span("r1", "", 0, 100)]);
    expect(tree && shape(tree.root)).toEqual(["r1", 0, 95, false, [["r2", 1, 5, true, []]]]);
  });

  it("cuts parent cycles loose under the root instead of looping", () => {
    const tree = buildTraceTree([
      span("a", "", 0, 100),
      span("p", "q", 10, 20),
      span("q", "p", 12, 18),
      span("s", "s", 30, 40),
    ]);
    expect(tree?.spanCount).toBe(4);
    expect(tree ? [...preOrder(tree.root)].map((n) => n.spanId).sort() : []).toEqual([
      "a",
      "p",
      "q",
      "s",
    ]);
    const root = tree?.root;
    expect(root?.children.map((c) => [c.spanId, c.orphan])).toEqual([
      ["p", true],
      ["s", true],
    ]);
    expect(root?.children[0]?.children.map((c) => [c.spanId, c.depth])).toEqual([["q", 2]]);
  });

  it("keeps one copy of a span sent twice", () => {
    const tree = buildTraceTree([span("a", "", 0, 10), span("b", "a", 1, 2), span("b", "a", 1, 2)]);
    expect(tree?.spanCount).toBe(2);
    expect(tree?.root.children).toHaveLength(1);
  });

  it("returns undefined for no spans", () => {
    expect(buildTraceTree([])).toBeUndefined();
  });

  it("builds a 10,000-span chain and a 10,000-span fan-out, and both serialize", () => {
    const chain: SpanInput<string>[] = [];
    const fan: SpanInput<string>[] = [span("root", "", 0, 20_000)];
    for (let i = 0; i < 10_000; i++) {
      chain.push(span(`s${i}`, i === 0 ? "" : `s${i - 1}`, i, 20_000 - i));
      if (i < 9_999) fan.push(span(`f${i}`, "root", i, i + 1));
    }
    chain.reverse(); // out of order on purpose
    const deep = buildTraceTree(chain);
    expect(deep?.spanCount).toBe(10_000);
    const order = deep ? [...preOrder(deep.root)] : [];
    expect(order.map((n) => n.depth)).toEqual(order.map((_, i) => i));
    expect(Number(order[0]?.selfNs) / 1e6).toBe(2);

    const wide = buildTraceTree(fan);
    expect(wide?.root.children).toHaveLength(9_999);
    expect(wide?.root.children.map((c) => c.spanId).slice(0, 3)).toEqual(["f0", "f1", "f2"]);

    for (const tree of [deep, wide]) {
      if (!tree) throw new Error("no tree");
      const text = traceDetailJson(detailOf(tree.root as unknown as TreeNode<SpanView>));
      expect(text.length).toBeGreaterThan(10_000 * 50);
      // Depth-first text: count spans by their ids without a recursive parse of 10,000 levels.
      expect(text.match(/"spanId":/g)).toHaveLength(10_000);
    }
  });
});

/** A minimal detail around a tree whose data are span ids. */
function detailOf(root: TreeNode<SpanView>): TraceTree {
  for (const node of preOrder(root)) {
    const id = node.data as unknown as string;
    node.data = { spanId: id } as SpanView;
  }
  return { traceId: "t", root } as TraceTree;
}
