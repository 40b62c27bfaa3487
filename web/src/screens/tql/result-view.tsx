import type { ReactNode } from "react";
import { Tabs } from "../../components/ui";
import { formatDuration, formatNumber } from "../../lib/format";
import { useUrlParam } from "../../lib/url-state";
import { downloadCsv } from "./csv";
import { ResultChart } from "./result-chart";
import { ResultsTable } from "./results-table";
import type { TqlResult } from "./tql-api";

const VIEWS = [
  { key: "table", label: "Table" },
  { key: "chart", label: "Chart" },
] as const;

/**
 * A run's result: its size and time, the rows as a table or a chart (`view=` in the URL), and
 * the screen's `actions` on it ("Add to dashboard").
 */
export function ResultView({ result, actions }: { result: TqlResult; actions?: ReactNode }) {
  const [viewParam, setView] = useUrlParam("view", "table");
  const view = viewParam === "chart" ? "chart" : "table";
  return (
    <section className="card tql-result" aria-label="Query result">
      <div className="tql-result-head">
        <Tabs
          label="Result view"
          tabs={VIEWS}
          value={view}
          onChange={(key) => setView(key === "table" ? undefined : key)}
        />
        <p className="tql-result-meta" aria-live="polite">
          <strong>{formatNumber(result.rowCount)}</strong> {result.rowCount === 1 ? "row" : "rows"}{" "}
          · {result.columns.length} {result.columns.length === 1 ? "column" : "columns"} ·{" "}
          {formatDuration(result.durationMs)}
        </p>
        <button
          type="button"
          className="button small"
          disabled={result.rowCount === 0}
          onClick={() => downloadCsv(result)}
        >
          Download CSV
        </button>
        {actions}
      </div>
      {result.truncated && (
        <p className="notice" role="status">
          Only the first {formatNumber(result.rowCount)} rows came back: the query returned more.
          Add a <code>LIMIT</code>, aggregate, or narrow the <code>WHERE</code> clause to see all of
          them.
        </p>
      )}
      {result.rowCount === 0 ? (
        <p className="empty">
          <strong>No rows</strong>
          The query ran and matched nothing. Widen its time range or loosen its filters.
        </p>
      ) : view === "chart" ? (
        <ResultChart result={result} />
      ) : (
        <ResultsTable result={result} />
      )}
    </section>
  );
}
