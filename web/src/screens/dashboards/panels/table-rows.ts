import type { TqlColumn } from "../../../../../src/contracts/tql.js";
import {
  formatCell,
  isNumericType,
  isTimeType,
  parseTime,
  toNumber,
} from "../../../lib/column-types.js";

/** How a table column sorts and shows: numbers in the panel's unit, times in local time. */
export type CellKind = "number" | "time" | "text";

export const cellKind = (column: TqlColumn): CellKind =>
  isNumericType(column.type) ? "number" : isTimeType(column.type) ? "time" : "text";

export interface SortOrder {
  column: number;
  descending: boolean;
}

const text = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

/** The sort key of a cell: a number for numbers and times, text otherwise; null sorts last. */
function keyOf(value: unknown, kind: CellKind, type: string): number | string | null {
  if (value === null || value === undefined) return null;
  if (kind === "number") return toNumber(value);
  if (kind === "time") return parseTime(value, type);
  return formatCell(value);
}

/**
 * The rows ordered by one column (stable: equal keys keep their order), missing values last
 * whichever the direction; without an order, as the query returned them.
 */
export function sortRows(
  rows: readonly (readonly unknown[])[],
  columns: readonly TqlColumn[],
  order: SortOrder | null,
): (readonly unknown[])[] {
  const column = order ? columns[order.column] : undefined;
  if (!order || !column) return [...rows];
  const kind = cellKind(column);
  const keyed = rows.map((row, index) => ({
    row,
    index,
    key: keyOf(row[order.column], kind, column.type),
  }));
  const direction = order.descending ? -1 : 1;
  keyed.sort((a, b) => {
    if (a.key === null || b.key === null)
      return a.key === b.key ? a.index - b.index : a.key === null ? 1 : -1;
    const compared =
      typeof a.key === "number" && typeof b.key === "number"
        ? a.key - b.key
        : text.compare(String(a.key), String(b.key));
    return compared === 0 ? a.index - b.index : compared * direction;
  });
  return keyed.map((k) => k.row);
}

/** The next order when a column's heading is clicked: ascending, descending, then none. */
export function nextOrder(current: SortOrder | null, column: number): SortOrder | null {
  if (current?.column !== column) return { column, descending: false };
  return current.descending ? null : { column, descending: true };
}

/** A time cell as ISO (for links) from the engine's text in the column's zone, or null. */
export function timeIso(value: unknown, type: string): string | null {
  const ms = parseTime(value, type);
  return ms === null ? null : new Date(ms).toISOString();
}
