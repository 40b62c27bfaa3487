import type { NamedValue } from "./frames.js";

/** Slices a pie draws at most: the smaller rest become one "Other" slice. */
export const MAX_SLICES = 12;

export interface PieSlice {
  name: string;
  value: number;
  /** Of the whole, 0–1. */
  share: number;
  /** Angles in radians, clockwise from twelve o'clock. */
  start: number;
  end: number;
  /** The palette index (Other takes the last one's). */
  color: number;
  /** The item's row values, for links (none for Other). */
  fields?: Record<string, string> | undefined;
}

/**
 * The slices of positive values in their order, the largest `max - 1` kept and the rest summed
 * into "Other" when there are more than `max`. Zero and negative values have no slice.
 */
export function pieSlices(items: readonly NamedValue[], max = MAX_SLICES): PieSlice[] {
  const positive = items.filter((i): i is NamedValue & { value: number } => (i.value ?? 0) > 0);
  let kept = positive;
  let other = 0;
  if (positive.length > max) {
    const top = new Set([...positive].sort((a, b) => b.value - a.value).slice(0, max - 1));
    kept = positive.filter((i) => top.has(i));
    other = positive.filter((i) => !top.has(i)).reduce((sum, i) => sum + i.value, 0);
  }
  const total = kept.reduce((sum, i) => sum + i.value, 0) + other;
  if (!(total > 0)) return [];
  let angle = 0;
  const slices: PieSlice[] = [];
  const add = (name: string, value: number, color: number, fields?: Record<string, string>) => {
    const share = value / total;
    slices.push({
      name,
      value,
      share,
      start: angle,
      end: angle + share * 2 * Math.PI,
      color,
      fields,
    });
    angle += share * 2 * Math.PI;
  };
  for (const [i, item] of kept.entries()) add(item.name, item.value, i, item.fields);
  if (other > 0) add("Other", other, kept.length);
  return slices;
}

const point = (angle: number, radius: number) =>
  `${(50 + radius * Math.sin(angle)).toFixed(3)},${(50 - radius * Math.cos(angle)).toFixed(3)}`;

/** An SVG path of a slice in a 100 × 100 box: a wedge, or a ring segment when `inner` > 0. */
export function slicePath(start: number, end: number, outer = 48, inner = 0): string {
  // A whole circle cannot be one arc: it is drawn as two halves.
  if (end - start >= 2 * Math.PI - 1e-9) {
    const half = start + Math.PI;
    return `${slicePath(start, half, outer, inner)} ${slicePath(half, start + 2 * Math.PI, outer, inner)}`;
  }
  const large = end - start > Math.PI ? 1 : 0;
  const outerArc = `M${point(start, outer)}A${outer},${outer} 0 ${large} 1 ${point(end, outer)}`;
  if (inner <= 0) return `${outerArc}L50,50Z`;
  return `${outerArc}L${point(end, inner)}A${inner},${inner} 0 ${large} 0 ${point(start, inner)}Z`;
}
