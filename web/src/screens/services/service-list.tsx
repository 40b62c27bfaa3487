import { useEffect, useState } from "react";
import { Link } from "wouter";
import type { ServiceSummary } from "../../../../src/contracts/services";
import { Empty, QueryView } from "../../components/feedback";
import { SavedViews } from "../../components/saved-views";
import { TextField } from "../../components/text-field";
import { PageHeader, TimeRangePicker } from "../../components/ui";
import { formatDuration, formatNumber } from "../../lib/format";
import { useTimeRange } from "../../lib/time-range";
import { useUrlParam } from "../../lib/url-state";
import { useProject } from "../project-context";
import { FigureCells, figureColumns } from "./figures";

import { serviceMapHref, servicePageHref } from "./service-links";
import { useServiceList } from "./services-api";
import { SortHeader, useTableSort } from "./sort-header";
import { matchesSearch, type SortColumn } from "./table-sort";
import { Trend } from "./trend";

const COLUMNS: SortColumn<ServiceSummary>[] = [
  { key: "service", label: "Service", value: (s) => s.service },
  ...figureColumns<ServiceSummary>(),
];

/** `/services`: every service with entry spans in the range, its figures and trends. */
export function ServiceList() {
  const { projectId } = useProject();
  const [range, setRange] = useTimeRange();
  const list = useServiceList(projectId, range);
  const [search, setSearch] = useUrlParam("q");
  const sort = useTableSort(COLUMNS, { key: "rate", order: "desc" });
  const [first, ...figures] = COLUMNS;

  return (
    <>
      <PageHeader
        title="Services"
        actions={
          <>
            <SavedViews kind="services" />
            <Link href={`~${serviceMapHref(projectId, range.spec)}`} className="button">
              Service map
            </Link>
            <TimeRangePicker range={range} onChange={setRange} />
          </>
        }
      >
        <p className="muted small">
          Requests into each service in the {range.label.toLowerCase()}: rate, errors and latency
        </p>
      </PageHeader>
      <QueryView
        query={list}
        loadingLabel="Loading services…"
        isEmpty={(data) => data.services.length === 0}
        empty={<NoServices rangeLabel={range.label} />}
      >
        {(data) => {
          const shown = sort.sort(data.services.filter((s) => matchesSearch(s.service, search)));
          const bucket = formatDuration(data.bucketSeconds * 1000);
          return (
            <>
              <div className="toolbar">
                <SearchField value={search} onSearch={setSearch} />
                <p className="muted small svc-count" aria-live="polite">
                  {shown.length === data.services.length
                    ? `${formatNumber(data.services.length)} services`
                    : `${formatNumber(shown.length)} of ${formatNumber(data.services.length)} services`}
                </p>
              </div>
              {shown.length === 0 ? (
                <Empty title="No service matches">Clear the search to see every service.</Empty>
              ) : (
                <div className="table-scroll">
                  <table className={`data svc-table${list.isFetching ? " refreshing" : ""}`}>
                    <caption className="visually-hidden">Services, sortable by each figure</caption>
                    <thead>
                      <tr>
                        {first && <SortHeader column={first} sort={sort} />}
                        <th scope="col">Requests</th>
                        {figures.map((c) => (
                          <SortHeader key={c.key} column={c} sort={sort} />
                        ))}
                        <th scope="col">p95 trend</th>
                      </tr>
                    </thead>
                    <tbody>
                      {shown.map((s) => (
                        <tr key={s.service}>
                          <th scope="row" className="svc-name">
                            <Link href={`~${servicePageHref(projectId, s.service, range.spec)}`}>
                              {s.service}
                            </Link>
                          </th>
                          <td>
                            <Trend
                              values={s.series.map((p) => p.requests)}
                              tone={s.errors > 0 && s.errorRate >= 0.05 ? "bad" : undefined}
                              label={`Requests per ${bucket} of ${s.service}`}
                            />
                          </td>
                          <FigureCells row={s} />
                          <td>
                            <Trend
                              values={s.series.map((p) => p.p95Ms)}
                              label={`p95 latency per ${bucket} of ${s.service}`}
                            />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </>
          );
        }}
      </QueryView>
    </>
  );
}

/** The search box: the URL follows the typing after a pause. */
function SearchField({ value, onSearch }: { value: string; onSearch: (text: string) => void }) {
  const [typed, setTyped] = useState(value);
  useEffect(() => setTyped(value), [value]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the typed text schedules an update
  useEffect(() => {
    if (typed === value) return;
    const timer = setTimeout(() => onSearch(typed.trim()), 250);
    return () => clearTimeout(timer);
  }, [typed]);
  return (
    <TextField
      label="Search services"
      type="search"
      placeholder="Service name"
      className="svc-search"
      value={typed}
      onChange={setTyped}
    />
  );
}

/** No entry spans in the range: how spans become services. */
function NoServices({ rangeLabel }: { rangeLabel: string }) {
  return (
    <div className="card">
      <Empty title={`No services sent traces in the ${rangeLabel.toLowerCase()}`}>
        <p>
          A service is the <code>service.name</code> resource attribute of the spans it sends. Point
          an OpenTelemetry SDK or Collector at this server over OTLP (
          <code>OTEL_EXPORTER_OTLP_ENDPOINT=http://&lt;host&gt;:4318</code>, and{" "}
          <code>OTEL_EXPORTER_OTLP_HEADERS=x-api-key=vgl_…</code> with a key from Settings → API
          keys); its requests show here within a minute. <code>vigil demo</code> sends a sample
          shop. Or choose a longer range.
        </p>
      </Empty>
    </div>
  );
}
