/** One span as the tree builder needs it; everything else rides along in `data`. */
export interface SpanInput<T> {
  spanId: string;
  parentSpanId: string;
  startNs: bigint;
  endNs: bigint;
  data: T;
}

/** A span placed in the tree. */
export interface TreeNode<T> {
  spanId: string;
  parentSpanId: string;
  startNs: bigint;
  endNs: bigint;
  depth: number;
  /** Time in this span not covered by any of its children, in nanoseconds. */
  selfNs: bigint;
  /**
   * Attached under the root because its parent is not in this trace (not received yet, dropped,
   * or a second root), or because the parent links formed a cycle.
   */
  orphan: boolean;
  children: TreeNode<T>[];
  data: T;
}

export interface Tree<T> {
  root: TreeNode<T>;
  /** Spans in the tree (duplicates of one span id count once). */
  spanCount: number;
  orphanCount: number;
  /** False when the trace has no span without a parent: the earliest span stands in as root. */
  hasRoot: boolean;
}

const byStart = <T>(a: SpanInput<T>, b: SpanInput<T>) =>
  a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : a.spanId < b.spanId ? -1 : 1;

/**
 * Builds a trace's tree from its spans in any order. Children are in start order. The root is
 * the earliest span without a parent (else the earliest span). A span whose parent is missing,
 * a second root, and spans caught in a parent cycle hang under the root, flagged `orphan`.
 * A span id seen twice (an exporter retry) is kept once. Iterative, so any depth works.
 */
export function buildTraceTree<T>(spans: readonly SpanInput<T>[]): Tree<T> | undefined {
  const sorted = [...spans].sort(byStart);
  const nodes = new Map<string, TreeNode<T>>();
  for (const span of sorted) {
    if (nodes.has(span.spanId)) continue;
    nodes.set(span.spanId, {
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      startNs: span.startNs,
      endNs: span.endNs,
      depth: 0,
      selfNs: 0n,
      orphan: false,
      children: [],
      data: span.data,
    });
  }
  const ordered = [...nodes.values()];
  const first = ordered[0];
  if (!first) return undefined;
  const root = ordered.find((n) => n.parentSpanId === "") ?? first;

  // Nodes arrive in start order, so every children list ends up in start order too.
  for (const node of ordered) {
    if (node === root) continue;
    const parent = node.parentSpanId === "" ? undefined : nodes.get(node.parentSpanId);
    if (parent && parent !== node) parent.children.push(node);
    else adopt(root, node);
  }

  // Walk from the root; whatever is not reached sits in a parent cycle: cut it loose under the root.
  const reached = new Set<TreeNode<T>>();
  walk(root, reached);
  if (reached.size < ordered.length) {
    for (const node of ordered) {
      if (reached.has(node)) continue;
      const parent = nodes.get(node.parentSpanId);
      if (parent) parent.children = parent.children.filter((c) => c !== node);
      adopt(root, node);
      walk(node, reached, root.depth + 1);
    }
    // Sorted once, after every cut: the adopted nodes went to the end of the root's children.
    root.children.sort((a, b) => byStart(a, b));
  }
  for (const node of ordered) node.selfNs = selfTime(node);
  return {
    root,
    spanCount: ordered.length,
    orphanCount: ordered.filter((n) => n.orphan).length,
    hasRoot: root.parentSpanId === "",
  };
}

function adopt<T>(root: TreeNode<T>, node: TreeNode<T>): void {
  node.orphan = true;
  root.children.push(node);
}

/** Sets depths below `start`, marking each node reached; iterative (chains can be 10,000 deep). */
function walk<T>(start: TreeNode<T>, reached: Set<TreeNode<T>>, depth = 0): void {
  const stack: [TreeNode<T>, number][] = [[start, depth]];
  while (stack.length > 0) {
    const [node, d] = stack.pop() as [TreeNode<T>, number];
    if (reached.has(node)) continue;
    reached.add(node);
    node.depth = d;
    for (const child of node.children) stack.push([child, d + 1]);
  }
}

/** The span's duration minus the union of its children's intervals, clipped to the span. */
function selfTime<T>(node: TreeNode<T>): bigint {
  const duration = node.endNs > node.startNs ? node.endNs - node.startNs : 0n;
  let covered = 0n;
  let coveredUntil = node.startNs;
  // Children are in start order, so one sweep merges their overlapping intervals. (Bigints:
  // Math.min/max do not apply.)
  for (const child of node.children) {
    // biome-ignore lint/complexity/useMathMinMax: bigint
    const from = child.startNs > coveredUntil ? child.startNs : coveredUntil;
    // biome-ignore lint/complexity/useMathMinMax: bigint
    const to = child.endNs < node.endNs ? child.endNs : node.endNs;
    if (to > from) {
      covered += to - from;
      coveredUntil = to;
    }
  }
  return duration - covered;
}

/** Visits every node in depth-first pre-order (parents before children, children in start order). */
export function* preOrder<T>(root: TreeNode<T>): Generator<TreeNode<T>> {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop() as TreeNode<T>;
    yield node;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as TreeNode<T>);
  }
}
