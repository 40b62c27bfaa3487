import { type RefObject, useEffect, useRef } from "react";
import type uPlot from "uplot";
import { useDarkTheme } from "./colors";
import { isoSeconds } from "./panel-props";
import { createTooltip, mountPlot } from "./plot-parts";

/** What a time plot's builder is given besides its own data. */
export interface TimePlotFrame {
  element: HTMLElement;
  width: number;
  height: number;
  tooltip: ReturnType<typeof createTooltip>;
  /** The window in epoch seconds, or the data's own span when the window is not known. */
  window: { from: number; to: number };
  onZoom: ((from: string, to: string) => void) | undefined;
}

/**
 * Mounts the uPlot `build` makes in `plotArea`, with a tooltip in `host`, and builds it again when
 * `deps`, the window or the theme (read from CSS variables when built) change. A drag calls the
 * latest `onZoom`, so a new callback does not rebuild the plot. Answers whether it zooms.
 */
export function useTimePlot(
  refs: { host: RefObject<HTMLDivElement | null>; plotArea: RefObject<HTMLDivElement | null> },
  view: {
    window: { from: string; to: string };
    onZoom?: ((from: string, to: string) => void) | undefined;
  },
  xs: readonly number[],
  build: (frame: TimePlotFrame) => { options: uPlot.Options; data: uPlot.AlignedData },
  deps: readonly unknown[],
): boolean {
  const dark = useDarkTheme();
  const zoom = useRef(view.onZoom);
  zoom.current = view.onZoom;
  const zoomable = view.onZoom !== undefined;
  const from = isoSeconds(view.window.from);
  const to = isoSeconds(view.window.to);
  const latest = useRef(build);
  latest.current = build;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `deps` names what `build` reads
  useEffect(() => {
    const element = refs.plotArea.current;
    const box = refs.host.current;
    if (!element || !box) return;
    void dark;
    const tooltip = createTooltip(box);
    const unmount = mountPlot(element, (width, height) =>
      latest.current({
        element,
        width,
        height,
        tooltip,
        window: {
          from: Number.isFinite(from) ? from : (xs[0] ?? 0),
          to: Number.isFinite(to) ? to : (xs[xs.length - 1] ?? 0),
        },
        onZoom: zoomable ? (a, b) => zoom.current?.(a, b) : undefined,
      }),
    );
    return () => {
      unmount();
      tooltip.remove();
    };
  }, [...deps, xs, dark, from, to, zoomable]);
  return zoomable;
}
