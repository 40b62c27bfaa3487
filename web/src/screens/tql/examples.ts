/** Starting points shown while the editor has not run anything: queries, not data. */
export const EXAMPLE_QUERIES: readonly { title: string; query: string }[] = [
  {
    title: "Slowest operations (p95, last hour)",
    query: `SELECT service_name, operation_name, count() AS spans,
       round(quantile(0.95)(duration_ms), 1) AS p95_ms
FROM traces
WHERE timestamp > now() - INTERVAL 1 HOUR
GROUP BY service_name, operation_name
ORDER BY p95_ms DESC
LIMIT 20`,
  },
  {
    title: "Errors per minute by service",
    query: `SELECT toStartOfMinute(timestamp) AS minute, service_name,
       countIf(status = 'error') AS errors
FROM traces
WHERE timestamp > now() - INTERVAL 1 HOUR
GROUP BY minute, service_name
ORDER BY minute`,
  },
  {
    title: "Log records by level (24 h)",
    query: `SELECT level, count() AS records
FROM logs
WHERE timestamp > now() - INTERVAL 24 HOUR
GROUP BY level
ORDER BY records DESC`,
  },
  {
    title: "LLM tokens and cost by model",
    query: `SELECT request_model, sum(total_tokens) AS tokens, round(sum(cost_usd), 4) AS cost_usd
FROM ai_spans
WHERE timestamp > now() - INTERVAL 24 HOUR
GROUP BY request_model
ORDER BY cost_usd DESC`,
  },
];
