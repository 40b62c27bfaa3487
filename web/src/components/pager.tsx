import type { ListPage } from "../api/client";
import { formatNumber, formatTotal } from "../lib/format";
import { useUrlParams } from "../lib/url-state";

/** The page of a list the URL names (`page`): 1 when absent or not a page number. */
export function usePageParam(): number {
  const [params] = useUrlParams();
  return Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
}

/**
 * Previous and next pages of a list the API pages (`pagination` of its envelope), with where
 * the reader is: "Page 2 of 7 · 312 traces". A list in time order, newest first, reads
 * Newer / Older. The page goes to the URL (`usePageParam`) as a history entry, unless `onPage`
 * says otherwise.
 */
export function Pager({
  pagination,
  onPage,
  noun,
  order = "pages",
  label = "Pages",
}: {
  pagination: ListPage<unknown>["pagination"];
  onPage?: (page: number) => void;
  /** What the list counts, singular and plural (`["trace", "traces"]`): the total is shown. */
  noun?: readonly [string, string];
  order?: "pages" | "newest-first";
  /** The navigation landmark's name, when a screen has more than one pager. */
  label?: string;
}) {
  const [, setParams] = useUrlParams();
  const go =
    onPage ?? ((next: number) => setParams({ page: next > 1 ? next : undefined }, { push: true }));
  const { page, totalPages, total, hasMore, totalExact } = pagination;
  const [back, forward] = order === "pages" ? ["Previous", "Next"] : ["Newer", "Older"];
  return (
    <nav className="pager" aria-label={label}>
      <button
        type="button"
        className="button small"
        disabled={page <= 1}
        onClick={() => go(page - 1)}
      >
        ← {back}
      </button>
      <span className="muted small">
        Page {formatNumber(page)} of {formatTotal(Math.max(1, totalPages), totalExact)}
        {noun && ` · ${formatTotal(total, totalExact)} ${total === 1 ? noun[0] : noun[1]}`}
      </span>
      <button
        type="button"
        className="button small"
        disabled={!hasMore}
        onClick={() => go(page + 1)}
      >
        {forward} →
      </button>
    </nav>
  );
}
