/**
 * A small inline trend of one series over the range's buckets, as SVG (no canvas per list row).
 * A bucket without a value (no requests, so no p95) breaks the line rather than reading as 0.
 */
export function Trend({
  values,
  label,
  tone,
  width = 96,
  height = 24,
}: {
  values: readonly (number | null)[];
  /** What the trend shows, for screen readers ("Requests per minute of orders"). */
  label: string;
  tone?: "bad" | undefined;
  width?: number;
  height?: number;
}) {
  const max = Math.max(0, ...values.map((v) => v ?? 0));
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const y = (v: number) => (max === 0 ? height - 1 : height - 1 - (v / max) * (height - 2));
  const runs: string[] = [];
  let run: string[] = [];
  values.forEach((v, i) => {
    if (v === null) {
      if (run.length) runs.push(run.join(" "));
      run = [];
    } else run.push(`${(i * step).toFixed(1)},${y(v).toFixed(1)}`);
  });
  if (run.length) runs.push(run.join(" "));
  return (
    <svg
      className={`sparkline svc-trend${tone ? ` svc-tone-${tone}` : ""}`}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
    >
      {runs.map((points) =>
        points.includes(" ") ? (
          <polyline
            key={points}
            points={points}
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
          />
        ) : (
          <circle
            key={points}
            cx={points.split(",")[0]}
            cy={points.split(",")[1]}
            r="1.5"
            fill="currentColor"
          />
        ),
      )}
    </svg>
  );
}
