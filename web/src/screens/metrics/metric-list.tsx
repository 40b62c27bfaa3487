import { useEffect, useState } from "react";
import type { MetricNameView } from "../../../../src/contracts/metric-names";
import { describeType } from "../../../../src/contracts/metric-queries";
import { Empty, ProblemMessage } from "../../components/feedback";
import { formatNumber, formatRelative } from "../../lib/format";
import type { TimeRange } from "../../lib/time-range";
import { useMetricNames } from "./metrics-api";

/** How long typing rests before the list asks the server again. */
const SEARCH_DEBOUNCE_MS = 250;

/**
 * The project's metrics in the window, searchable by name or description: each with its type,
 * unit and description. Choosing one charts it.
 */
export function MetricList({
  projectId,
  range,
  search,
  onSearch,
  selected,
  onSelect,
}: {
  projectId: string;
  range: TimeRange;
  search: string;
  onSearch: (text: string) => void;
  selected: { name: string; type: string } | null;
  onSelect: (metric: MetricNameView) => void;
}) {
  const [text, setText] = useState(search);
  useEffect(() => setText(search), [search]);
  useEffect(() => {
    if (text === search) return;
    const timer = setTimeout(() => onSearch(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, search, onSearch]);
  const names = useMetricNames(projectId, range, search);
  const list = names.data?.data ?? [];
  return (
    <section className="card metrics-list" aria-labelledby="metrics-list-title">
      <h2 id="metrics-list-title">Metrics</h2>
      <input
        type="search"
        className="metrics-search"
        placeholder="Search names and descriptions"
        aria-label="Search metrics"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      {names.isError && <ProblemMessage error={names.error} title="The metrics did not load" />}
      {names.isPending && <p className="muted small">Loading the metrics…</p>}
      {names.isSuccess && list.length === 0 && (
        <Empty title={search ? "No metric matches" : "No metrics in this time range"}>
          {search
            ? "Try another part of the name, or a longer time range."
            : "Send OpenTelemetry metrics (OTLP) to see them here."}
        </Empty>
      )}
      <ul className="metrics-names" aria-busy={names.isFetching}>
        {list.map((m) => {
          const current = selected?.name === m.name && selected.type === m.type;
          return (
            <li key={`${m.name}\u0000${m.type}`}>
              <button
                type="button"
                className={`metrics-name${current ? " current" : ""}`}
                aria-pressed={current}
                onClick={() => onSelect(m)}
                title={m.description || m.name}
              >
                <span className="metrics-name-text">{m.name}</span>
                <span className="metrics-name-meta">
                  <span className="badge badge-muted">{describeType(m.type, m.monotonic)}</span>
                  {m.unit && <code>{m.unit}</code>}
                  <span className="muted" title={m.lastSeen}>
                    {formatNumber(m.series)} series · {formatRelative(m.lastSeen)}
                  </span>
                </span>
                {m.description && <span className="metrics-name-description">{m.description}</span>}
              </button>
            </li>
          );
        })}
      </ul>
      {names.data?.pagination.hasMore && (
        <p className="muted small">
          The first {list.length} of {formatNumber(names.data.pagination.total)}: search to narrow.
        </p>
      )}
    </section>
  );
}
