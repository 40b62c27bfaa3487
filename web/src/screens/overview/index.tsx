import type { UseQueryResult } from "@tanstack/react-query";
import { type ReactNode, useMemo } from "react";
import { Link } from "wouter";
import type { HttpMetrics } from "../../../../src/contracts/http-metrics";
import { v1 } from "../../api/client";
import { Empty, QueryView } from "../../components/feedback";
import { TrafficCharts } from "../../components/traffic-charts";
import { PageHeader, StateBadge, TimeRangePicker } from "../../components/ui";
import {
  formatCompact,
  formatDuration,
  formatNumber,
  formatPercent,
  formatRelative,
} from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { useChartZoom, useTimeRange, withRange } from "../../lib/time-range";
import { useProject } from "../project-context";
import { useErrorsDashboard, useHttpMetrics, useListTotal, useMonitorsDown } from "./overview-api";
import "./overview.css";

/** The project at a glance: traffic, errors and latency over the range, and what needs attention now. */
export function Area() {
  const { projectId } = useProject();
  const [range, setRange] = useTimeRange();
  const metrics = useHttpMetrics(projectId, range);
  const errors = useErrorsDashboard(projectId, range);
  const alerts = useListTotal(`${projectId}:alerts`, v1(projectId, "/alerts"), {
    status: "active",
  });
  // A rule whose evaluations fail is not quiet: "none firing" alone would read as all clear.
  const failingAlerts = useListTotal(`${projectId}:alerts-failing`, v1(projectId, "/alerts"), {
    failing: "true",
  });
  const incidents = useListTotal(`${projectId}:incidents`, v1(projectId, "/incidents"), {
    status: "active",
  });
  const monitors = useMonitorsDown(projectId);
  // Screens of figures over the range open on the same range; the others show the present.
  const to = (area: string) => `~${projectPath(projectId, area)}`;
  const inRange = (area: string) => withRange(to(area), range.spec);
  const totals = metrics.data?.totals;
  const zoom = useChartZoom(setRange);

  return (
    <>
      <PageHeader title="Overview" actions={<TimeRangePicker range={range} onChange={setRange} />}>
        <p className="muted small">{range.label}</p>
      </PageHeader>
      <section className="overview-tiles" aria-label="Traffic in the range">
        <Tile label="Requests" href={inRange("traces")} query={metrics}>
          {totals && (
            <>
              <Value>{formatCompact(totals.count)}</Value>
              <Hint>{formatNumber(totals.requestsPerMinute)} / min</Hint>
            </>
          )}
        </Tile>
        <Tile
          label="Error rate"
          href={inRange("errors")}
          query={metrics}
          tone={totals && totals.errorRate >= 0.05 ? "bad" : undefined}
        >
          {totals && (
            <>
              <Value>{totals.count === 0 ? "—" : formatPercent(totals.errorRate)}</Value>
              <Hint>{formatNumber(totals.errors)} failed requests</Hint>
            </>
          )}
        </Tile>
        <Tile label="p95 latency" href={inRange("traces")} query={metrics}>
          {totals && (
            <>
              <Value>{formatDuration(totals.p95Ms)}</Value>
              <Hint>
                p50 {formatDuration(totals.p50Ms)} · p99 {formatDuration(totals.p99Ms)}
              </Hint>
            </>
          )}
        </Tile>
        <Tile label="Errors" href={inRange("errors")} query={errors}>
          {errors.data && (
            <>
              <Value>{formatCompact(errors.data.occurrences)}</Value>
              <Hint>
                {formatNumber(errors.data.groupsSeen)} groups ·{" "}
                {formatNumber(errors.data.newGroups)} new
              </Hint>
            </>
          )}
        </Tile>
      </section>
      <section className="overview-tiles" aria-label="Needs attention now">
        <Tile
          label="Active alerts"
          href={to("alerts")}
          query={alerts}
          tone={alerts.data || failingAlerts.data ? "bad" : undefined}
        >
          <Value>{formatNumber(alerts.data)}</Value>
          <Hint>
            {alerts.data ? "firing now" : "none firing"}
            {failingAlerts.data ? ` · ${formatNumber(failingAlerts.data)} failing` : ""}
          </Hint>
        </Tile>
        <Tile
          label="Open incidents"
          href={to("incidents")}
          query={incidents}
          tone={incidents.data ? "bad" : undefined}
        >
          <Value>{formatNumber(incidents.data)}</Value>
          <Hint>{incidents.data ? "being worked on" : "all clear"}</Hint>
        </Tile>
        <Tile
          label="Monitors down"
          href={to("monitors")}
          query={monitors}
          tone={monitors.data?.down.length ? "bad" : undefined}
        >
          {monitors.data && (
            <>
              <Value>{formatNumber(monitors.data.down.length)}</Value>
              <Hint>
                {monitors.data.down.length > 0
                  ? monitors.data.down.map((m) => m.name).join(", ")
                  : `of ${formatNumber(monitors.data.total)} monitors`}
              </Hint>
            </>
          )}
        </Tile>
      </section>
      <QueryView query={metrics} loadingLabel="Loading traffic…">
        {(data) => <HttpTraffic data={data} onZoom={zoom} />}
      </QueryView>
      <div className="split">
        <section className="card" aria-labelledby="overview-routes">
          <h2 id="overview-routes">Busiest routes</h2>
          <QueryView
            query={metrics}
            isEmpty={(d) => d.routes.length === 0}
            empty={<Empty title="No requests in this range" />}
          >
            {(data) => <RoutesTable data={data} />}
          </QueryView>
        </section>
        <section className="card" aria-labelledby="overview-errors">
          <h2 id="overview-errors">Top errors</h2>
          <QueryView
            query={errors}
            isEmpty={(d) => d.topErrors.length === 0}
            empty={<Empty title="No errors in this range" />}
          >
            {(data) => (
              <ul className="overview-errors">
                {data.topErrors.slice(0, 8).map((e) => (
                  <li key={e.id}>
                    <Link href={`~${projectPath(projectId, "errors", e.id)}`}>
                      <strong>{e.type}</strong> <span className="muted">{e.message}</span>
                    </Link>
                    <span className="small muted">
                      {formatNumber(e.occurrencesInWindow)} × · {formatRelative(e.lastSeen)}{" "}
                      <StateBadge state={e.severity} />
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </QueryView>
        </section>
      </div>
    </>
  );
}

function Value({ children }: { children: ReactNode }) {
  return <span className="value">{children}</span>;
}
function Hint({ children }: { children: ReactNode }) {
  return <span className="hint small">{children}</span>;
}

/** A key figure that links to the screen behind it; its own loading and error states. */
function Tile({
  label,
  href,
  query,
  tone,
  children,
}: {
  label: string;
  href: string;
  query: UseQueryResult<unknown>;
  tone?: "bad" | undefined;
  children: ReactNode;
}) {
  return (
    <Link href={href} className={`stat overview-tile${tone ? ` tone-${tone}` : ""}`}>
      <span className="label">{label}</span>
      {query.isPending ? (
        <span className="value muted">
          … <span className="visually-hidden">loading</span>
        </span>
      ) : query.isError ? (
        <span className="tile-error" role="alert">
          {query.error instanceof Error ? query.error.message : "Unavailable"}
        </span>
      ) : (
        children
      )}
    </Link>
  );
}

function HttpTraffic({
  data,
  onZoom,
}: {
  data: HttpMetrics;
  onZoom: (from: number, to: number) => void;
}) {
  const points = useMemo(() => data.series.map((p) => ({ ...p, requests: p.count })), [data]);
  if (data.totals.count === 0)
    return (
      <div className="card">
        <Empty title="No HTTP requests in this range">
          Server spans with <code>http.route</code> become request metrics as they arrive. Choose a
          longer range, or send traces to this project.
        </Empty>
      </div>
    );
  return (
    <TrafficCharts
      id="overview"
      points={points}
      bucketSeconds={data.bucketSeconds}
      percentiles={["p50", "p95", "p99"]}
      onZoom={onZoom}
    />
  );
}

/** The busiest routes, each once, with the services that served it (a gateway and the service behind it). */
function RoutesTable({ data }: { data: HttpMetrics }) {
  const routes = busiestRoutes(data.routes, 8);
  const shown = routes.reduce((n, r) => n + r.services.length, 0);
  return (
    <div className="table-scroll">
      <table className="data overview-routes">
        <thead>
          <tr>
            <th scope="col">Route and service</th>
            <th scope="col" className="num">
              Requests
            </th>
            <th scope="col" className="num">
              Errors
            </th>
            <th scope="col" className="num">
              p95
            </th>
          </tr>
        </thead>
        {routes.map(({ name, services }) => (
          <tbody key={name}>
            <tr>
              <th scope="rowgroup" colSpan={4} className="mono">
                {name}
              </th>
            </tr>
            {services.map((r) => (
              <tr key={r.service}>
                <td className="overview-service">{r.service}</td>
                <td className="num">{formatNumber(r.count)}</td>
                <td className="num">{r.errors === 0 ? "0" : formatPercent(r.errorRate, 1)}</td>
                <td className="num">{formatDuration(r.p95Ms)}</td>
              </tr>
            ))}
          </tbody>
        ))}
      </table>
      {data.routeCount > shown && (
        <p className="muted small">
          {formatNumber(data.routeCount)} routes by service in this range; the busiest are shown.
        </p>
      )}
    </div>
  );
}

type RouteRow = HttpMetrics["routes"][number];

/**
 * The API counts each (service, method, route): a request through a gateway is served, and
 * counted, by each service it passes. Here a route is one group of those rows, busiest first.
 */
function busiestRoutes(rows: RouteRow[], limit: number) {
  const groups = new Map<string, RouteRow[]>();
  for (const row of rows) {
    const name = `${row.method} ${row.route}`;
    const group = groups.get(name);
    if (group) group.push(row);
    else if (groups.size < limit) groups.set(name, [row]);
  }
  return [...groups].map(([name, services]) => ({ name, services }));
}
