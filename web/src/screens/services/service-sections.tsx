import { Link } from "wouter";
import type { ServiceDetail, ServiceEdge } from "../../../../src/contracts/services";
import { DataTable } from "../../components/data-table";
import { Empty } from "../../components/feedback";
import { RelativeTime } from "../../components/relative-time";
import { KeyValues, StateBadge } from "../../components/ui";
import { formatDuration, formatNumber } from "../../lib/format";
import type { RangeSpec } from "../../lib/time-range";
import { errorTone, formatErrorRate, formatRate } from "./figures";
import { edgeTracesHref, errorHref, servicePageHref } from "./service-links";

interface Place {
  projectId: string;
  spec: RangeSpec;
}

/** The service's error groups in the range, most occurrences first; each opens its page. */
export function ErrorGroups({
  projectId,
  errors,
}: {
  projectId: string;
  errors: ServiceDetail["errors"];
}) {
  if (errors.length === 0) return <Empty title="No errors in this range" />;
  return (
    <ul className="svc-errors">
      {errors.map((e) => (
        <li key={e.errorId}>
          <Link href={`~${errorHref(projectId, e.errorId)}`}>
            <strong>{e.type}</strong> <span className="muted">{e.message}</span>
          </Link>
          <span className="small muted">
            {formatNumber(e.occurrences)} × · last <RelativeTime at={e.lastSeen} />
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * Callers (upstream) or callees (downstream) of the service: each other end, its calls' rate,
 * errors and p95, and the traces of those calls.
 */
export function Dependencies({
  place,
  edges,
  direction,
}: {
  place: Place;
  edges: readonly ServiceEdge[];
  direction: "upstream" | "downstream";
}) {
  if (edges.length === 0)
    return (
      <p className="muted small">
        {direction === "upstream"
          ? "No service called it in this range."
          : "It called no other service, database or address in this range."}
      </p>
    );
  return (
    <DataTable
      caption={direction === "upstream" ? "Callers" : "Calls out"}
      className="svc-edges"
      columns={[
        direction === "upstream" ? "Caller" : "Calls",
        { label: "Rate", num: true },
        { label: "Error %", num: true },
        { label: "p95", num: true },
        { label: "Traces", hidden: true },
      ]}
    >
      {edges.map((edge) => {
        const name = direction === "upstream" ? edge.source : edge.target;
        const kind = direction === "upstream" ? "service" : edge.targetKind;
        const tone = errorTone(edge.errorRate);
        return (
          <tr key={`${edge.source}→${edge.targetKind}:${edge.target}`}>
            <td>
              {kind === "service" ? (
                <Link href={`~${servicePageHref(place.projectId, name, place.spec)}`}>{name}</Link>
              ) : (
                <span>{name}</span>
              )}{" "}
              {kind !== "service" && <StateBadge state={kind} tone="info" />}
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
                href={`~${edgeTracesHref(place.projectId, place.spec, edge)}`}
                aria-label={`Traces of ${edge.source} calling ${edge.target}`}
              >
                Traces
              </Link>
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}

/** The service's instances from their resource attributes, busiest first. */
export function Instances({ instances }: { instances: ServiceDetail["instances"] }) {
  if (instances.length === 0) return <Empty title="No instances in this range" />;
  return (
    <DataTable
      caption="Instances"
      className="svc-instances"
      columns={[
        "Instance",
        "Host",
        "Version",
        { label: "Requests", num: true },
        { label: "Errors", num: true },
        "Last seen",
      ]}
    >
      {instances.map((i) => (
        <tr key={i.instance || "(none)"}>
          <td>
            <details>
              <summary className="mono">
                {i.instance || <span className="muted">unnamed</span>}
              </summary>
              <KeyValues
                entries={Object.entries(i.resource).sort(([a], [b]) => a.localeCompare(b))}
              />
            </details>
          </td>
          <td className="mono">{i.host ?? "—"}</td>
          <td className="mono">{i.version ?? "—"}</td>
          <td className="num">{formatNumber(i.requests)}</td>
          <td className="num">{formatNumber(i.errors)}</td>
          <td>
            <RelativeTime at={i.lastSeen} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
