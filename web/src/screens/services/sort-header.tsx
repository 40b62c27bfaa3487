import { useUrlParams } from "../../lib/url-state";
import { nextSort, type SortColumn, type SortOrder, sortRows } from "./table-sort";

/**
 * A table's sort kept in the URL (`sort`, `order`), so a sorted view is shared and reloaded as
 * it is. Unknown keys fall back to the default column.
 */
export function useTableSort<T>(
  columns: readonly SortColumn<T>[],
  fallback: { key: string; order: SortOrder },
) {
  const [params, set] = useUrlParams();
  const asked = columns.find((c) => c.key === params.get("sort"));
  const key = asked?.key ?? fallback.key;
  const order: SortOrder =
    params.get("order") === "asc" || params.get("order") === "desc"
      ? (params.get("order") as SortOrder)
      : asked
        ? asked.num
          ? "desc"
          : "asc"
        : fallback.order;
  const column = columns.find((c) => c.key === key) ?? columns[0];
  return {
    key,
    order,
    sort: (rows: readonly T[]) => (column ? sortRows(rows, column, order) : [...rows]),
    toggle: (next: SortColumn<T>) => {
      const chosen = nextSort({ key, order }, next);
      set({ sort: chosen.key, order: chosen.order });
    },
  };
}

/** A column heading that sorts by its column; `aria-sort` tells screen readers the order. */
export function SortHeader<T>({
  column,
  sort,
}: {
  column: SortColumn<T>;
  sort: { key: string; order: SortOrder; toggle: (column: SortColumn<T>) => void };
}) {
  const active = sort.key === column.key;
  return (
    <th
      scope="col"
      className={column.num ? "num" : undefined}
      aria-sort={active ? (sort.order === "asc" ? "ascending" : "descending") : undefined}
    >
      <button type="button" className="svc-sort" onClick={() => sort.toggle(column)}>
        {column.label}
        <span aria-hidden="true">{active ? (sort.order === "asc" ? " ▲" : " ▼") : ""}</span>
      </button>
    </th>
  );
}
