import { useEffect, useMemo, useRef } from "react";
import { useDarkTheme } from "./colors";
import { type HeatmapFrame, toHeatmap } from "./frames";
import { heatmapPlot } from "./heatmap-plot";
import { isoSeconds, type PanelViewProps } from "./panel-props";
import { ShapeHint } from "./panel-states";
import { createTooltip, mountPlot } from "./plot-parts";
import { formatUnit } from "./units";

/**
 * A latency heatmap: rows of (time, bucket upper bound, count) as cells shaded by count on a
 * log scale, with the bucket and count under the cursor and drag-to-zoom like a time series.
 */
export function HeatmapPanel(props: PanelViewProps) {
  const heat = useMemo(() => toHeatmap(props.frames), [props.frames]);
  if (!heat)
    return (
      <ShapeHint>
        A heatmap needs rows of (time, bucket, count), e.g.{" "}
        <code>
          SELECT $__timeInterval(timestamp) AS t, pow(2, ceil(log2(duration_ms))) AS le, count() …
          GROUP BY t, le
        </code>
        .
      </ShapeHint>
    );
  if (heat.x.length === 0 || heat.maxCount === 0)
    return <ShapeHint>Every bucket's count is zero in this window.</ShapeHint>;
  return <HeatmapView {...props} heat={heat} />;
}

function HeatmapView({ panel, window, onZoom, heat }: PanelViewProps & { heat: HeatmapFrame }) {
  const host = useRef<HTMLDivElement>(null);
  const plotArea = useRef<HTMLDivElement>(null);
  const dark = useDarkTheme();
  const zoom = useRef(onZoom);
  zoom.current = onZoom;
  const zoomable = onZoom !== undefined;
  const from = isoSeconds(window.from);
  const to = isoSeconds(window.to);
  const { unit, decimals } = panel;

  useEffect(() => {
    const element = plotArea.current;
    const box = host.current;
    if (!element || !box) return;
    // The theme is read from CSS variables when the plot is built.
    void dark;
    const tooltip = createTooltip(box);
    const unmount = mountPlot(element, (width, height) =>
      heatmapPlot({
        element,
        width,
        height,
        heat,
        panel: { unit, decimals },
        window: {
          from: Number.isFinite(from) ? from : (heat.x[0] ?? 0),
          to: Number.isFinite(to) ? to : (heat.x[heat.x.length - 1] ?? 0),
        },
        tooltip,
        onZoom: zoomable ? (a, b) => zoom.current?.(a, b) : undefined,
      }),
    );
    return () => {
      unmount();
      tooltip.remove();
    };
  }, [heat, dark, unit, decimals, from, to, zoomable]);

  return (
    <div className="panel-heatmap" ref={host}>
      <div
        className="panel-ts-plot"
        ref={plotArea}
        role="img"
        aria-label={`Heatmap of ${heat.buckets.length} buckets over ${heat.x.length} times`}
        title={zoomable ? "Drag across the chart to zoom in to that time" : undefined}
      />
      <div className="panel-heat-scale small muted" aria-hidden="true">
        <span>0</span>
        <span className="panel-heat-ramp" />
        <span>{formatUnit(heat.maxCount, "count")}</span>
      </div>
    </div>
  );
}
