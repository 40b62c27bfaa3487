import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { api, v1 } from "../../api/client";
import { TimeSeriesChart } from "../../components/chart";
import { Empty, QueryView } from "../../components/feedback";
import { PageHeader, TimeRangePicker } from "../../components/ui";
import {
  formatCompact,
  formatDuration,
  formatNumber,
  formatPercent,
  formatUsd,
} from "../../lib/format";
import { useChartZoom, useTimeRange } from "../../lib/time-range";
import { useUrlParam } from "../../lib/url-state";
import { useProject } from "../project-context";
import "./ai.css";
import { AI_CONTEXTS, type AiDashboard, modelName } from "../../../../src/contracts/ai";
import { Recommendations } from "./recommendations";
import { UsageTable } from "./usage-table";

/** The AI dashboard: cost and tokens by model over the time range, and the analyzers' findings. */
export function Area() {
  const { projectId } = useProject();
  const [range, setRange] = useTimeRange();
  const [context, setContext] = useUrlParam("context");
  const zoom = useChartZoom(setRange);
  const dashboard = useQuery({
    queryKey: ["ai-dashboard", projectId, range.from, range.to, context],
    queryFn: ({ signal }) =>
      api<AiDashboard>(v1(projectId, "/ai/dashboard"), {
        query: { from: range.from, to: range.to, context: context || undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader
        title="AI"
        actions={
          <>
            <label className="inline-field">
              <span>Findings</span>
              <select
                value={context}
                onChange={(e) => setContext(e.target.value || undefined)}
                aria-label="Findings area"
              >
                <option value="">All areas</option>
                {AI_CONTEXTS.map((c) => (
                  <option key={c} value={c}>
                    {c[0]?.toUpperCase()}
                    {c.slice(1)}
                  </option>
                ))}
              </select>
            </label>
            <TimeRangePicker range={range} onChange={setRange} />
          </>
        }
      >
        <p className="muted">
          Calls to language models (spans with <code>gen_ai.*</code> attributes): cost, tokens and
          latency by model, and what the analyzers found in this project's telemetry.
        </p>
      </PageHeader>
      <QueryView query={dashboard} loadingLabel="Loading the AI dashboard…">
        {(data) => <Dashboard data={data} onZoom={zoom} />}
      </QueryView>
    </>
  );
}

/** Dragging across a chart zooms the screen to that time. */
type ZoomHandler = (from: number, to: number) => void;

function Dashboard({ data, onZoom }: { data: AiDashboard; onZoom: ZoomHandler }) {
  const { summary } = data;
  return (
    <>
      <div className="grid ai-stats">
        <Stat label="Cost" value={formatUsd(summary.costUsd)} />
        <Stat label="Calls" value={formatNumber(summary.calls)} />
        <Stat
          label="Tokens"
          value={formatCompact(summary.tokens.total)}
          detail={`${formatCompact(summary.tokens.input)} in · ${formatCompact(summary.tokens.output)} out`}
        />
        <Stat
          label="Error rate"
          value={formatPercent(summary.errorRate)}
          detail={`${formatNumber(summary.errors)} failed calls`}
        />
        <Stat
          label="Latency p95"
          value={formatDuration(summary.latencyMs.p95)}
          detail={`p50 ${formatDuration(summary.latencyMs.p50)}`}
        />
      </div>
      {summary.calls === 0 ? (
        <Empty title="No AI calls in this time range">
          Send spans with OpenTelemetry's <code>gen_ai.*</code> attributes (model, token usage) to
          see their cost here.
        </Empty>
      ) : (
        <>
          <OverTime data={data} onZoom={onZoom} />
          <section className="card" aria-labelledby="ai-models-title">
            <h2 id="ai-models-title">By model</h2>
            <CostByModel data={data} />
            <UsageTable
              caption="Usage by model"
              rows={data.byModel.map((m) => ({
                key: `${m.provider}/${m.requestModel}/${m.responseModel}`,
                name: modelName(m),
                detail:
                  m.requestModel && m.requestModel !== m.responseModel
                    ? `${m.provider} · requested ${m.requestModel}`
                    : m.provider,
                usage: m,
              }))}
              nameHeader="Model"
            />
          </section>
          <div className="split">
            <section className="card" aria-labelledby="ai-providers-title">
              <h2 id="ai-providers-title">By provider</h2>
              <UsageTable
                caption="Usage by provider"
                compact
                rows={data.byProvider.map((p) => ({
                  key: p.provider,
                  name: p.provider || "(unknown)",
                  usage: p,
                }))}
                nameHeader="Provider"
              />
            </section>
            <section className="card" aria-labelledby="ai-operations-title">
              <h2 id="ai-operations-title">Most expensive operations</h2>
              <UsageTable
                caption="Usage by operation"
                compact
                rows={data.topOperations.map((o) => ({
                  key: `${o.operation}/${o.aiOperation}`,
                  name: o.operation,
                  detail: o.aiOperation,
                  usage: o,
                }))}
                nameHeader="Operation"
              />
            </section>
          </div>
        </>
      )}
      <Recommendations data={data} />
    </>
  );
}

function Stat({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="stat">
      <div className="label">{label}</div>
      <div className="value">{value}</div>
      {detail && <div className="muted small">{detail}</div>}
    </div>
  );
}

function OverTime({ data, onZoom }: { data: AiDashboard; onZoom: ZoomHandler }) {
  const { x, cost, tokens } = useMemo(() => {
    const times = data.series.map((p) => Date.parse(p.time) / 1000);
    return {
      x: times,
      cost: [{ label: "Cost (USD)", values: data.series.map((p) => p.costUsd) }],
      tokens: [
        { label: "Input tokens", values: data.series.map((p) => p.inputTokens) },
        { label: "Output tokens", values: data.series.map((p) => p.outputTokens) },
      ],
    };
  }, [data.series]);
  const every = bucketLabel(data.bucketSeconds);
  return (
    <div className="split">
      <section className="card" aria-labelledby="ai-cost-title">
        <h2 id="ai-cost-title">Cost over time</h2>
        <p className="muted small">Per {every}</p>
        <TimeSeriesChart
          x={x}
          series={cost}
          kind="bar"
          formatValue={formatUsd}
          title="AI cost over time"
          onZoom={onZoom}
        />
      </section>
      <section className="card" aria-labelledby="ai-tokens-title">
        <h2 id="ai-tokens-title">Tokens over time</h2>
        <p className="muted small">Per {every}</p>
        <TimeSeriesChart
          x={x}
          series={tokens}
          formatValue={formatCompact}
          title="AI tokens over time"
          onZoom={onZoom}
        />
      </section>
    </div>
  );
}

/** "5 min", "1 h", "30 s": the series' bucket size. */
function bucketLabel(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** Each model's share of the cost as a bar (with its figures in text, not only the bar). */
function CostByModel({ data }: { data: AiDashboard }) {
  const total = data.summary.costUsd;
  const max = Math.max(...data.byModel.map((m) => m.costUsd), 0);
  if (max <= 0) return null;
  return (
    <ul className="ai-bars" aria-label="Cost by model">
      {data.byModel.slice(0, 12).map((m) => (
        <li key={`${m.provider}/${m.requestModel}/${m.responseModel}`}>
          <span className="ai-name">{modelName(m)}</span>
          <span className="ai-bar" aria-hidden="true">
            <span style={{ width: `${(m.costUsd / max) * 100}%` }} />
          </span>
          <span className="ai-bar-value">
            {formatUsd(m.costUsd)}{" "}
            <span className="muted small">
              {formatPercent(total > 0 ? m.costUsd / total : 0, 0)} ·{" "}
              {formatCompact(m.tokens.total)} tokens
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}
