import { useMemo, useRef } from "react";
import { type HeatmapFrame, toHeatmap } from "./frames";
import { heatmapPlot } from "./heatmap-plot";
import type { PanelViewProps } from "./panel-props";
import { ShapeHint } from "./panel-states";
import { formatUnit } from "./units";
import { useTimePlot } from "./use-time-plot";

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
  const { unit, decimals } = panel;
  const zoomable = useTimePlot(
    { host, plotArea },
    { window, onZoom },
    heat.x,
    (frame) => heatmapPlot({ ...frame, heat, panel: { unit, decimals } }),
    [heat, unit, decimals],
  );

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
