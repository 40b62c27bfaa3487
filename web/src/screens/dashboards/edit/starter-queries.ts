import type { Panel, PanelType } from "../../../../../src/contracts/dashboards";

/*
 * What a new panel of each type starts with: a query shaped as its renderer reads results
 * (docs/dashboards.md, "How panels read results"), over the dashboard's window, so a panel
 * shows data as soon as it is added and the shape is there to edit.
 */
export const STARTER_QUERIES: Record<Exclude<PanelType, "text">, string> = {
  timeseries: `SELECT $__timeInterval(timestamp) AS t, service_name, count() AS spans
FROM traces
WHERE $__timeFilter(timestamp)
GROUP BY t, service_name
ORDER BY t`,
  stat: `SELECT $__timeInterval(timestamp) AS t, count() AS spans
FROM traces
WHERE $__timeFilter(timestamp)
GROUP BY t
ORDER BY t`,
  table: `SELECT service_name, count() AS spans, round(quantile(0.95)(duration_ms), 1) AS p95_ms
FROM traces
WHERE $__timeFilter(timestamp)
GROUP BY service_name
ORDER BY spans DESC
LIMIT 50`,
  bargauge: `SELECT service_name, count() AS spans
FROM traces
WHERE $__timeFilter(timestamp)
GROUP BY service_name
ORDER BY spans DESC
LIMIT 10`,
  pie: `SELECT level, count() AS records
FROM logs
WHERE $__timeFilter(timestamp)
GROUP BY level`,
  heatmap: `SELECT $__timeInterval(timestamp) AS t,
       pow(2, ceil(log2(greatest(duration_ms, 1)))) AS bucket_ms,
       count() AS spans
FROM traces
WHERE $__timeFilter(timestamp)
GROUP BY t, bucket_ms
ORDER BY t, bucket_ms`,
  logs: `SELECT timestamp, level, service_name, message, trace_id, span_id
FROM logs
WHERE $__timeFilter(timestamp)
ORDER BY timestamp DESC
LIMIT 200`,
  traces: `SELECT trace_id, timestamp, service_name, operation_name, duration_ms, status
FROM traces
WHERE $__timeFilter(timestamp) AND parent_span_id = ''
ORDER BY duration_ms DESC
LIMIT 100`,
};

const STARTERS: readonly string[] = Object.values(STARTER_QUERIES);

/** A new panel of a type (no place yet: the grid gives it one). */
export function newPanel(type: PanelType): Omit<Panel, "gridPos"> {
  return {
    title: "",
    type,
    queries: type === "text" ? [] : [{ refId: "A", tql: STARTER_QUERIES[type] }],
    ...(type === "text" ? { content: "## Notes\n\nWrite **Markdown** here." } : {}),
    unit: "none",
    thresholds: [],
    links: [],
    options: {},
  };
}

/**
 * A panel given another type: queries that are still a starter become the new type's starter
 * (one the user wrote stays); a text panel gains a starter query, and its Markdown is kept.
 */
export function withType<P extends Pick<Panel, "type" | "queries">>(panel: P, type: PanelType): P {
  if (type === "text") return { ...panel, type };
  const starter = STARTER_QUERIES[type];
  const queries =
    panel.queries.length === 0
      ? [{ refId: "A", tql: starter }]
      : panel.queries.map((q) => (STARTERS.includes(q.tql) ? { ...q, tql: starter } : q));
  return { ...panel, type, queries };
}
