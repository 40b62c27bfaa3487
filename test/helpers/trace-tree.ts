// The shape of GET /v1/traces and /v1/traces/:traceId as the read-traces tests look at it.

export interface SpanNode {
  spanId: string;
  name: string;
  service: string;
  depth: number;
  durationMs: number;
  selfTimeMs: number;
  startOffsetMs: number;
  orphan: boolean;
  parentSpanId: string | null;
  http: unknown;
  events: { name: string }[];
  resource: number;
  children: SpanNode[];
}
export interface Body {
  data: { traceId: string; [key: string]: unknown }[];
  pagination: { total: number; hasMore: boolean; totalPages: number };
  root: SpanNode;
  errors?: { field: string }[];
  [key: string]: unknown;
}

export const flatten = (node: SpanNode): SpanNode[] => {
  const out: SpanNode[] = [];
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop() as SpanNode;
    out.push(n);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as SpanNode);
  }
  return out;
};
