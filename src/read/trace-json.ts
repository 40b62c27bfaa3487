import { nsToMs, type SpanView } from "./trace-lookup.js";
import type { TreeNode } from "./trace-tree.js";
import type { TraceTree } from "./traces.js";

/**
 * A trace detail as JSON text. The tree is written with an explicit stack, because a chain of
 * thousands of nested spans overflows JSON.stringify's recursion; each span's own fields still
 * go through JSON.stringify.
 */
export function traceDetailJson(detail: TraceTree): string {
  const { root, ...head } = detail;
  const out: string[] = [JSON.stringify(head).slice(0, -1), ',"root":'];
  const stack: { node: TreeNode<SpanView>; next: number }[] = [];
  const open = (node: TreeNode<SpanView>) => {
    const fields = JSON.stringify({
      ...node.data,
      depth: node.depth,
      selfTimeMs: nsToMs(Number(node.selfNs)),
      orphan: node.orphan,
    });
    out.push(fields.slice(0, -1), ',"children":[');
    stack.push({ node, next: 0 });
  };
  open(root);
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as { node: TreeNode<SpanView>; next: number };
    const child = top.node.children[top.next];
    if (child) {
      if (top.next > 0) out.push(",");
      top.next++;
      open(child);
    } else {
      out.push("]}");
      stack.pop();
    }
  }
  out.push("}");
  return out.join("");
}
