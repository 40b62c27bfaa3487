import { useMemo } from "react";
import { DataLinks } from "./data-links";
import { toCategoryValues } from "./frames";
import { type PanelViewProps, uniqueKeys } from "./panel-props";
import { ShapeHint } from "./panel-states";
import { thresholdColor, thresholdVar } from "./thresholds";
import { formatUnit } from "./units";

/** Bars shown at most; the rest are counted. */
const MAX_BARS = 100;

/**
 * One horizontal bar per row (or per series, reduced, with a time column): its length against
 * the panel's `max` (else the largest value), in its threshold colour.
 */
export function BarGaugePanel({ panel, frames, linkFor }: PanelViewProps) {
  const items = useMemo(
    () => toCategoryValues(frames, panel.options.reduce ?? "last"),
    [frames, panel.options.reduce],
  );
  if (items.length === 0)
    return (
      <ShapeHint>
        A bar gauge needs a numeric column, with a text column to name each bar:{" "}
        <code>SELECT service_name, count() …</code>.
      </ShapeHint>
    );
  const shown = items.slice(0, MAX_BARS);
  const largest = Math.max(0, ...shown.map((item) => item.value ?? 0));
  const max = panel.options.max ?? largest;
  const keys = uniqueKeys(shown.map((item) => item.name));
  return (
    <div className="panel-bars">
      <ul>
        {shown.map((item, i) => {
          const color = thresholdColor(item.value, panel.thresholds);
          const share = max > 0 && item.value !== null ? Math.max(0, item.value / max) : 0;
          const text = formatUnit(item.value, panel.unit, panel.decimals);
          return (
            <li key={keys[i]} className="panel-bar">
              <span className="panel-bar-name" title={item.name}>
                {item.name}
              </span>
              <span className="panel-bar-track" aria-hidden="true">
                <span
                  className="panel-bar-fill"
                  style={{
                    width: `${Math.min(1, share) * 100}%`,
                    ...(color ? { background: thresholdVar(color) } : {}),
                  }}
                />
              </span>
              <span
                className="panel-bar-value"
                style={color ? { color: thresholdVar(color) } : undefined}
              >
                {text}
              </span>
              <DataLinks links={panel.links} values={item.fields ?? {}} linkFor={linkFor} />
            </li>
          );
        })}
      </ul>
      {items.length > MAX_BARS && (
        <p className="muted small">{items.length - MAX_BARS} more rows not shown.</p>
      )}
    </div>
  );
}
