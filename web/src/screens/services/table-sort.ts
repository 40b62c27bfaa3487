/*
 * Sorting a screen's rows by one of its columns, in the browser (the API answers every row at
 * once): numbers or text, rows without a value (no requests, no p95) last in either direction.
 */

export type SortOrder = "asc" | "desc";

/** A sortable column: its key in the URL, its heading, and the value a row sorts by. */
export interface SortColumn<T> {
  key: string;
  label: string;
  value: (row: T) => number | string | null;
  /** A number: right-aligned, and descending on its first click (the busiest, the slowest). */
  num?: boolean;
}

/** The rows ordered by the column; ties keep their order (the API's, busiest first). */
export function sortRows<T>(rows: readonly T[], column: SortColumn<T>, order: SortOrder): T[] {
  const sign = order === "asc" ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, value: column.value(row) }))
    .sort((a, b) => {
      if (a.value === null || b.value === null)
        return a.value === b.value ? a.index - b.index : a.value === null ? 1 : -1;
      const diff =
        typeof a.value === "number" && typeof b.value === "number"
          ? a.value - b.value
          : String(a.value).localeCompare(String(b.value));
      return diff === 0 ? a.index - b.index : sign * diff;
    })
    .map((entry) => entry.row);
}

/**
 * The sort a click on a column's heading asks for: the same column again turns the order
 * around; another column starts descending for numbers and ascending for text.
 */
export function nextSort<T>(
  current: { key: string; order: SortOrder },
  column: SortColumn<T>,
): { key: string; order: SortOrder } {
  if (current.key === column.key)
    return { key: column.key, order: current.order === "asc" ? "desc" : "asc" };
  return { key: column.key, order: column.num ? "desc" : "asc" };
}

/** Whether a row's text holds the search (case-insensitive; an empty search holds everywhere). */
export function matchesSearch(text: string, search: string): boolean {
  const needle = search.trim().toLowerCase();
  return needle === "" || text.toLowerCase().includes(needle);
}
