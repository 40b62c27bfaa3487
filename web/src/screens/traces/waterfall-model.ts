import type { SpanBaseline, SpanBaselines, TraceSpans } from "../../../../src/contracts/traces.js";

/**
 * A trace as the waterfall walks it. The server sends the spans depth first (a parent before
 * its children, children in start order), so a subtree is the contiguous range [i, end[i]):
 * collapsing a span skips its range, and the visible rows are one pass over what stays open.
 */
export interface FlatTrace {
  trace: TraceSpans;
  count: number;
  parent: Int32Array;
  /** One past the last index of each span's subtree. */
  end: Int32Array;
  depth: Int32Array;
  /** Indexes of the spans with status error, in row order. */
  errors: number[];
  /** Spans whose parent is not in the trace. */
  orphans: ReadonlySet<number>;
}

/** Derives subtree ends, depths and the error list in two linear passes (no recursion). */
export function flattenTrace(trace: TraceSpans): FlatTrace {
  const count = trace.spans.spanId.length;
  const parent = Int32Array.from(trace.spans.parent);
  const depth = new Int32Array(count);
  for (let i = 1; i < count; i++) {
    const p = parent[i] as number;
    depth[i] = p >= 0 ? (depth[p] as number) + 1 : 0;
  }
  // Walking backwards, every child's end is known before its parent's.
  const end = new Int32Array(count);
  for (let i = count - 1; i >= 0; i--) {
    if (end[i] === 0) end[i] = i + 1;
    const p = parent[i] as number;
    if (p >= 0 && (end[p] as number) < (end[i] as number)) end[p] = end[i] as number;
  }
  const errorStatus = trace.statuses.indexOf("error");
  const errors: number[] = [];
  if (errorStatus >= 0)
    trace.spans.status.forEach((status, i) => {
      if (status === errorStatus) errors.push(i);
    });
  return {
    trace,
    count,
    parent,
    end,
    depth,
    errors,
    orphans: new Set(trace.orphans),
  };
}

/** What one row shows of span `i`. */
export function spanAt(flat: FlatTrace, i: number) {
  const { trace } = flat;
  const s = trace.spans;
  return {
    spanId: s.spanId[i] ?? "",
    name: trace.names[s.name[i] as number] ?? "",
    service: trace.services[s.service[i] as number] ?? "",
    kind: trace.kinds[s.kind[i] as number] ?? "",
    status: trace.statuses[s.status[i] as number] ?? "",
    startOffsetMs: s.startOffsetMs[i] ?? 0,
    durationMs: s.durationMs[i] ?? 0,
    selfTimeMs: s.selfTimeMs[i] ?? 0,
    depth: flat.depth[i] ?? 0,
  };
}
export type SpanRowData = ReturnType<typeof spanAt>;

/** The rows shown: every span not inside a collapsed one (a collapsed span itself shows). */
export function visibleRows(flat: FlatTrace, collapsed: ReadonlySet<number>): Int32Array {
  const n = flat.count;
  if (collapsed.size === 0) {
    const all = new Int32Array(n);
    for (let i = 0; i < n; i++) all[i] = i;
    return all;
  }
  const rows = new Int32Array(n);
  let count = 0;
  let i = 0;
  while (i < n) {
    rows[count++] = i;
    i = collapsed.has(i) ? (flat.end[i] as number) : i + 1;
  }
  return rows.subarray(0, count);
}

/** The collapsed set without any ancestor of `index`, so that the span shows. */
export function revealed(
  flat: FlatTrace,
  collapsed: ReadonlySet<number>,
  index: number,
): ReadonlySet<number> {
  let next: Set<number> | undefined;
  for (let p = flat.parent[index] as number; p >= 0; p = flat.parent[p] as number) {
    if (!collapsed.has(p)) continue;
    next ??= new Set(collapsed);
    next.delete(p);
  }
  return next ?? collapsed;
}

/** Spans whose name or service contains `text`, or whose id is `text` (case-insensitive), in row order. */
export function findSpans(flat: FlatTrace, text: string): number[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [];
  const { trace } = flat;
  // Match the small tables once; the spans then compare integers.
  const names = new Set<number>();
  trace.names.forEach((name, i) => {
    if (name.toLowerCase().includes(needle)) names.add(i);
  });
  const services = new Set<number>();
  trace.services.forEach((service, i) => {
    if (service.toLowerCase().includes(needle)) services.add(i);
  });
  const found: number[] = [];
  const s = trace.spans;
  for (let i = 0; i < flat.count; i++)
    if (
      names.has(s.name[i] as number) ||
      services.has(s.service[i] as number) ||
      s.spanId[i] === needle
    )
      found.push(i);
  return found;
}

/** Distinct, readable colours for services (the legend names each one; colour is never alone). */
export const SERVICE_COLORS = [
  "#4f46e5",
  "#0891b2",
  "#d97706",
  "#16a34a",
  "#db2777",
  "#7c3aed",
  "#0d9488",
  "#ca8a04",
  "#2563eb",
  "#9333ea",
  "#65a30d",
  "#c2410c",
] as const;

export const serviceColor = (slot: number): string =>
  SERVICE_COLORS[slot % SERVICE_COLORS.length] as string;

/** Tick positions (fractions of the trace) for the time axis. */
export const AXIS_TICKS = [0, 0.2, 0.4, 0.6, 0.8, 1] as const;

/** A span's usual duration: its (service, name)'s p50/p95 over the 24 h before the trace. */
export type Usual = Pick<SpanBaseline, "count" | "p50Ms" | "p95Ms">;

/** At this many times its usual p50 a span is marked slow. */
export const SLOW_RATIO = 2;

/**
 * Each span's usual duration (by index; undefined without one), from GET …/baselines: the
 * baselines come per (service, name), so each distinct pair is looked up once.
 */
export function usualDurations(
  flat: FlatTrace,
  baselines: Pick<SpanBaselines, "operations">,
): (Usual | undefined)[] {
  const { trace } = flat;
  const byName = new Map(
    baselines.operations.map((o) => [`${o.service}\u0000${o.operation}`, o] as const),
  );
  const pairs = new Map<number, Usual | undefined>();
  const s = trace.spans;
  const usual: (Usual | undefined)[] = new Array(flat.count);
  for (let i = 0; i < flat.count; i++) {
    const service = s.service[i] as number;
    const name = s.name[i] as number;
    const key = service * trace.names.length + name;
    if (!pairs.has(key)) {
      const found = byName.get(`${trace.services[service]}\u0000${trace.names[name]}`);
      pairs.set(key, found && found.count > 0 && found.p50Ms !== null ? found : undefined);
    }
    usual[i] = pairs.get(key);
  }
  return usual;
}

/** How many times its usual p50 a span took ("3.2"), or undefined without a usual p50 above 0. */
export function timesUsual(durationMs: number, usual: Usual | undefined): number | undefined {
  if (!usual || usual.p50Ms === null || usual.p50Ms <= 0) return undefined;
  return durationMs / usual.p50Ms;
}

/** A ratio as the waterfall writes it: one decimal below 10, none above. */
export const formatRatio = (ratio: number): string =>
  `${ratio >= 10 ? Math.round(ratio) : ratio.toFixed(1)}×`;
