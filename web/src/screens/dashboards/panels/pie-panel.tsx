import { useMemo } from "react";
import { seriesColor } from "./colors";
import { DataLinks } from "./data-links";
import { toCategoryValues } from "./frames";
import { type PanelViewProps, uniqueKeys } from "./panel-props";
import { ShapeHint } from "./panel-states";
import { pieSlices, slicePath } from "./pie-slices";
import { formatUnit } from "./units";

const percent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 1 });

/**
 * A pie (or a donut) of one slice per row, or per series reduced with a time column, with a
 * legend of each slice's value and share; a donut shows the total in its middle.
 */
export function PiePanel({ panel, frames, linkFor }: PanelViewProps) {
  const slices = useMemo(
    () => pieSlices(toCategoryValues(frames, panel.options.reduce ?? "last")),
    [frames, panel.options.reduce],
  );
  if (slices.length === 0)
    return (
      <ShapeHint>
        A pie needs positive numbers, with a text column to name each slice:{" "}
        <code>SELECT service_name, count() … GROUP BY service_name</code>.
      </ShapeHint>
    );
  const donut = panel.options.donut === true;
  const legend = panel.options.legend ?? "right";
  const keys = uniqueKeys(slices.map((s) => s.name));
  const text = (value: number) => formatUnit(value, panel.unit, panel.decimals);
  const total = slices.reduce((sum, s) => sum + s.value, 0);
  return (
    <div className={`panel-pie legend-${legend}`}>
      <div className="panel-pie-chart">
        <svg
          viewBox="0 0 100 100"
          role="img"
          aria-label={`Pie: ${slices.map((s) => s.name).join(", ")}`}
        >
          {slices.map((slice, i) => (
            <path
              key={keys[i]}
              d={slicePath(slice.start, slice.end, 48, donut ? 30 : 0)}
              fill={seriesColor(slice.color)}
            >
              <title>{`${slice.name}: ${text(slice.value)} (${percent.format(slice.share)})`}</title>
            </path>
          ))}
          {donut && (
            <text x="50" y="53" textAnchor="middle" className="panel-pie-center">
              {text(total)}
            </text>
          )}
        </svg>
      </div>
      {legend !== "hidden" && (
        <ul className="panel-legend panel-pie-legend" aria-label="Slices">
          {slices.map((slice, i) => (
            <li key={keys[i]} className="panel-legend-item">
              <span className="panel-swatch" style={{ background: seriesColor(slice.color) }} />
              <span className="panel-legend-name" title={slice.name}>
                {slice.name}
              </span>
              <span className="panel-legend-value">{text(slice.value)}</span>
              <span className="panel-legend-share muted">{percent.format(slice.share)}</span>
              {slice.fields && (
                // "Other" has no row of its own to link from.
                <DataLinks links={panel.links} values={slice.fields} linkFor={linkFor} />
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
