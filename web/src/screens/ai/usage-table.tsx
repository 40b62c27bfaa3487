import type { Usage } from "../../../../src/contracts/ai";
import {
  formatCompact,
  formatDuration,
  formatNumber,
  formatPercent,
  formatUsd,
} from "../../lib/format";

export interface UsageRow {
  key: string;
  name: string;
  detail?: string;
  usage: Usage;
}

/** Calls, tokens, cost, errors and latency per model / provider / operation; highest cost first. */
export function UsageTable({
  rows,
  caption,
  nameHeader,
  compact = false,
}: {
  rows: UsageRow[];
  caption: string;
  nameHeader: string;
  /** Fewer columns, for the half-width tables. */
  compact?: boolean;
}) {
  if (rows.length === 0) return <p className="muted">None in this time range.</p>;
  return (
    <div className="table-scroll">
      <table className="data ai-usage">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{nameHeader}</th>
            <th scope="col" className="num">
              Calls
            </th>
            <th scope="col" className="num">
              Input tokens
            </th>
            <th scope="col" className="num">
              Output tokens
            </th>
            {!compact && (
              <th scope="col" className="num">
                Cached input
              </th>
            )}
            <th scope="col" className="num">
              Cost
            </th>
            {!compact && (
              <>
                <th scope="col" className="num">
                  Cost / call
                </th>
                <th scope="col" className="num">
                  Errors
                </th>
                <th scope="col" className="num">
                  p50
                </th>
                <th scope="col" className="num">
                  p95
                </th>
              </>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ key, name, detail, usage }) => (
            <tr key={key}>
              <th scope="row">
                <span className="ai-name">{name}</span>
                {detail && <div className="muted small">{detail}</div>}
              </th>
              <td className="num">{formatNumber(usage.calls)}</td>
              <td className="num" title={formatNumber(usage.tokens.input)}>
                {formatCompact(usage.tokens.input)}
              </td>
              <td className="num" title={formatNumber(usage.tokens.output)}>
                {formatCompact(usage.tokens.output)}
              </td>
              {!compact && (
                <td className="num" title={formatNumber(usage.tokens.cacheRead)}>
                  {formatCompact(usage.tokens.cacheRead)}
                </td>
              )}
              <td className="num">
                <strong>{formatUsd(usage.costUsd)}</strong>
              </td>
              {!compact && (
                <>
                  <td className="num">
                    {formatUsd(usage.calls > 0 ? usage.costUsd / usage.calls : 0)}
                  </td>
                  <td className="num" title={`${formatNumber(usage.errors)} failed`}>
                    {formatPercent(usage.errorRate, 1)}
                  </td>
                  <td className="num">{formatDuration(usage.latencyMs.p50)}</td>
                  <td className="num">{formatDuration(usage.latencyMs.p95)}</td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
