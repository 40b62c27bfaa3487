import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useSearch } from "wouter";
import { DEVICES, type SessionSummary } from "../../../../src/contracts/browser-sessions";
import { api, type ListPage, v1 } from "../../api/client";
import { Empty, QueryView } from "../../components/feedback";
import { NoMatches, useListFilters } from "../../components/list-filters";
import { Pager, usePageParam } from "../../components/pager";
import { RelativeTime } from "../../components/relative-time";
import { PageHeader, TimeRangePicker } from "../../components/ui";
import { formatDuration, formatNumber, formatTime } from "../../lib/format";
import { useTimeRange } from "../../lib/time-range";
import { useUrlParams } from "../../lib/url-state";
import { useProject } from "../project-context";
import { FILTER_KEYS } from "./session-filters";

const PAGE_SIZE = 50;

/** The list's query string when a session was opened, so "back to sessions" restores it. */
export let lastListSearch = "";

/** Sessions overlapping the time range, filtered and sorted as the URL says, page by page. */
export function SessionList() {
  const { projectId } = useProject();
  const [range, setRange] = useTimeRange();
  const [params, set] = useUrlParams();
  const search = useSearch();
  const { values: filters, active: filtered, set: applyFilters } = useListFilters(FILTER_KEYS);
  const sortBy = params.get("sort_by") ?? "started_at";
  const sortOrder = params.get("sort_order") ?? "desc";
  const page = usePageParam();
  const sessions = useQuery({
    queryKey: ["sessions", projectId, range.from, range.to, filters, sortBy, sortOrder, page],
    queryFn: ({ signal }) =>
      api<ListPage<SessionSummary>>(v1(projectId, "/sessions"), {
        query: {
          from: range.from,
          to: range.to,
          ...filters,
          sort_by: sortBy,
          sort_order: sortOrder,
          page,
          limit: PAGE_SIZE,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  lastListSearch = search ? `?${search}` : "";
  const sort = (key: string) =>
    set({
      sort_by: key,
      sort_order: sortBy === key && sortOrder === "desc" ? "asc" : "desc",
      page: undefined,
    });
  return (
    <>
      <PageHeader title="Sessions" actions={<TimeRangePicker range={range} onChange={setRange} />}>
        <p className="muted">
          Everything one browser session sent (<code>session.id</code>): its pages, requests, AI
          calls, logs and errors.
        </p>
      </PageHeader>
      <Filters key={search} values={filters} onApply={applyFilters} />
      <QueryView
        query={sessions}
        loadingLabel="Loading sessions…"
        isEmpty={(p) => p.data.length === 0}
        empty={
          filtered ? (
            <NoMatches title="No session matches these filters" />
          ) : (
            <Empty title="No sessions in this time range">
              Sessions appear when browser SDKs send spans or logs with a session.id attribute.
            </Empty>
          )
        }
      >
        {(result) => (
          <>
            <SessionTable
              sessions={result.data}
              sortBy={sortBy}
              sortOrder={sortOrder}
              onSort={sort}
            />
            <Pager
              pagination={result.pagination}
              noun={["session", "sessions"]}
              order="newest-first"
            />
          </>
        )}
      </QueryView>
    </>
  );
}

function Filters({
  values,
  onApply,
}: {
  values: Record<string, string>;
  onApply: (values: Record<string, string>) => void;
}) {
  const [draft, setDraft] = useState(values);
  const text = (key: string, label: string, placeholder: string) => (
    <label className="sessions-filter">
      <span>{label}</span>
      <input
        value={draft[key] ?? ""}
        placeholder={placeholder}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
        maxLength={256}
      />
    </label>
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const choose = (key: string, value: string) => {
    const next = { ...draft, [key]: value };
    setDraft(next);
    onApply(next);
  };
  return (
    <form className="toolbar sessions-filters" onSubmit={submit} aria-label="Filter sessions">
      {text("user_id", "User", "user.id")}
      {text("browser", "Browser", "Chrome")}
      {text("os", "OS", "Windows")}
      {text("country", "Country", "US")}
      <label className="sessions-filter">
        <span>Device</span>
        <select value={draft.device ?? ""} onChange={(e) => choose("device", e.target.value)}>
          <option value="">Any</option>
          {DEVICES.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </select>
      </label>
      <label className="sessions-filter">
        <span>Errors</span>
        <select
          value={draft.has_errors ?? ""}
          onChange={(e) => choose("has_errors", e.target.value)}
        >
          <option value="">Any</option>
          <option value="true">With errors</option>
          <option value="false">Without errors</option>
        </select>
      </label>
      <button type="submit" className="button primary">
        Apply
      </button>
      <button
        type="button"
        className="button"
        onClick={() => {
          const cleared = Object.fromEntries(FILTER_KEYS.map((k) => [k, ""]));
          setDraft(cleared);
          onApply(cleared);
        }}
      >
        Clear
      </button>
    </form>
  );
}

const COLUMNS = [
  { key: "started_at", label: "Started" },
  { key: null, label: "User" },
  { key: "duration", label: "Duration", num: true },
  { key: null, label: "Pages", num: true },
  { key: "spans", label: "Spans", num: true },
  { key: "errors", label: "Errors", num: true },
  { key: null, label: "AI calls", num: true },
  { key: null, label: "Browser" },
  { key: null, label: "Device" },
  { key: null, label: "Country" },
  { key: "last_seen", label: "Last seen" },
] as const;

function SessionTable({
  sessions,
  sortBy,
  sortOrder,
  onSort,
}: {
  sessions: SessionSummary[];
  sortBy: string;
  sortOrder: string;
  onSort: (key: string) => void;
}) {
  return (
    <div className="table-scroll">
      <table className="data sessions-table">
        <caption className="visually-hidden">Sessions</caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => {
              const sorted = c.key !== null && c.key === sortBy;
              return (
                <th
                  key={c.label}
                  scope="col"
                  className={"num" in c ? "num" : undefined}
                  aria-sort={
                    sorted ? (sortOrder === "asc" ? "ascending" : "descending") : undefined
                  }
                >
                  {c.key ? (
                    <button type="button" className="sessions-sort" onClick={() => onSort(c.key)}>
                      {c.label}
                      {sorted ? (sortOrder === "asc" ? " ↑" : " ↓") : ""}
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id} data-session-id={s.id}>
              <td>
                <Link href={`/${encodeURIComponent(s.id)}`} title={`Session ${s.id}`}>
                  {formatTime(s.startedAt)}
                </Link>
                <div className="muted small mono">
                  {s.id.length > 18 ? `${s.id.slice(0, 18)}…` : s.id}
                </div>
              </td>
              <td>{s.userId ?? <span className="muted">anonymous</span>}</td>
              <td className="num">{formatDuration(s.durationMs)}</td>
              <td className="num" title={s.entryPage ? `Entry page ${s.entryPage}` : undefined}>
                {s.pageCount}
              </td>
              <td className="num">{formatNumber(s.counts.spans)}</td>
              <td className="num">
                {s.counts.errors > 0 ? (
                  <span className="badge badge-bad">{formatNumber(s.counts.errors)}</span>
                ) : (
                  0
                )}
              </td>
              <td className="num">{formatNumber(s.counts.aiSpans)}</td>
              <td>
                {s.browser ? `${s.browser} ${s.browserVersion?.split(".")[0] ?? ""}` : "—"}
                {s.os && <div className="muted small">{s.os}</div>}
              </td>
              <td>{s.device ?? "—"}</td>
              <td>{s.country ?? "—"}</td>
              <td>
                <RelativeTime at={s.lastSeen} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
