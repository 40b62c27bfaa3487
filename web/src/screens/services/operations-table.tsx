import { Link } from "wouter";
import type { ServiceOperation } from "../../../../src/contracts/services";
import { StateBadge } from "../../components/ui";
import type { RangeSpec } from "../../lib/time-range";
import { FigureCells, figureColumns } from "./figures";
import { operationTracesHref } from "./service-links";
import { SortHeader, useTableSort } from "./sort-header";
import type { SortColumn } from "./table-sort";

const COLUMNS: SortColumn<ServiceOperation>[] = [
  { key: "operation", label: "Operation", value: (o) => o.operation },
  ...figureColumns<ServiceOperation>(),
];

/**
 * A service's operations (span names of its entry spans, with their HTTP route), sortable by
 * each figure; each opens the traces through it.
 */
export function OperationsTable({
  projectId,
  service,
  spec,
  operations,
}: {
  projectId: string;
  service: string;
  spec: RangeSpec;
  operations: readonly ServiceOperation[];
}) {
  const sort = useTableSort(COLUMNS, { key: "rate", order: "desc" });
  return (
    <div className="table-scroll">
      <table className="data svc-table svc-operations">
        <caption className="visually-hidden">
          Operations of {service}, sortable by each figure
        </caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <SortHeader key={c.key} column={c} sort={sort} />
            ))}
          </tr>
        </thead>
        <tbody>
          {sort.sort(operations).map((o) => (
            <tr key={`${o.spanKind} ${o.operation}`}>
              <th scope="row" className="svc-name">
                <Link
                  href={`~${operationTracesHref(projectId, spec, service, o.operation)}`}
                  title={`Traces through ${o.operation}`}
                >
                  {o.operation}
                </Link>
                <div className="svc-operation-meta small muted">
                  <StateBadge state={o.spanKind} tone="muted" />
                  {o.httpRoute && o.operation !== `${o.httpMethod ?? ""} ${o.httpRoute}`.trim() && (
                    <span className="mono">
                      {o.httpMethod ? `${o.httpMethod} ` : ""}
                      {o.httpRoute}
                    </span>
                  )}
                </div>
              </th>
              <FigureCells row={o} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
