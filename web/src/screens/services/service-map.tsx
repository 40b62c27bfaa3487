import { useMemo } from "react";
import { Link } from "wouter";
import type { ServiceMap } from "../../../../src/contracts/services";
import { DataTable } from "../../components/data-table";
import { Empty, QueryView } from "../../components/feedback";
import { SavedViews } from "../../components/saved-views";
import { PageHeader, StateBadge, TimeRangePicker } from "../../components/ui";
import { formatDuration } from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { type RangeSpec, useTimeRange, withRange } from "../../lib/time-range";
import { useProject } from "../project-context";
import { errorTone, formatErrorRate, formatRate } from "./figures";

import { MapCanvas } from "./map-canvas";
import { layoutMap } from "./map-layout";
import { edgeTracesHref, nodeHref, servicePageHref } from "./service-links";
import { useServiceMap } from "./services-api";

/** `/services/map`: the services, databases and addresses, and the calls between them. */
export function ServiceMapScreen() {
  const { projectId } = useProject();
  const [range, setRange] = useTimeRange();
  const map = useServiceMap(projectId, range);
  return (
    <>
      <PageHeader
        title="Service map"
        actions={
          <>
            <SavedViews kind="services" />
            <Link
              href={`~${withRange(projectPath(projectId, "services"), range.spec)}`}
              className="button"
            >
              Services
            </Link>
            <TimeRangePicker range={range} onChange={setRange} />
          </>
        }
      >
        <p className="muted small">
          Who called whom in the {range.label.toLowerCase()}: open a service for its page, a call
          for its traces.
        </p>
      </PageHeader>
      <QueryView
        query={map}
        loadingLabel="Loading the map…"
        isEmpty={(data) => data.nodes.length === 0}
        empty={
          <div className="card">
            <Empty title="No calls in this range">
              The map is drawn from spans that cross services: a client span and the server span it
              started in another service, and client spans naming a database (<code>db.system</code>
              ) or an address (<code>server.address</code>, <code>peer.service</code>). Send traces
              from services that call each other, or choose a longer range.
            </Empty>
          </div>
        }
      >
        {(data) => <MapView data={data} projectId={projectId} spec={range.spec} />}
      </QueryView>
    </>
  );
}

function MapView({
  data,
  projectId,
  spec,
}: {
  data: ServiceMap;
  projectId: string;
  spec: RangeSpec;
}) {
  const layout = useMemo(() => layoutMap(data), [data]);
  const windowSeconds = Math.max(1, (Date.parse(data.to) - Date.parse(data.from)) / 1000);
  return (
    <>
      <section className="card" aria-labelledby="svcmap-title">
        <h2 id="svcmap-title" className="visually-hidden">
          Map
        </h2>
        <Legend />
        <MapCanvas
          layout={layout}
          windowSeconds={windowSeconds}
          nodeHref={(node) => nodeHref(projectId, spec, node)}
          edgeHref={(edge) => edgeTracesHref(projectId, spec, edge)}
        />
      </section>
      <section className="card" aria-labelledby="svcmap-calls">
        <h2 id="svcmap-calls">Calls</h2>
        {data.edges.length === 0 ? (
          <p className="muted small">No service called another in this range.</p>
        ) : (
          <DataTable
            caption="Calls between services"
            className="svc-edges"
            columns={[
              "From",
              "To",
              { label: "Rate", num: true },
              { label: "Error %", num: true },
              { label: "p95", num: true },
              { label: "Traces", hidden: true },
            ]}
          >
            {layout.edges.map(({ key, edge }) => {
              const tone = errorTone(edge.errorRate);
              return (
                <tr key={key}>
                  <td>
                    <Link href={`~${servicePageHref(projectId, edge.source, spec)}`}>
                      {edge.source}
                    </Link>
                  </td>
                  <td>
                    {edge.targetKind === "service" ? (
                      <Link href={`~${servicePageHref(projectId, edge.target, spec)}`}>
                        {edge.target}
                      </Link>
                    ) : (
                      <>
                        {edge.target} <StateBadge state={edge.targetKind} tone="info" />
                      </>
                    )}
                  </td>
                  <td className="num">{formatRate(edge.rate)}</td>
                  <td className={`num${tone ? ` svc-tone-${tone}` : ""}`}>
                    {formatErrorRate({
                      requests: edge.calls,
                      errors: edge.errors,
                      errorRate: edge.errorRate,
                    })}
                  </td>
                  <td className="num">{formatDuration(edge.p95Ms)}</td>
                  <td>
                    <Link
                      href={`~${edgeTracesHref(projectId, spec, edge)}`}
                      aria-label={`Traces of ${edge.source} calling ${edge.target}`}
                    >
                      Traces
                    </Link>
                  </td>
                </tr>
              );
            })}
          </DataTable>
        )}
      </section>
    </>
  );
}

/** What the shapes and colours mean. */
function Legend() {
  return (
    <ul className="svcmap-legend small muted" aria-label="Legend">
      <li>
        <span className="svcmap-key svcmap-key-service" aria-hidden="true" /> service
      </li>
      <li>
        <span className="svcmap-key svcmap-key-database" aria-hidden="true" /> database
      </li>
      <li>
        <span className="svcmap-key svcmap-key-external" aria-hidden="true" /> external address
      </li>
      <li>
        <span className="svcmap-key svcmap-key-messaging" aria-hidden="true" /> queue
      </li>
      <li>
        <span className="svcmap-key svc-tone-warn" aria-hidden="true" /> 1 % errors or more
      </li>
      <li>
        <span className="svcmap-key svc-tone-bad" aria-hidden="true" /> 5 % or more
      </li>
      <li>Edges: calls per second or minute · errors · p95; thicker is busier</li>
    </ul>
  );
}
