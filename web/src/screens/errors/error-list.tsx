import { type FormEvent, useEffect, useState } from "react";
import { Link } from "wouter";
import { Sparkline } from "../../components/chart";
import { Empty, QueryView } from "../../components/feedback";
import { Field, PageHeader, StateBadge, TimeRangePicker } from "../../components/ui";
import { formatCompact, formatNumber, formatRelative, formatTime } from "../../lib/format";
import { useTimeRange } from "../../lib/time-range";
import { useUrlParams } from "../../lib/url-state";
import { useProject } from "../project-context";
import {
  ERROR_SEVERITIES,
  ERROR_SORTS,
  type ErrorSummary,
  type ErrorTrends,
  useErrorList,
  useErrorTrends,
} from "./errors-api";

const PAGE_SIZE = 50;
const STATUS_FILTERS = [
  { key: "active", label: "Open" },
  { key: "resolved", label: "Resolved" },
  { key: "all", label: "All" },
] as const;

/** Error groups seen in the range: filters in the URL, a sparkline of each group's occurrences. */
export function ErrorList() {
  const { projectId } = useProject();
  const [params, set] = useUrlParams();
  const [range, setRange] = useTimeRange("24h");
  const status = params.get("status") ?? "active";
  const severity = params.get("severity") ?? "";
  const source = params.get("source") ?? "";
  const q = params.get("q") ?? "";
  const sort = params.get("sort") ?? "last_seen";
  const page = Math.max(1, Number(params.get("page")) || 1);
  const within = { from: range.from, to: range.to };
  const list = useErrorList(projectId, {
    ...(status === "all" ? {} : { status }),
    severity,
    source,
    search: q,
    sort_by: sort,
    ...within,
    page,
    limit: PAGE_SIZE,
  });
  const ids = list.data?.data.map((e) => e.id) ?? [];
  const trends = useErrorTrends(projectId, ids, within);
  const filter = (changes: Record<string, string | undefined>) =>
    set({ ...changes, page: undefined });

  return (
    <>
      <PageHeader
        title="Errors"
        actions={<TimeRangePicker range={range} onChange={(key) => setRange(key)} />}
      >
        <p className="muted small">Groups that occurred in the {range.label.toLowerCase()}</p>
      </PageHeader>
      <div className="toolbar errors-toolbar">
        <fieldset className="errors-status">
          <legend className="visually-hidden">Status</legend>
          {STATUS_FILTERS.map((s) => (
            <button
              key={s.key}
              type="button"
              className={`button small${status === s.key ? " primary" : ""}`}
              aria-pressed={status === s.key}
              onClick={() => filter({ status: s.key === "active" ? undefined : s.key })}
            >
              {s.label}
            </button>
          ))}
        </fieldset>
        <SearchBox value={q} error={list.error} onSearch={(text) => filter({ q: text })} />
        <Field label="Severity" name="severity" error={list.error}>
          {(props) => (
            <select
              {...props}
              value={severity}
              onChange={(e) => filter({ severity: e.target.value })}
            >
              <option value="">Any severity</option>
              {ERROR_SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Source" name="source" error={list.error}>
          {(props) => (
            <select {...props} value={source} onChange={(e) => filter({ source: e.target.value })}>
              <option value="">All sources</option>
              <option value="backend">backend</option>
              <option value="frontend">frontend</option>
            </select>
          )}
        </Field>
        <Field label="Sort by" name="sort_by" error={list.error}>
          {(props) => (
            <select {...props} value={sort} onChange={(e) => filter({ sort: e.target.value })}>
              {ERROR_SORTS.map((s) => (
                <option key={s.key} value={s.key}>
                  {s.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <QueryView
        query={list}
        loadingLabel="Loading errors…"
        isEmpty={(d) => d.data.length === 0}
        empty={
          <Empty title={status === "resolved" ? "No resolved errors" : "No errors in this range"}>
            {status === "active"
              ? "Nothing is failing, or nothing has reported an exception yet."
              : "Try another status or a longer range."}
          </Empty>
        }
      >
        {(data) => (
          <>
            <ErrorTable rows={data.data} trends={trends.data} />
            <Pager
              page={data.pagination.page}
              totalPages={data.pagination.totalPages}
              total={data.pagination.total}
              onPage={(p) => set({ page: p === 1 ? undefined : p }, { push: true })}
            />
          </>
        )}
      </QueryView>
    </>
  );
}

function SearchBox({
  value,
  error,
  onSearch,
}: {
  value: string;
  error: unknown;
  onSearch: (text: string) => void;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form aria-label="Search errors" className="errors-search" onSubmit={submit}>
      <Field label="Search" name="search" error={error}>
        {(props) => (
          <input
            {...props}
            type="search"
            value={text}
            placeholder="Type or message"
            onChange={(e) => setText(e.target.value)}
          />
        )}
      </Field>
      <button type="submit" className="button">
        Search
      </button>
    </form>
  );
}

function ErrorTable({ rows, trends }: { rows: ErrorSummary[]; trends: ErrorTrends | undefined }) {
  const byId = new Map(trends?.trends.map((t) => [t.errorId, t]));
  return (
    <div className="table-scroll">
      <table className="data errors-table">
        <thead>
          <tr>
            <th scope="col">Error</th>
            <th scope="col">Trend</th>
            <th scope="col" className="num">
              In range
            </th>
            <th scope="col" className="num">
              Total
            </th>
            <th scope="col">Last seen</th>
            <th scope="col">Severity</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => {
            const trend = byId.get(e.id);
            return (
              <tr key={e.id}>
                <td>
                  <div className="errors-title">
                    <Link href={`/${e.id}`}>
                      <strong>{e.type}</strong>
                    </Link>
                    <span className="errors-message">{e.message}</span>
                    <span className="muted small mono">
                      {e.culprit || "no in-app frame"} · {e.services.join(", ")}
                    </span>
                  </div>
                </td>
                <td>
                  {trend ? (
                    <Sparkline
                      values={trend.counts}
                      label={`${formatNumber(trend.total)} occurrences in range`}
                    />
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <td className="num">{trend ? formatCompact(trend.total) : "—"}</td>
                <td className="num">{formatCompact(e.occurrences)}</td>
                <td className="nowrap">
                  <time dateTime={e.lastSeen} title={formatTime(e.lastSeen)}>
                    {formatRelative(e.lastSeen)}
                  </time>
                </td>
                <td>
                  <StateBadge state={e.severity} />
                </td>
                <td>
                  <StateBadge
                    state={e.status === "active" ? "open" : "resolved"}
                    tone={e.status === "active" ? "bad" : "ok"}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Pager({
  page,
  totalPages,
  total,
  onPage,
}: {
  page: number;
  totalPages: number;
  total: number;
  onPage: (page: number) => void;
}) {
  return (
    <nav className="errors-pager" aria-label="Pages">
      <span className="muted small">
        {formatNumber(total)} group{total === 1 ? "" : "s"} · page {page} of {totalPages}
      </span>
      <button
        type="button"
        className="button small"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Previous
      </button>
      <button
        type="button"
        className="button small"
        disabled={page >= totalPages}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
