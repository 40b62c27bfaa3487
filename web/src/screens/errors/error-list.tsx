import { type FormEvent, useEffect, useState } from "react";
import { Link } from "wouter";
import {
  ERROR_SEVERITIES,
  type ErrorSummary,
  type ErrorTrends,
} from "../../../../src/contracts/error-groups";
import { Sparkline } from "../../components/chart";
import { DataTable } from "../../components/data-table";
import { Empty, QueryView } from "../../components/feedback";
import { FilterSelect } from "../../components/list-filters";
import { Pager, usePageParam } from "../../components/pager";
import { RelativeTime } from "../../components/relative-time";
import { TextField } from "../../components/text-field";
import { PageHeader, StateBadge, TimeRangePicker } from "../../components/ui";
import { formatCompact, formatNumber } from "../../lib/format";
import { useTimeRange } from "../../lib/time-range";
import { useUrlParams } from "../../lib/url-state";
import { useProject } from "../project-context";
import { ERROR_SORTS, useErrorList, useErrorTrends } from "./errors-api";

const PAGE_SIZE = 50;
const ERROR_SOURCES = ["backend", "frontend"] as const;
const STATUS_FILTERS = [
  { key: "active", label: "Open" },
  { key: "resolved", label: "Resolved" },
  { key: "all", label: "All" },
] as const;

/** Error groups seen in the range: filters in the URL, a sparkline of each group's occurrences. */
export function ErrorList() {
  const { projectId } = useProject();
  const [params, set] = useUrlParams();
  const [range, setRange] = useTimeRange();
  const status = params.get("status") ?? "active";
  const severity = params.get("severity") ?? "";
  const source = params.get("source") ?? "";
  const q = params.get("q") ?? "";
  const sort = params.get("sort") ?? "last_seen";
  const page = usePageParam();
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
      <PageHeader title="Errors" actions={<TimeRangePicker range={range} onChange={setRange} />}>
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
        <FilterSelect
          label="Severity"
          name="severity"
          error={list.error}
          value={severity}
          any="Any severity"
          options={ERROR_SEVERITIES}
          onChange={(v) => filter({ severity: v })}
        />
        <FilterSelect
          label="Source"
          name="source"
          error={list.error}
          value={source}
          any="All sources"
          options={ERROR_SOURCES}
          onChange={(v) => filter({ source: v })}
        />
        <FilterSelect
          label="Sort by"
          name="sort_by"
          error={list.error}
          value={sort}
          any={false}
          options={ERROR_SORTS}
          onChange={(v) => filter({ sort: v })}
        />
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
            <Pager pagination={data.pagination} noun={["group", "groups"]} />
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
      <TextField
        label="Search"
        name="search"
        error={error}
        type="search"
        value={text}
        placeholder="Type or message"
        onChange={setText}
      />
      <button type="submit" className="button">
        Search
      </button>
    </form>
  );
}

function ErrorTable({ rows, trends }: { rows: ErrorSummary[]; trends: ErrorTrends | undefined }) {
  const byId = new Map(trends?.trends.map((t) => [t.errorId, t]));
  return (
    <DataTable
      columns={[
        "Error",
        "Trend",
        { label: "In range", num: true },
        { label: "Total", num: true },
        "Last seen",
        "Severity",
        "Status",
      ]}
      className="errors-table"
    >
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
              <RelativeTime at={e.lastSeen} />
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
    </DataTable>
  );
}
