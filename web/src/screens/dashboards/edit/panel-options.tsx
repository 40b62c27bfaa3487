import {
  DASHBOARD_GRID_COLUMNS,
  PANEL_TYPES,
  PANEL_UNITS,
  type Panel,
  PanelOptions,
  type PanelType,
  Threshold,
} from "../../../../../src/contracts/dashboards";
import { Field } from "../../../components/ui";

/** A panel in the editor: a new one has no place on the grid yet. */
export type EditedPanel = Omit<Panel, "gridPos"> & { gridPos?: Panel["gridPos"] | undefined };

export const TYPE_LABELS: Record<PanelType, string> = {
  timeseries: "Time series",
  stat: "Stat",
  table: "Table",
  bargauge: "Bar gauge",
  pie: "Pie",
  heatmap: "Heatmap",
  logs: "Logs",
  traces: "Traces",
  text: "Text",
};

const UNIT_LABELS: Record<(typeof PANEL_UNITS)[number], string> = {
  none: "None",
  count: "Count",
  ms: "Milliseconds",
  s: "Seconds",
  ns: "Nanoseconds",
  bytes: "Bytes",
  percent: "Percent (0–100)",
  percentunit: "Percent (0–1)",
  usd: "US dollars",
  eur: "Euros",
  reqps: "Requests per second",
};

const COLORS = Threshold.shape.color.options;
const REDUCERS = PanelOptions.shape.reduce.unwrap().options;
const LEGENDS = PanelOptions.shape.legend.unwrap().options;
const STYLES = PanelOptions.shape.style.unwrap().options;

const NUMERIC: readonly PanelType[] = ["timeseries", "stat", "table", "bargauge", "pie", "heatmap"];
const WITH_THRESHOLDS: readonly PanelType[] = ["timeseries", "stat", "table", "bargauge"];

/** The panel's settings beside the preview: type, names, unit, the type's options, thresholds. */
export function PanelOptionsForm({
  panel,
  error,
  onType,
  onChange,
}: {
  panel: EditedPanel;
  error: unknown;
  onType: (type: PanelType) => void;
  onChange: (change: Partial<EditedPanel>) => void;
}) {
  const options = panel.options;
  const setOption = (change: Partial<PanelOptions>) => {
    const next: PanelOptions = { ...options, ...change };
    for (const key of Object.keys(change) as (keyof PanelOptions)[])
      if (next[key] === undefined) delete next[key];
    onChange({ options: next });
  };
  const numeric = NUMERIC.includes(panel.type);
  return (
    <div className="dse-options">
      <Field label="Type" name="type" error={error}>
        {(props) => (
          <select
            {...props}
            value={panel.type}
            onChange={(e) => onType(e.target.value as PanelType)}
          >
            {PANEL_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Title" name="title" error={error}>
        {(props) => (
          <input
            {...props}
            value={panel.title}
            maxLength={200}
            onChange={(e) => onChange({ title: e.target.value })}
          />
        )}
      </Field>
      <Field label="Description" name="description" error={error} hint="Shown on hover">
        {(props) => (
          <textarea
            {...props}
            rows={2}
            value={panel.description ?? ""}
            maxLength={2000}
            onChange={(e) => onChange({ description: e.target.value || undefined })}
          />
        )}
      </Field>
      {numeric && (
        <div className="dse-pair">
          <Field label="Unit" name="unit" error={error}>
            {(props) => (
              <select
                {...props}
                value={panel.unit}
                onChange={(e) => onChange({ unit: e.target.value as Panel["unit"] })}
              >
                {PANEL_UNITS.map((u) => (
                  <option key={u} value={u}>
                    {UNIT_LABELS[u]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Decimals" name="decimals" error={error} hint="Empty: automatic">
            {(props) => (
              <input
                {...props}
                type="number"
                min={0}
                max={10}
                value={panel.decimals ?? ""}
                onChange={(e) =>
                  onChange({ decimals: e.target.value === "" ? undefined : Number(e.target.value) })
                }
              />
            )}
          </Field>
        </div>
      )}
      {panel.type === "timeseries" && (
        <div className="dse-pair">
          <Choice
            label="Style"
            value={options.style ?? "line"}
            choices={STYLES}
            onChange={(style) => setOption({ style })}
          />
          <Check
            label="Stacked"
            checked={options.stacked ?? false}
            onChange={(stacked) => setOption({ stacked: stacked || undefined })}
          />
        </div>
      )}
      {(panel.type === "timeseries" || panel.type === "pie") && (
        <Choice
          label="Legend"
          value={options.legend ?? "bottom"}
          choices={LEGENDS}
          onChange={(legend) => setOption({ legend })}
        />
      )}
      {(panel.type === "stat" || panel.type === "bargauge") && (
        <Choice
          label="Value shown"
          value={options.reduce ?? "last"}
          choices={REDUCERS}
          onChange={(reduce) => setOption({ reduce })}
        />
      )}
      {panel.type === "stat" && (
        <Check
          label="Sparkline under the value"
          checked={options.sparkline ?? false}
          onChange={(sparkline) => setOption({ sparkline: sparkline || undefined })}
        />
      )}
      {panel.type === "pie" && (
        <Check
          label="Donut"
          checked={options.donut ?? false}
          onChange={(donut) => setOption({ donut: donut || undefined })}
        />
      )}
      {panel.type === "bargauge" && (
        <Field label="Full scale" name="options.max" error={error} hint="Empty: the largest value">
          {(props) => (
            <input
              {...props}
              type="number"
              step="any"
              value={options.max ?? ""}
              onChange={(e) =>
                setOption({ max: e.target.value === "" ? undefined : Number(e.target.value) })
              }
            />
          )}
        </Field>
      )}
      {WITH_THRESHOLDS.includes(panel.type) && (
        <ThresholdsField
          thresholds={panel.thresholds}
          onChange={(thresholds) => onChange({ thresholds })}
        />
      )}
      {panel.gridPos && (
        <div className="dse-pair">
          <Choice
            label="Width (columns)"
            value={String(panel.gridPos.w)}
            choices={Array.from({ length: DASHBOARD_GRID_COLUMNS }, (_, i) => String(i + 1))}
            onChange={(w) => {
              const pos = panel.gridPos;
              if (!pos) return;
              const width = Number(w);
              onChange({
                gridPos: { ...pos, w: width, x: Math.min(pos.x, DASHBOARD_GRID_COLUMNS - width) },
              });
            }}
          />
          <Field label="Height (lines)" name="gridPos.h" error={error}>
            {(props) => (
              <input
                {...props}
                type="number"
                min={1}
                max={100}
                value={panel.gridPos?.h ?? 8}
                onChange={(e) => {
                  const h = Math.min(100, Math.max(1, Math.round(Number(e.target.value) || 1)));
                  if (panel.gridPos) onChange({ gridPos: { ...panel.gridPos, h } });
                }}
              />
            )}
          </Field>
        </div>
      )}
    </div>
  );
}

function Choice<T extends string>({
  label,
  value,
  choices,
  onChange,
}: {
  label: string;
  value: T;
  choices: readonly T[];
  onChange: (value: T) => void;
}) {
  return (
    <Field label={label}>
      {(props) => (
        <select {...props} value={value} onChange={(e) => onChange(e.target.value as T)}>
          {choices.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function Check({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="inline-field dse-check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** Thresholds: from each value up, the colour; in the order of their values when shown. */
function ThresholdsField({
  thresholds,
  onChange,
}: {
  thresholds: readonly Threshold[];
  onChange: (thresholds: Threshold[]) => void;
}) {
  const set = (index: number, change: Partial<Threshold>) =>
    onChange(thresholds.map((t, i) => (i === index ? { ...t, ...change } : t)));
  const last = thresholds.at(-1);
  return (
    <fieldset className="field-group dse-thresholds">
      <legend>Thresholds</legend>
      {thresholds.length === 0 && (
        <p className="muted small">None: values keep the series colour.</p>
      )}
      {thresholds.map((t, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; the index is their identity
        <div key={index} className="dse-threshold">
          <span className={`dse-swatch dse-swatch-${t.color}`} aria-hidden="true" />
          <select
            aria-label={`Threshold ${index + 1} colour`}
            value={t.color}
            onChange={(e) => set(index, { color: e.target.value as Threshold["color"] })}
          >
            {COLORS.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
          <span className="muted small">from</span>
          <input
            type="number"
            step="any"
            aria-label={`Threshold ${index + 1} value`}
            value={Number.isFinite(t.value) ? t.value : ""}
            onChange={(e) =>
              set(index, { value: e.target.value === "" ? 0 : Number(e.target.value) })
            }
          />
          <button
            type="button"
            className="button small"
            aria-label={`Remove threshold ${index + 1}`}
            onClick={() => onChange(thresholds.filter((_, i) => i !== index))}
          >
            ✕
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button small"
        disabled={thresholds.length >= 10}
        onClick={() =>
          onChange([
            ...thresholds,
            { value: last ? last.value * 2 || 100 : 80, color: last ? "red" : "yellow" },
          ])
        }
      >
        Add threshold
      </button>
    </fieldset>
  );
}
