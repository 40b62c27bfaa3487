import { useMemo } from "react";
import { type NamedValue, toStats } from "./frames";
import { type PanelViewProps, uniqueKeys } from "./panel-props";
import { ShapeHint } from "./panel-states";
import { thresholdColor, thresholdVar } from "./thresholds";
import { formatUnit } from "./units";

/** Stats shown at most; a query that yields more wants a table or a bar gauge. */
const MAX_STATS = 24;

/**
 * One big value per series (or per label without time), reduced as the panel says (last by
 * default), in its unit and threshold colour, over a sparkline when there is a time column.
 */
export function StatPanel({ panel, frames }: PanelViewProps) {
  const stats = useMemo(
    () => toStats(frames, panel.options.reduce ?? "last"),
    [frames, panel.options.reduce],
  );
  if (stats.length === 0)
    return (
      <ShapeHint>
        A stat needs a numeric column, such as <code>count()</code> or <code>avg(duration_ms)</code>
        .
      </ShapeHint>
    );
  const shown = stats.slice(0, MAX_STATS);
  const keys = uniqueKeys(shown.map((s) => s.name));
  return (
    <div className={`panel-stats${shown.length === 1 ? " single" : ""}`}>
      {shown.map((stat, i) => (
        <StatTile key={keys[i]} stat={stat} panel={panel} named={shown.length > 1} />
      ))}
      {stats.length > MAX_STATS && (
        <p className="muted small">
          {stats.length - MAX_STATS} more values not shown: a table or bar gauge lists them all.
        </p>
      )}
    </div>
  );
}

function StatTile({
  stat,
  panel,
  named,
}: {
  stat: NamedValue;
  panel: PanelViewProps["panel"];
  named: boolean;
}) {
  const color = thresholdColor(stat.value, panel.thresholds);
  const text = formatUnit(stat.value, panel.unit, panel.decimals);
  const spark = panel.options.sparkline !== false ? stat.spark : undefined;
  return (
    <div
      className={`panel-stat${color ? " colored" : ""}`}
      style={color ? { color: thresholdVar(color) } : undefined}
    >
      {named && (
        <div className="panel-stat-name" title={stat.name}>
          {stat.name}
        </div>
      )}
      <div className="panel-stat-value" title={`${stat.name}: ${text}`}>
        {text}
      </div>
      {spark && spark.x.length > 1 && <StatSparkline x={spark.x} values={spark.values} />}
    </div>
  );
}

/** The line and area of a series in a 100 × 30 box, broken where values are missing. */
export function sparkPaths(
  x: readonly number[],
  values: readonly (number | null)[],
): { line: string; area: string } {
  const present = values.filter((v): v is number => v !== null);
  const low = Math.min(...present);
  const high = Math.max(...present);
  const x0 = x[0] ?? 0;
  const span = (x[x.length - 1] ?? x0) - x0 || 1;
  const range = high - low || 1;
  const px = (t: number) => (((t - x0) / span) * 100).toFixed(2);
  const py = (v: number) => (28 - ((v - low) / range) * 26).toFixed(2);
  let line = "";
  let area = "";
  let run: string[] = [];
  const close = () => {
    if (run.length > 0) {
      line += `M${run.join("L")}`;
      const start = run[0]?.split(",")[0];
      const end = run[run.length - 1]?.split(",")[0];
      area += `M${start},30L${run.join("L")}L${end},30Z`;
    }
    run = [];
  };
  values.forEach((v, i) => {
    if (v === null) close();
    else run.push(`${px(x[i] ?? x0)},${py(v)}`);
  });
  close();
  return { line, area };
}

function StatSparkline({ x, values }: { x: number[]; values: (number | null)[] }) {
  const paths = useMemo(() => sparkPaths(x, values), [x, values]);
  if (!paths.line) return null;
  return (
    <svg
      className="panel-stat-spark"
      viewBox="0 0 100 30"
      preserveAspectRatio="none"
      aria-hidden="true"
    >
      <path d={paths.area} className="area" />
      <path d={paths.line} className="line" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}
