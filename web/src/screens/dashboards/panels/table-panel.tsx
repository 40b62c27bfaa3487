import { useVirtualizer } from "@tanstack/react-virtual";
import { useMemo, useRef, useState } from "react";
import { Link } from "wouter";
import { formatCell, toNumber } from "../../../lib/column-types";
import { formatTime } from "../../../lib/format";
import { DataLinks } from "./data-links";
import { rowFields } from "./frames";
import type { PanelViewProps } from "./panel-props";
import { ShapeHint } from "./panel-states";
import {
  type CellKind,
  cellKind,
  nextOrder,
  type SortOrder,
  sortRows,
  timeIso,
} from "./table-rows";
import { thresholdColor, thresholdVar } from "./thresholds";
import { formatUnit } from "./units";

const ROW_HEIGHT = 28;

/** Column widths from the heading and the first rows' text, so the layout holds while scrolling. */
function columnWidths(columns: readonly { name: string }[], rows: readonly (readonly unknown[])[]) {
  return columns.map((column, i) => {
    let chars = column.name.length + 2;
    for (const row of rows.slice(0, 100))
      chars = Math.max(chars, Math.min(48, formatCell(row[i]).length));
    return Math.round(Math.min(420, Math.max(72, chars * 7.6 + 32)));
  });
}

/**
 * The rows as the query returned them, sortable by any column (a heading's click: ascending,
 * descending, none), numbers in the panel's unit and threshold colour, times in local time, a
 * trace id linking to its trace; virtualized, so 10,000 rows scroll smoothly.
 */
export function TablePanel({ panel, frames, linkFor }: PanelViewProps) {
  const [which, setWhich] = useState(0);
  const frame = frames[Math.min(which, frames.length - 1)];
  if (!frame || frame.result.columns.length === 0)
    return <ShapeHint>The query returned no columns.</ShapeHint>;
  return (
    <div className="panel-table">
      {frames.length > 1 && (
        <label className="panel-table-pick small">
          <span className="visually-hidden">Result</span>
          <select value={which} onChange={(e) => setWhich(Number(e.target.value))}>
            {frames.map((f, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: one option per query, in the panel's order.
              <option key={i} value={i}>
                {f.refId ?? `Query ${i + 1}`} ({f.result.rows.length} rows)
              </option>
            ))}
          </select>
        </label>
      )}
      <TableView key={which} frame={frame} panel={panel} linkFor={linkFor} />
    </div>
  );
}

function TableView({
  frame,
  panel,
  linkFor,
}: Pick<PanelViewProps, "panel" | "linkFor"> & { frame: PanelViewProps["frames"][number] }) {
  const { columns, rows } = frame.result;
  const scroller = useRef<HTMLDivElement>(null);
  const [order, setOrder] = useState<SortOrder | null>(null);
  const sorted = useMemo(() => sortRows(rows, columns, order), [rows, columns, order]);
  const kinds = useMemo(() => columns.map(cellKind), [columns]);
  const widths = useMemo(() => columnWidths(columns, rows), [columns, rows]);
  const traceColumn = columns.findIndex((c) => c.name === "trace_id");
  const withLinks = panel.links.length > 0 && linkFor !== null;
  const virtualizer = useVirtualizer({
    count: sorted.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  const span = columns.length + (withLinks ? 1 : 0);

  function cell(value: unknown, i: number, kind: CellKind) {
    if (value === null || value === undefined) return <span className="muted">—</span>;
    if (kind === "number") {
      const n = toNumber(value);
      const color = thresholdColor(n, panel.thresholds);
      return (
        <span style={color ? { color: thresholdVar(color) } : undefined}>
          {n === null ? formatCell(value) : formatUnit(n, panel.unit, panel.decimals)}
        </span>
      );
    }
    if (kind === "time") {
      const iso = timeIso(value, columns[i]?.type ?? "");
      return iso ? formatTime(iso, true) : formatCell(value);
    }
    const href =
      i === traceColumn && typeof value === "string" && value !== ""
        ? linkFor?.({ kind: "trace", traceId: value })
        : null;
    return href ? (
      <Link href={`~${href}`} className="mono">
        {formatCell(value)}
      </Link>
    ) : (
      formatCell(value)
    );
  }

  return (
    <div
      className="panel-table-scroll"
      ref={scroller}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the scroll area must be reachable by keyboard to scroll it.
      tabIndex={0}
    >
      <table
        className="data panel-table-grid"
        style={{ minWidth: widths.reduce((a, b) => a + b, 0) + (withLinks ? 160 : 0) }}
      >
        <colgroup>
          {widths.map((width, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional (names may repeat).
            <col key={i} style={{ width }} />
          ))}
          {withLinks && <col style={{ width: 160 }} />}
        </colgroup>
        <thead>
          <tr>
            {columns.map((column, i) => {
              const sorted =
                order?.column === i ? (order.descending ? "descending" : "ascending") : "none";
              return (
                <th
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional (names may repeat).
                  key={i}
                  scope="col"
                  className={kinds[i] === "number" ? "num" : undefined}
                  aria-sort={sorted}
                >
                  <button
                    type="button"
                    className="panel-sort"
                    title={`${column.name} (${column.type}): sort`}
                    onClick={() => setOrder((o) => nextOrder(o, i))}
                  >
                    {column.name}
                    <span aria-hidden="true">
                      {sorted === "ascending" ? " ▲" : sorted === "descending" ? " ▼" : ""}
                    </span>
                  </button>
                </th>
              );
            })}
            {withLinks && (
              <th scope="col">
                <span className="visually-hidden">Links</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {top > 0 && (
            <tr style={{ height: top }}>
              <td colSpan={span} />
            </tr>
          )}
          {items.map((item) => {
            const row = sorted[item.index] ?? [];
            return (
              <tr key={item.key} style={{ height: ROW_HEIGHT }}>
                {columns.map((_, i) => {
                  const kind = kinds[i] ?? "text";
                  return (
                    <td
                      // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional (names may repeat).
                      key={i}
                      className={kind === "number" ? "num" : undefined}
                      title={formatCell(row[i]).length > 30 ? formatCell(row[i]) : undefined}
                    >
                      {cell(row[i], i, kind)}
                    </td>
                  );
                })}
                {withLinks && (
                  <td>
                    <DataLinks
                      links={panel.links}
                      values={rowFields(columns, row)}
                      linkFor={linkFor}
                    />
                  </td>
                )}
              </tr>
            );
          })}
          {bottom > 0 && (
            <tr style={{ height: bottom }}>
              <td colSpan={span} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
