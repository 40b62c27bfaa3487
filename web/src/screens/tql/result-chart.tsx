import { useMemo } from "react";
import { TimeSeriesChart } from "../../components/chart";
import { Empty } from "../../components/feedback";
import { formatNumber } from "../../lib/format";
import { useUrlParams } from "../../lib/url-state";
import type { TqlResult } from "./tql-api";
import {
  buildChartData,
  type ChartConfig,
  defaultChartConfig,
  isNumericType,
  isTimeType,
  MAX_SPLIT_SERIES,
} from "./values";

/** The chart's choices from the URL (`x`, `y`, `split`, `kind`), each checked against the result. */
function useChartConfig(result: TqlResult): [ChartConfig, (change: Partial<ChartConfig>) => void] {
  const [params, setParams] = useUrlParams();
  const fallback = useMemo(() => defaultChartConfig(result.columns), [result.columns]);
  const x = params.get("x");
  const y = params.get("y");
  const split = params.get("split");
  const kind = params.get("kind");
  // One object per distinct choice, so the chart is redrawn only when a choice changes.
  const config = useMemo((): ChartConfig => {
    const names = new Set(result.columns.map((c) => c.name));
    const ys = y?.split(",").filter((name) => names.has(name));
    return {
      x: x && names.has(x) ? x : fallback.x,
      ys: ys && ys.length > 0 ? ys : fallback.ys,
      split: split === "none" ? "" : split && names.has(split) ? split : fallback.split,
      kind: kind === "line" || kind === "bar" ? kind : fallback.kind,
    };
  }, [result.columns, fallback, x, y, split, kind]);
  const set = (change: Partial<ChartConfig>) => {
    const next = { ...config, ...change };
    setParams({
      x: next.x,
      y: next.ys.join(","),
      split: next.split || "none",
      kind: next.kind,
    });
  };
  return [config, set];
}

/**
 * A line or bar chart of the result: x is a column (time when it is a DateTime, categories
 * otherwise), each chosen numeric column is a series, or one series per value of a split column.
 */
export function ResultChart({ result }: { result: TqlResult }) {
  const [config, setConfig] = useChartConfig(result);
  const data = useMemo(() => buildChartData(result, config), [result, config]);
  const numeric = result.columns.filter((c) => isNumericType(c.type));
  const splittable = result.columns.filter(
    (c) => c.name !== config.x && !isNumericType(c.type) && !isTimeType(c.type),
  );

  return (
    <div className="tql-chart">
      <div className="toolbar tql-chart-form">
        <label className="field">
          <span>X axis</span>
          <select value={config.x} onChange={(e) => setConfig({ x: e.target.value })}>
            {result.columns.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name} ({c.type})
              </option>
            ))}
          </select>
        </label>
        <fieldset className="field tql-y-columns">
          <legend>Y axis</legend>
          {numeric.length === 0 && <span className="muted">No numeric columns</span>}
          {numeric.map((c) => (
            <label key={c.name} className="inline-field">
              <input
                type="checkbox"
                checked={config.ys.includes(c.name)}
                disabled={c.name === config.x}
                onChange={(e) =>
                  setConfig({
                    ys: e.target.checked
                      ? [...config.ys, c.name]
                      : config.ys.filter((name) => name !== c.name),
                  })
                }
              />
              {c.name}
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>Split by</span>
          <select
            value={config.split}
            onChange={(e) => setConfig({ split: e.target.value })}
            disabled={splittable.length === 0}
          >
            <option value="">None</option>
            {splittable.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="field">
          <legend>Kind</legend>
          <div className="inline-field">
            {(["line", "bar"] as const).map((kind) => (
              <label key={kind} className="inline-field">
                <input
                  type="radio"
                  name="tql-chart-kind"
                  value={kind}
                  checked={config.kind === kind}
                  onChange={() => setConfig({ kind })}
                />
                {kind === "line" ? "Line" : "Bar"}
              </label>
            ))}
          </div>
        </fieldset>
      </div>
      {data.series.length === 0 || data.x.length === 0 ? (
        <Empty title="Nothing to chart">
          {numeric.length === 0
            ? "The chart needs a numeric column: add an aggregate such as count() to the query."
            : "Pick an x column and at least one numeric y column."}
        </Empty>
      ) : (
        <>
          <TimeSeriesChart
            x={data.x}
            series={data.series}
            kind={config.kind}
            height={320}
            formatValue={formatNumber}
            title={`${data.series.map((s) => s.label).join(", ")} by ${config.x}`}
            {...(data.categories ? { categories: data.categories } : {})}
          />
          {config.split && data.omitted > 0 && (
            <p className="muted small">
              Showing the {MAX_SPLIT_SERIES} largest values of {config.split}; {data.omitted} more
              are left out.
            </p>
          )}
          {config.split && config.ys.length > 1 && (
            <p className="muted small">
              Split by {config.split}, the chart shows {config.ys[0]} only.
            </p>
          )}
        </>
      )}
    </div>
  );
}
