import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { TraceGroupBy, TraceGroupSort } from "../../../../src/contracts/traces";
import { api, v1 } from "../../api/client";
import { QueryView } from "../../components/feedback";
import { FieldSuggest } from "../../components/field-suggest";
import { formatDuration, formatNumber, formatPercent } from "../../lib/format";
import type { TimeRange } from "../../lib/time-range";
import { selectionQuery, type TraceSelection } from "./trace-selection";
import { formatRate } from "./trace-stats-chart";

/** Fields worth grouping by, offered before anything is typed. */
export const COMMON_GROUP_FIELDS = [
  "http_route",
  "service_name",
  "operation_name",
  "http_status_code",
  "span_kind",
  "resource.host.name",
] as const;

const COLUMNS: { key: TraceGroupSort; label: string }[] = [
  { key: "count", label: "Spans" },
  { key: "rate", label: "Rate" },
  { key: "errors", label: "Errors" },
  { key: "error_rate", label: "Error %" },
  { key: "p50", label: "p50" },
  { key: "p95", label: "p95" },
  { key: "p99", label: "p99" },
];

const GROUP_LIMIT = 100;

/**
 * The spans following the selection grouped by one field (GET /v1/traces/group-by): count,
 * rate, errors and duration percentiles per group, sorted by any of them. Choosing a group
 * filters the traces by it.
 */
export function TraceGroups({
  projectId,
  range,
  selection,
  by,
  sort,
  order,
  onChange,
  onPick,
}: {
  projectId: string;
  range: TimeRange;
  selection: TraceSelection;
  by: string;
  sort: TraceGroupSort;
  order: "asc" | "desc";
  onChange: (changes: Record<string, string | undefined>) => void;
  onPick: (value: string) => void;
}) {
  const [typed, setTyped] = useState(by);
  useEffect(() => setTyped(by), [by]);
  const query = useQuery({
    queryKey: [
      "trace-groups",
      projectId,
      range.from,
      range.to,
      selectionQuery(selection),
      by,
      sort,
      order,
    ],
    queryFn: ({ signal }) =>
      api<TraceGroupBy>(v1(projectId, "/traces/group-by"), {
        signal,
        query: {
          from: range.from,
          to: range.to,
          ...selectionQuery(selection),
          by,
          sort_by: sort,
          sort_order: order,
          limit: GROUP_LIMIT,
        },
      }),
    placeholderData: keepPreviousData,
  });
  const sortBy = (key: TraceGroupSort) =>
    onChange({
      group_sort: key === "count" ? undefined : key,
      group_order: key === sort && order === "desc" ? "asc" : undefined,
    });

  return (
    <section className="trace-groups" aria-label="Groups">
      <form
        className="toolbar"
        aria-label="Group by"
        onSubmit={(e) => {
          e.preventDefault();
          onChange({ by: typed.trim() || undefined });
        }}
      >
        <label className="inline-field" htmlFor="trace-group-by">
          <span>Group by</span>
        </label>
        <FieldSuggest
          id="trace-group-by"
          source="traces"
          value={typed}
          onChange={setTyped}
          placeholder="http_route"
        />
        <button type="submit" className="button small">
          Group
        </button>
        <span className="muted small">
          {COMMON_GROUP_FIELDS.map((field) => (
            <button
              key={field}
              type="button"
              className="trace-group-shortcut"
              aria-pressed={field === by}
              onClick={() => onChange({ by: field })}
            >
              {field}
            </button>
          ))}
        </span>
      </form>
      <QueryView
        query={query}
        loadingLabel="Grouping spans…"
        isEmpty={(data) => data.groups.length === 0}
        empty={
          <div className="empty">
            <strong>No spans match</strong>
            <div>Nothing in this time range matches the filters.</div>
          </div>
        }
      >
        {(data) => (
          <>
            <p className="muted small">
              {formatNumber(data.spanCount)} spans in {formatNumber(data.groupCount)} groups of{" "}
              <code>{data.by}</code>
              {data.groupCount > data.groups.length
                ? `, the first ${data.groups.length} shown`
                : ""}
              . Choose a group to see its traces.
            </p>
            <div className="table-scroll">
              <table className={`data trace-group-table${query.isFetching ? " refreshing" : ""}`}>
                <caption className="visually-hidden">Spans grouped by {data.by}</caption>
                <thead>
                  <tr>
                    <th>{data.by}</th>
                    {COLUMNS.map((c) => (
                      <th
                        key={c.key}
                        className="num"
                        aria-sort={
                          sort === c.key
                            ? order === "asc"
                              ? "ascending"
                              : "descending"
                            : undefined
                        }
                      >
                        <button type="button" className="trace-sort" onClick={() => sortBy(c.key)}>
                          {c.label}
                          <span aria-hidden="true">
                            {sort === c.key ? (order === "asc" ? " ▲" : " ▼") : ""}
                          </span>
                        </button>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.groups.map((g) => (
                    <tr key={g.value}>
                      <td>
                        <button
                          type="button"
                          className="trace-group-value"
                          title={`Traces with ${data.by} = ${g.value || '""'}`}
                          onClick={() => onPick(g.value)}
                        >
                          {g.value === "" ? <span className="muted">(none)</span> : g.value}
                        </button>
                      </td>
                      <td className="num">{formatNumber(g.count)}</td>
                      <td className="num">{formatRate(g.rate)}</td>
                      <td className="num">{formatNumber(g.errors)}</td>
                      <td className="num">{formatPercent(g.errorRate, 1)}</td>
                      <td className="num">{formatDuration(g.p50Ms)}</td>
                      <td className="num">{formatDuration(g.p95Ms)}</td>
                      <td className="num">{formatDuration(g.p99Ms)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </QueryView>
    </section>
  );
}
