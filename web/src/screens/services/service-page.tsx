import type { ReactNode } from "react";
import { Link } from "wouter";
import type { ServiceSummary } from "../../../../src/contracts/services";
import { ApiError } from "../../api/client";
import { Empty, QueryView } from "../../components/feedback";
import { SavedViews } from "../../components/saved-views";
import { TrafficCharts } from "../../components/traffic-charts";
import { PageHeader, TimeRangePicker } from "../../components/ui";
import { formatDuration, formatNumber } from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { useChartZoom, useTimeRange, withRange } from "../../lib/time-range";
import { useProject } from "../project-context";
import { errorTone, formatErrorRate, formatRate } from "./figures";

import { OperationsTable } from "./operations-table";
import { serviceLogsHref, serviceMapHref, serviceTracesHref } from "./service-links";
import { Dependencies, ErrorGroups, Instances } from "./service-sections";
import { useServiceDetail } from "./services-api";

/** `/services/:service`: one service's figures, operations, errors, dependencies and instances. */
export function ServicePage({ service }: { service: string }) {
  const { projectId } = useProject();
  const [range, setRange] = useTimeRange();
  const detail = useServiceDetail(projectId, service, range);
  const zoom = useChartZoom(setRange);
  const place = { projectId, spec: range.spec };
  const notFound = detail.error instanceof ApiError && detail.error.status === 404;

  return (
    <>
      <PageHeader
        title={service}
        actions={
          <>
            <SavedViews kind="services" />
            <Link href={`~${serviceTracesHref(projectId, range.spec, service)}`} className="button">
              Traces
            </Link>
            <Link href={`~${serviceLogsHref(projectId, range.spec, service)}`} className="button">
              Logs
            </Link>
            <Link href={`~${serviceMapHref(projectId, range.spec)}`} className="button">
              Service map
            </Link>
            <TimeRangePicker range={range} onChange={setRange} />
          </>
        }
      >
        <p className="muted small">
          <Link href={`~${withRange(projectPath(projectId, "services"), range.spec)}`}>
            Services
          </Link>{" "}
          · requests into this service in the {range.label.toLowerCase()}
        </p>
      </PageHeader>
      {notFound ? (
        <div className="card">
          <Empty title={`No service named ${service} has sent spans to this project`}>
            Check its name in the{" "}
            <Link href={`~${withRange(projectPath(projectId, "services"), range.spec)}`}>
              services list
            </Link>
            .
          </Empty>
        </div>
      ) : (
        <QueryView query={detail} loadingLabel="Loading the service…">
          {(data) => (
            <>
              <Tiles summary={data.summary} />
              <TrafficCharts
                id="svc"
                points={data.summary.series}
                bucketSeconds={data.bucketSeconds}
                percentiles={["p95"]}
                onZoom={zoom}
              />
              <section className="card" aria-labelledby="svc-operations">
                <h2 id="svc-operations">Operations</h2>
                <p className="muted small">
                  Its entry spans by name; open one for the traces through it.
                </p>
                {data.operations.length === 0 ? (
                  <Empty title="No requests in this range" />
                ) : (
                  <OperationsTable
                    projectId={projectId}
                    service={service}
                    spec={range.spec}
                    operations={data.operations}
                  />
                )}
              </section>
              <div className="split">
                <section className="card" aria-labelledby="svc-upstream">
                  <h2 id="svc-upstream">Called by</h2>
                  <Dependencies place={place} edges={data.upstream} direction="upstream" />
                </section>
                <section className="card" aria-labelledby="svc-downstream">
                  <h2 id="svc-downstream">Calls</h2>
                  <Dependencies place={place} edges={data.downstream} direction="downstream" />
                </section>
              </div>
              <div className="split">
                <section className="card" aria-labelledby="svc-errors">
                  <h2 id="svc-errors">Errors</h2>
                  <ErrorGroups projectId={projectId} errors={data.errors} />
                </section>
                <section className="card" aria-labelledby="svc-instances">
                  <h2 id="svc-instances">Instances</h2>
                  <Instances instances={data.instances} />
                </section>
              </div>
            </>
          )}
        </QueryView>
      )}
    </>
  );
}

function Tile({
  label,
  tone,
  children,
}: {
  label: string;
  tone?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className={`stat svc-tile${tone ? ` svc-tone-${tone}` : ""}`}>
      <span className="label">{label}</span>
      <span className="value">{children}</span>
    </div>
  );
}

/** The service's figures over the whole range. */
function Tiles({ summary }: { summary: ServiceSummary }) {
  return (
    <section className="svc-tiles" aria-label="Figures over the range">
      <Tile label="Rate">
        {formatRate(summary.rate)}
        <span className="hint small">{formatNumber(summary.requests)} requests</span>
      </Tile>
      <Tile
        label="Error rate"
        tone={summary.requests > 0 ? errorTone(summary.errorRate) : undefined}
      >
        {formatErrorRate(summary)}
        <span className="hint small">{formatNumber(summary.errors)} failed</span>
      </Tile>
      <Tile label="p50">{formatDuration(summary.p50Ms)}</Tile>
      <Tile label="p95">{formatDuration(summary.p95Ms)}</Tile>
      <Tile label="p99">{formatDuration(summary.p99Ms)}</Tile>
    </section>
  );
}
