import { useEffect, useMemo, useRef, useState } from "react";
import { seriesColor, useDarkTheme } from "./colors";
import { reduceValues, type TimeFrame, toTimeSeries } from "./frames";
import { isoSeconds, type PanelViewProps } from "./panel-props";
import { ShapeHint } from "./panel-states";
import { createTooltip, mountPlot } from "./plot-parts";
import { timeSeriesPlot } from "./timeseries-plot";
import { formatUnit } from "./units";

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
  const dark = useDarkTheme();
  // The latest handler, read when a drag ends, so a new callback does not rebuild the plot.
  const zoom = useRef(onZoom);
  zoom.current = onZoom;
  const zoomable = onZoom !== undefined;
  const from = isoSeconds(window.from);
  const to = isoSeconds(window.to);
  const { unit, decimals, thresholds, options } = panel;

  useEffect(() => {
    const element = plotArea.current;
    const box = host.current;
    if (!element || !box) return;
    // The theme is read from CSS variables when the plot is built.
    void dark;
    const tooltip = createTooltip(box);
    const unmount = mountPlot(element, (width, height) =>
      timeSeriesPlot({
        element,
        width,
        height,
        data,
        hidden,
        panel: { unit, decimals, thresholds, options },
        window: {
          from: Number.isFinite(from) ? from : (data.x[0] ?? 0),
          to: Number.isFinite(to) ? to : (data.x[data.x.length - 1] ?? 0),
        },
        tooltip,
        onZoom: zoomable ? (a, b) => zoom.current?.(a, b) : undefined,
      }),
    );
    return () => {
      unmount();
      tooltip.remove();
    };
  }, [data, hidden, dark, unit, decimals, thresholds, options, from, to, zoomable]);

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
