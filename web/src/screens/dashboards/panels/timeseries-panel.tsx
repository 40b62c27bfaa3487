import { useMemo, useRef, useState } from "react";
import { seriesColor } from "./colors";
import { reduceValues, type TimeFrame, toTimeSeries } from "./frames";
import type { PanelViewProps } from "./panel-props";
import { ShapeHint } from "./panel-states";
import { timeSeriesPlot } from "./timeseries-plot";
import { formatUnit } from "./units";
import { useTimePlot } from "./use-time-plot";

/**
 * Lines, areas or bars over time (stacked or not), with the thresholds as dashed lines, a
 * tooltip of the values under the cursor, a legend that hides and shows series, and a drag
 * across the plot to zoom the dashboard's window.
 */
export function TimeSeriesPanel(props: PanelViewProps) {
  const data = useMemo(() => toTimeSeries(props.frames), [props.frames]);
  if (!data)
    return (
      <ShapeHint>
        A time series needs a Date or DateTime column: group by{" "}
        <code>$__timeInterval(timestamp) AS t</code> and order by it.
      </ShapeHint>
    );
  if (data.series.length === 0)
    return (
      <ShapeHint>
        A time series needs a numeric column to draw, such as <code>count()</code>.
      </ShapeHint>
    );
  return <TimeSeriesView {...props} data={data} />;
}

function TimeSeriesView({ panel, window, onZoom, data }: PanelViewProps & { data: TimeFrame }) {
  const host = useRef<HTMLDivElement>(null);
  const plotArea = useRef<HTMLDivElement>(null);
  // Hidden by name, so a series stays hidden when a refresh brings others before it.
  const [hiddenNames, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const hidden = useMemo(
    () => new Set(data.series.flatMap((s, i) => (hiddenNames.has(s.name) ? [i] : []))),
    [data, hiddenNames],
  );
  const { unit, decimals, thresholds, options } = panel;
  const zoomable = useTimePlot(
    { host, plotArea },
    { window, onZoom },
    data.x,
    (frame) =>
      timeSeriesPlot({ ...frame, data, hidden, panel: { unit, decimals, thresholds, options } }),
    [data, hidden, unit, decimals, thresholds, options],
  );

  const legend = options.legend ?? "bottom";
  const toggle = (name: string) =>
    setHidden((before) => {
      const next = new Set(before);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });

  return (
    <div className={`panel-ts legend-${legend}`} ref={host}>
      <div
        className="panel-ts-plot"
        ref={plotArea}
        role="img"
        aria-label={`Time series: ${data.series.map((s) => s.name).join(", ")}`}
        title={zoomable ? "Drag across the chart to zoom in to that time" : undefined}
      />
      {legend !== "hidden" && (
        <ul className="panel-legend" aria-label="Series">
          {data.series.map((s, i) => (
            <li key={s.name}>
              <button
                type="button"
                className={`panel-legend-item${hidden.has(i) ? " off" : ""}`}
                aria-pressed={!hidden.has(i)}
                title={hidden.has(i) ? "Show this series" : "Hide this series"}
                onClick={() => toggle(s.name)}
              >
                <span className="panel-swatch" style={{ background: seriesColor(i) }} />
                <span className="panel-legend-name">{s.name}</span>
                <span className="panel-legend-value">
                  {formatUnit(reduceValues(s.values, "last"), unit, decimals)}
                </span>
              </button>
            </li>
          ))}
          {data.omitted > 0 && (
            <li className="muted small">
              {data.omitted} more series not drawn (the {data.series.length} largest are)
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
