import type { DashboardTemplate } from "./dashboard-template.js";

// LLM and agent calls (ai_spans: spans with gen_ai.* attributes, priced at ingestion): cost,
// tokens, calls, latency and errors by model and provider.

const SPANS = "$__timeFilter(timestamp) AND service_name IN {service:Array(String)}";
const MODEL = "if(response_model != '', response_model, request_model)";

export const aiUsage: DashboardTemplate = {
  id: "ai-usage",
  title: "AI usage and cost",
  description:
    "LLM calls, tokens, estimated cost, latency and errors by model and provider, from gen_ai spans.",
  tags: ["ai", "llm", "cost"],
  howToSend: `This dashboard reads spans that follow the OpenTelemetry **GenAI semantic conventions**
(\`gen_ai.operation.name\`, \`gen_ai.provider.name\` or \`gen_ai.system\`,
\`gen_ai.request.model\`, \`gen_ai.usage.input_tokens\`, \`gen_ai.usage.output_tokens\`). Vigil
prices each call from its price table as it writes.

- **Python**: \`opentelemetry-instrumentation-openai-v2\` (or OpenLLMetry's instrumentations).
- **Node.js**: \`@opentelemetry/instrumentation-openai\`, or the Vercel AI SDK with
  \`experimental_telemetry: { isEnabled: true }\`.

Send the traces over OTLP (\`OTEL_EXPORTER_OTLP_ENDPOINT=http://<vigil-host>:4318\`,
\`OTEL_EXPORTER_OTLP_HEADERS=x-api-key=vgl_…\`). \`vigil demo\` includes an LLM-calling assistant.`,
  dataCheck: "SELECT 1 FROM ai_spans WHERE timestamp > now() - INTERVAL 7 DAY LIMIT 1",
  dashboard: {
    schemaVersion: 1,
    title: "AI usage and cost",
    description: "LLM calls, tokens, cost, latency and errors by model and provider.",
    tags: ["ai", "llm"],
    timeRange: "24h",
    refresh: "off",
    variables: [
      {
        type: "query",
        name: "service",
        label: "Service",
        multi: true,
        includeAll: true,
        default: "$__all",
        tql: "SELECT DISTINCT service_name FROM ai_spans WHERE $__timeFilter(timestamp) ORDER BY service_name",
      },
    ],
    panels: [
      {
        id: "cost",
        title: "Cost",
        type: "stat",
        gridPos: { x: 0, y: 0, w: 3, h: 4 },
        unit: "usd",
        decimals: 2,
        options: { reduce: "sum", sparkline: true },
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, sum(cost_usd) AS cost FROM ai_spans WHERE ${SPANS} GROUP BY t ORDER BY t`,
          },
        ],
      },
      {
        id: "tokens",
        title: "Tokens",
        type: "stat",
        gridPos: { x: 3, y: 0, w: 3, h: 4 },
        unit: "count",
        queries: [{ tql: `SELECT sum(total_tokens) AS tokens FROM ai_spans WHERE ${SPANS}` }],
      },
      {
        id: "calls",
        title: "Calls",
        type: "stat",
        gridPos: { x: 6, y: 0, w: 2, h: 4 },
        unit: "count",
        queries: [{ tql: `SELECT count() AS calls FROM ai_spans WHERE ${SPANS}` }],
      },
      {
        id: "latency",
        title: "p95 latency",
        type: "stat",
        gridPos: { x: 8, y: 0, w: 2, h: 4 },
        unit: "ms",
        decimals: 0,
        queries: [
          {
            tql: `SELECT quantile(0.95)(duration_ms) AS p95 FROM ai_spans WHERE ${SPANS} AND ai_operation != 'execute_tool'`,
          },
        ],
      },
      {
        id: "error-rate",
        title: "Errors",
        type: "stat",
        gridPos: { x: 10, y: 0, w: 2, h: 4 },
        unit: "percentunit",
        decimals: 1,
        thresholds: [
          { value: 0, color: "green" },
          { value: 0.02, color: "yellow" },
          { value: 0.1, color: "red" },
        ],
        queries: [
          {
            tql: `SELECT countIf(status = 'error') / greatest(count(), 1) AS error_rate FROM ai_spans WHERE ${SPANS}`,
          },
        ],
      },
      {
        id: "cost-by-model",
        title: "Cost by model",
        type: "timeseries",
        gridPos: { x: 0, y: 4, w: 8, h: 8 },
        unit: "usd",
        options: { style: "bars", stacked: true },
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, ${MODEL} AS model, sum(cost_usd) AS cost FROM ai_spans WHERE ${SPANS} AND model != '' GROUP BY t, model ORDER BY t`,
          },
        ],
      },
      {
        id: "cost-share",
        title: "Cost share by model",
        type: "pie",
        gridPos: { x: 8, y: 4, w: 4, h: 8 },
        unit: "usd",
        options: { donut: true },
        queries: [
          {
            tql: `SELECT ${MODEL} AS model, sum(cost_usd) AS cost FROM ai_spans WHERE ${SPANS} AND model != '' GROUP BY model ORDER BY cost DESC LIMIT 12`,
          },
        ],
      },
      {
        id: "tokens-over-time",
        title: "Tokens in and out",
        type: "timeseries",
        gridPos: { x: 0, y: 12, w: 6, h: 8 },
        unit: "count",
        options: { style: "area", stacked: true },
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, sum(input_tokens) AS input, sum(output_tokens) AS output FROM ai_spans WHERE ${SPANS} GROUP BY t ORDER BY t`,
          },
        ],
      },
      {
        id: "latency-by-model",
        title: "p95 latency by model",
        type: "timeseries",
        gridPos: { x: 6, y: 12, w: 6, h: 8 },
        unit: "ms",
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, ${MODEL} AS model, quantile(0.95)(duration_ms) AS p95 FROM ai_spans WHERE ${SPANS} AND model != '' GROUP BY t, model ORDER BY t`,
          },
        ],
      },
      {
        id: "calls-by-provider",
        title: "Calls by provider",
        type: "bargauge",
        gridPos: { x: 0, y: 20, w: 4, h: 8 },
        unit: "count",
        queries: [
          {
            tql: `SELECT if(provider != '', provider, '(unknown)') AS provider_name, count() AS calls FROM ai_spans WHERE ${SPANS} GROUP BY provider_name ORDER BY calls DESC LIMIT 10`,
          },
        ],
      },
      {
        id: "models",
        title: "Models",
        type: "table",
        gridPos: { x: 4, y: 20, w: 8, h: 8 },
        queries: [
          {
            tql: `SELECT provider, ${MODEL} AS model, count() AS calls, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens, round(sum(cost_usd), 4) AS cost_usd, round(quantile(0.95)(duration_ms), 0) AS p95_ms, countIf(status = 'error') AS errors FROM ai_spans WHERE ${SPANS} AND model != '' GROUP BY provider, model ORDER BY cost_usd DESC LIMIT 100`,
          },
        ],
      },
      {
        id: "failed-calls",
        title: "Failed calls",
        type: "traces",
        gridPos: { x: 0, y: 28, w: 12, h: 8 },
        queries: [
          {
            tql: `SELECT trace_id, timestamp, service_name, operation_name, duration_ms, status FROM ai_spans WHERE ${SPANS} AND status = 'error' ORDER BY timestamp DESC LIMIT 50`,
          },
        ],
      },
    ],
  },
};
