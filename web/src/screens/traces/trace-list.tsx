import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import {
  TRACE_GROUP_SORTS,
  type TraceGroupSort,
  type TraceSummary,
} from "../../../../src/contracts/traces";
import { api, type ListPage, v1 } from "../../api/client";
import { QueryView } from "../../components/feedback";
import { filtersParam } from "../../components/filters/filter-model";
import { Pager, usePageParam } from "../../components/pager";
import { SavedViews } from "../../components/saved-views";
import { PageHeader, StateBadge, Tabs, TimeRangePicker } from "../../components/ui";
import { formatDuration, formatNumber, formatRelative, formatTime } from "../../lib/format";
import { useChartZoom, useTimeRange } from "../../lib/time-range";
import { useUrlParams } from "../../lib/url-state";
import { useProject } from "../project-context";
import { listReturn } from "./list-return";
import { TraceFilters } from "./trace-filters";
import { TraceGroups } from "./trace-groups";
import { isFiltered, readSelection, selectionQuery, withFilter } from "./trace-selection";
import { TRACE_SORTS } from "./trace-sorts";
import { TraceStatsChart } from "./trace-stats-chart";

const PAGE_SIZE = 50;
const TRACE_ID = /^[0-9a-f]{32}$/;

type SortKey = (typeof TRACE_SORTS)[number]["key"];

const VIEWS = [
  { key: "list", label: "Traces" },
  { key: "groups", label: "Group by" },
] as const;

/** `/traces`: trace summaries with filters, sorting and pages, all kept in the URL. */
export function TraceList() {
  const { projectId } = useProject();
  const [params, setParams] = useUrlParams();
  const [range, setRange] = useTimeRange();
  const selection = readSelection(params);
  const selected = selectionQuery(selection);
  const view = params.get("view") === "groups" ? "groups" : "list";
  const by = params.get("by") || "http_route";
  const groupSortParam = params.get("group_sort") ?? "count";
  const groupSort: TraceGroupSort = TRACE_GROUP_SORTS.some((s) => s === groupSortParam)
    ? (groupSortParam as TraceGroupSort)
    : "count";
  const groupOrder = params.get("group_order") === "asc" ? "asc" : "desc";
  const zoom = useChartZoom(setRange);
  const sortParam = params.get("sort") ?? "start_time";
  const sort: SortKey = TRACE_SORTS.some((s) => s.key === sortParam)
    ? (sortParam as SortKey)
    : "start_time";
  const order = params.get("order") === "asc" ? "asc" : "desc";
  const page = usePageParam();

  useEffect(() => {
    listReturn.search = window.location.search;
  });

  const query = useQuery({
    queryKey: ["traces", projectId, range.from, range.to, selected, sort, order, page],
    queryFn: ({ signal }) =>
      api<ListPage<TraceSummary>>(v1(projectId, "/traces"), {
        signal,
        query: {
          from: range.from,
          to: range.to,
          ...selected,
          sort_by: sort,
          sort_order: order,
          page,
          limit: PAGE_SIZE,
        },
      }),
    placeholderData: keepPreviousData,
    enabled: view === "list",
  });

  const sortBy = (key: SortKey) =>
    setParams({
      sort: key === "start_time" ? undefined : key,
      order: key === sort && order === "desc" ? "asc" : undefined,
      page: undefined,
    });
  const header = (key: SortKey, label: string, className = "num") => (
    <th
      className={className || undefined}
      aria-sort={sort === key ? (order === "asc" ? "ascending" : "descending") : undefined}
    >
      <button type="button" className="trace-sort" onClick={() => sortBy(key)}>
        {label}
        <span aria-hidden="true">{sort === key ? (order === "asc" ? " ▲" : " ▼") : ""}</span>
      </button>
    </th>
  );

  return (
    <>
      <PageHeader
        title="Traces"
        actions={
          <>
            <GoToTrace />
            <SavedViews kind="traces" />
            <TimeRangePicker
              range={range}
              onChange={(next, options) => {
                setRange(next, options);
                setParams({ page: undefined });
              }}
            />
          </>
        }
      >
        <p className="muted">Requests as they crossed your services, newest first.</p>
      </PageHeader>
      <TraceFilters
        projectId={projectId}
        range={range}
        error={query.error}
        selection={selection}
        onChange={(changes) => setParams({ ...changes, page: undefined })}
      />
      <TraceStatsChart projectId={projectId} range={range} selection={selection} onZoom={zoom} />
      <Tabs
        tabs={VIEWS}
        value={view}
        label="Traces or groups"
        onChange={(key) => setParams({ view: key === "list" ? undefined : key })}
      />
      {view === "groups" ? (
        <TraceGroups
          projectId={projectId}
          range={range}
          selection={selection}
          by={by}
          sort={groupSort}
          order={groupOrder}
          onChange={setParams}
          onPick={(value) => {
            // The group's spans are the selected service's when one is chosen: keep that span's.
            const service = selection.service
              ? withFilter(selection.filters, {
                  field: "service_name",
                  op: "=",
                  value: selection.service,
                })
              : selection.filters;
            setParams(
              {
                filters: filtersParam(withFilter(service, { field: by, op: "=", value })),
                view: undefined,
                page: undefined,
              },
              { push: true },
            );
          }}
        />
      ) : (
        <QueryView
          query={query}
          loadingLabel="Loading traces…"
          isEmpty={(data) => data.data.length === 0}
          empty={
            <div className="empty">
              <strong>No traces match</strong>
              <div>
                {isFiltered(selection)
                  ? "Nothing in this time range matches the filters. Clear them or widen the range."
                  : `No spans arrived in the ${range.label.toLowerCase()}. Send OpenTelemetry traces to /v1/traces, or widen the range.`}
              </div>
            </div>
          }
        >
          {(data) => {
            const longest = Math.max(1, ...data.data.map((t) => t.durationMs));
            return (
              <>
                <div className="table-scroll">
                  <table className={`data trace-table${query.isFetching ? " refreshing" : ""}`}>
                    <caption className="visually-hidden">Traces</caption>
                    <thead>
                      <tr>
                        {header("start_time", "Start", "")}
                        <th>Trace</th>
                        {header("duration", "Duration")}
                        {header("span_count", "Spans")}
                        {header("error_count", "Errors")}
                        <th>Services</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.data.map((t) => (
                        <TraceRow key={t.traceId} trace={t} longest={longest} />
                      ))}
                    </tbody>
                  </table>
                </div>
                <Pager pagination={data.pagination} noun={["trace", "traces"]} />
              </>
            );
          }}
        </QueryView>
      )}
    </>
  );
}

function TraceRow({ trace, longest }: { trace: TraceSummary; longest: number }) {
  const shown = trace.services.slice(0, 4);
  return (
    <tr className={trace.status === "error" ? "trace-error" : undefined}>
      <td className="trace-nowrap">
        <span title={formatRelative(trace.startTime)}>{formatTime(trace.startTime)}</span>
      </td>
      <td>
        <Link href={`/${trace.traceId}`} className="trace-link">
          <span className="trace-service">{trace.rootService}</span> {trace.rootOperation}
        </Link>
        <div className="muted small mono">
          {trace.traceId.slice(0, 16)}…{!trace.hasRoot && " · root span missing"}
        </div>
      </td>
      <td className="num">
        <span className="trace-duration">
          <span className="trace-duration-track" aria-hidden="true">
            <span
              className="trace-duration-bar"
              style={{ width: `${Math.max(2, (trace.durationMs / longest) * 100)}%` }}
            />
          </span>
          {formatDuration(trace.durationMs)}
        </span>
      </td>
      <td className="num">{formatNumber(trace.spanCount)}</td>
      <td className="num">
        {trace.errorCount > 0 ? (
          <StateBadge
            state={`${formatNumber(trace.errorCount)} error${trace.errorCount === 1 ? "" : "s"}`}
            tone="bad"
          />
        ) : (
          <span className="muted">0</span>
        )}
      </td>
      <td>
        <span className="trace-chips">
          {shown.map((s) => (
            <span key={s} className="trace-chip">
              {s}
            </span>
          ))}
          {trace.services.length > shown.length && (
            <span className="muted small">+{trace.services.length - shown.length}</span>
          )}
        </span>
      </td>
    </tr>
  );
}

/** Opens a trace by its id (from a log line, an error, a colleague's message). */
function GoToTrace() {
  const [, navigate] = useLocation();
  const [text, setText] = useState("");
  const [invalid, setInvalid] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = text.trim().toLowerCase();
    if (!TRACE_ID.test(id)) {
      setInvalid(true);
      return;
    }
    navigate(`/${id}`);
  };
  return (
    <form className="go-to-trace" onSubmit={submit} aria-label="Open a trace by ID">
      <label className="inline-field">
        <span>Trace ID</span>
        <input
          value={text}
          placeholder="32 hex characters"
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? "trace-id-error" : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setInvalid(false);
          }}
        />
      </label>
      <button type="submit" className="button">
        Open
      </button>
      {invalid && (
        <small id="trace-id-error" className="field-error" role="alert">
          A trace ID is 32 hexadecimal characters.
        </small>
      )}
    </form>
  );
}
