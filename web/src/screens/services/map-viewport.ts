/*
 * The service map's view: a translation and a scale of the drawing in the SVG's pixels. Pure
 * functions of the sizes, so panning and zooming are tested without a browser.
 */

export interface Viewport {
  x: number;
  y: number;
  k: number;
}

export const MIN_SCALE = 0.2;
export const MAX_SCALE = 3;
const clampScale = (k: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, k));

/** The whole drawing, centred, no larger than life (a small map is not blown up). */
export function fitView(
  content: { width: number; height: number },
  box: { width: number; height: number },
): Viewport {
  if (content.width <= 0 || content.height <= 0 || box.width <= 0 || box.height <= 0)
    return { x: 0, y: 0, k: 1 };
  const k = clampScale(Math.min(1, box.width / content.width, box.height / content.height));
  return {
    x: (box.width - content.width * k) / 2,
    y: (box.height - content.height * k) / 2,
    k,
  };
}

/** Below this scale a node's figures are too small to read. */
export const READABLE_SCALE = 0.6;

/**
 * The first view of a map: all of it when it fits at a readable scale; else a readable scale
 * around `focus` (the busiest service), the drawing's edges kept at the box's edges rather than
 * leaving empty space beside them.
 */
export function initialView(
  content: { width: number; height: number },
  box: { width: number; height: number },
  focus: { x: number; y: number },
): Viewport {
  const fitted = fitView(content, box);
  if (fitted.k >= READABLE_SCALE) return fitted;
  const k = READABLE_SCALE;
  const place = (centre: number, size: number, extent: number) => {
    if (extent * k <= size) return (size - extent * k) / 2;
    return Math.min(0, Math.max(size - extent * k, size / 2 - centre * k));
  };
  return {
    x: place(focus.x, box.width, content.width),
    y: place(focus.y, box.height, content.height),
    k,
  };
}

/** Zooms by `factor` keeping the point under (px, py) where it is (a wheel under the cursor). */
export function zoomAt(view: Viewport, factor: number, px: number, py: number): Viewport {
  const k = clampScale(view.k * factor);
  const ratio = k / view.k;
  return { x: px - (px - view.x) * ratio, y: py - (py - view.y) * ratio, k };
}

/** Moves the drawing by (dx, dy) pixels. */
export const panBy = (view: Viewport, dx: number, dy: number): Viewport => ({
  ...view,
  x: view.x + dx,
  y: view.y + dy,
});

/** The SVG transform of a view. */
export const viewTransform = (view: Viewport): string =>
  `translate(${view.x.toFixed(1)} ${view.y.toFixed(1)}) scale(${view.k.toFixed(4)})`;
