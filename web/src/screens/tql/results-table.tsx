import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useMemo, useRef, useState } from "react";
import { Drawer, KeyValues } from "../../components/ui";
import type { TqlResult } from "./tql-api";
import { formatCell, isNumericType } from "./values";

const ROW_HEIGHT = 30;
const SAMPLE_ROWS = 200;

/** Column widths from the header and the first rows' text, so the layout holds while scrolling. */
function columnWidths(result: TqlResult): number[] {
  return result.columns.map((column, i) => {
    let chars = Math.max(column.name.length, column.type.length * 0.85);
    for (const row of result.rows.slice(0, SAMPLE_ROWS))
      chars = Math.max(chars, Math.min(60, formatCell(row[i]).length));
    return Math.round(Math.min(460, Math.max(72, chars * 7.6 + 24)));
  });
}

/**
 * The result rows in a virtualized table: only the rows in view are in the page, so 10,000 rows
 * scroll smoothly. Each header names the column and its ClickHouse type; numbers are right
 * aligned; a row's number opens the whole row (long values, maps and arrays) in a drawer.
 */
export function ResultsTable({ result }: { result: TqlResult }) {
  const scroller = useRef<HTMLElement>(null);
  const [open, setOpen] = useState<number | null>(null);
  const close = useCallback(() => setOpen(null), []);
  const widths = useMemo(() => columnWidths(result), [result]);
  const numeric = useMemo(() => result.columns.map((c) => isNumericType(c.type)), [result]);
  // Names may repeat (SELECT a, a): keys carry the position too.
  const keys = useMemo(() => result.columns.map((c, i) => `${i}:${c.name}`), [result]);
  const virtualizer = useVirtualizer({
    count: result.rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  });
  const items = virtualizer.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  const numberWidth = Math.max(48, String(result.rows.length).length * 9 + 28);
  const openRow = open === null ? undefined : result.rows[open];

  return (
    <>
      <section
        className="tql-results-scroll"
        ref={scroller}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the scroll area must be reachable by keyboard to scroll it.
        tabIndex={0}
        aria-label={`Result: ${result.rowCount.toLocaleString()} rows`}
      >
        <table
          className="data tql-results"
          style={{ width: numberWidth + widths.reduce((a, b) => a + b, 0) }}
        >
          <colgroup>
            <col style={{ width: numberWidth }} />
            {widths.map((width, i) => (
              <col key={keys[i]} style={{ width }} />
            ))}
          </colgroup>
          <thead>
            <tr>
              <th className="num" scope="col">
                <span className="visually-hidden">Row</span>#
              </th>
              {result.columns.map((column, i) => (
                <th key={keys[i]} scope="col" className={numeric[i] ? "num" : ""}>
                  <span className="tql-col-name">{column.name}</span>
                  <span className="tql-col-type">{column.type}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {top > 0 && (
              <tr className="tql-spacer" style={{ height: top }}>
                <td colSpan={result.columns.length + 1} />
              </tr>
            )}
            {items.map((item) => {
              const row = result.rows[item.index] ?? [];
              return (
                <tr key={item.key} style={{ height: ROW_HEIGHT }}>
                  <td className="num">
                    <button
                      type="button"
                      className="tql-row-button"
                      onClick={() => setOpen(item.index)}
                      aria-label={`Row ${item.index + 1}: show all values`}
                    >
                      {item.index + 1}
                    </button>
                  </td>
                  {keys.map((key, i) => {
                    const text = formatCell(row[i]);
                    const isNull = row[i] === null || row[i] === undefined;
                    return (
                      <td
                        key={key}
                        className={`${numeric[i] ? "num" : ""}${isNull ? " muted" : ""}`}
                        title={text.length > 40 ? text : undefined}
                      >
                        {text}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
            {bottom > 0 && (
              <tr className="tql-spacer" style={{ height: bottom }}>
                <td colSpan={result.columns.length + 1} />
              </tr>
            )}
          </tbody>
        </table>
      </section>
      {open !== null && openRow && (
        <Drawer title={`Row ${open + 1}`} onClose={close}>
          <KeyValues
            entries={result.columns.map((column, i) => [
              `${column.name} (${column.type})`,
              formatCell(openRow[i]),
            ])}
          />
        </Drawer>
      )}
    </>
  );
}
