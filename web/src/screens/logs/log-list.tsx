import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, useEffect, useLayoutEffect, useMemo, useRef } from "react";
import type { LogSummary } from "../../../../src/contracts/logs";
import { Empty, Loading, ProblemMessage } from "../../components/feedback";
import { formatNumber, formatTotal } from "../../lib/format";
import { Highlighted } from "./highlighted";
import { levelTone, type useLogPages } from "./logs-api";

const ROW_HEIGHT = 30;
/** Load the next page when the last rendered row is this close to the end. */
const PREFETCH_ROWS = 40;

const timeFormat = new Intl.DateTimeFormat(undefined, {
  month: "short",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  fractionalSecondDigits: 3,
  hour12: false,
});

/**
 * The records as a virtualized list: only the rows in view are in the DOM, so any number of
 * them scrolls smoothly; the next page loads as the end comes near. Rows the live tail adds
 * on top keep what the reader looks at in place, unless they are at the very top.
 */
export function LogList({
  pages,
  tail,
  terms,
  selectedId,
  onSelect,
}: {
  pages: ReturnType<typeof useLogPages>;
  tail: LogSummary[];
  /** The search's terms, marked in the messages. */
  terms: readonly string[];
  selectedId: string;
  onSelect: (id: string) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => {
    const loaded = pages.data?.pages.flatMap((p) => p.data) ?? [];
    // Pages are offsets over a window that late records can still enter: drop repeats.
    const seen = new Set<string>();
    return [...tail, ...loaded].filter((r) => !seen.has(r.id) && seen.add(r.id));
  }, [pages.data, tail]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage, isFetchNextPageError } = pages;
  const virtualizer = useVirtualizer({
    count: rows.length + (hasNextPage ? 1 : 0),
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 15,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;

  // After a failed page, only the Retry button asks again (no loop of failing requests).
  const nearEnd = lastIndex >= rows.length - PREFETCH_ROWS;
  useEffect(() => {
    if (hasNextPage && nearEnd && !isFetchingNextPage && !isFetchNextPageError)
      void fetchNextPage();
  }, [hasNextPage, nearEnd, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  // New tail rows push the list down by their height: scroll by as much, unless at the top.
  const tailCount = useRef(tail.length);
  useLayoutEffect(() => {
    const added = tail.length - tailCount.current;
    tailCount.current = tail.length;
    const element = scroller.current;
    if (added > 0 && element && element.scrollTop > 0) element.scrollTop += added * ROW_HEIGHT;
  }, [tail.length]);

  if (pages.isPending) return <Loading label="Loading logs…" />;
  // A failed next page keeps the pages loaded before it: only a failed first page has nothing.
  if (!pages.data) return <ProblemMessage error={pages.error} />;
  if (rows.length === 0)
    return (
      <Empty title="No logs match">
        Widen the time range, clear a filter, or turn on live tail to wait for new records.
      </Empty>
    );

  const first = pages.data.pages[0]?.pagination;
  const total = (first?.total ?? 0) + tail.length;
  const focusRow = (index: number) => {
    const target = Math.max(0, Math.min(rows.length - 1, index));
    virtualizer.scrollToIndex(target, { align: "auto" });
    requestAnimationFrame(() =>
      scroller.current
        ?.querySelector<HTMLButtonElement>(`[data-index="${target}"] button`)
        ?.focus(),
    );
  };
  // Arrow keys, Page Up/Down, Home and End move between rows, scrolling the list as needed.
  const onKeyDown = (index: number, event: KeyboardEvent<HTMLButtonElement>) => {
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + 15,
      PageUp: index - 15,
      Home: 0,
      End: rows.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    focusRow(next);
  };

  return (
    <div className="logs-list">
      <p className="muted small logs-count" aria-live="polite">
        {formatTotal(total, first?.totalExact)} record{total === 1 ? "" : "s"}
        {tail.length > 0 && ` · ${formatNumber(tail.length)} from live tail`}
        {rows.length < total && ` · ${formatNumber(rows.length)} loaded`}
      </p>
      <div className="logs-head" aria-hidden="true">
        <span>Time</span>
        <span>Level</span>
        <span>Service</span>
        <span>Message</span>
      </div>
      <div ref={scroller} className="logs-scroll">
        <ol
          className="logs-items"
          aria-label="Log records, newest first"
          style={{ height: virtualizer.getTotalSize() }}
        >
          {items.map((item) => {
            const row = rows[item.index];
            return (
              <li
                key={row?.id ?? "more"}
                data-index={item.index}
                className="logs-item"
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
              >
                {row ? (
                  <LogRow
                    row={row}
                    terms={terms}
                    selected={row.id === selectedId}
                    onSelect={() => onSelect(row.id)}
                    onKeyDown={(event) => onKeyDown(item.index, event)}
                  />
                ) : (
                  <span className="muted small logs-more">Loading more…</span>
                )}
              </li>
            );
          })}
        </ol>
      </div>
      {isFetchNextPageError && (
        <div className="logs-more">
          <ProblemMessage error={pages.error} title="The next records could not be loaded" />
          <button type="button" className="button small" onClick={() => void fetchNextPage()}>
            Retry
          </button>
        </div>
      )}
    </div>
  );
}

function LogRow({
  row,
  terms,
  selected,
  onSelect,
  onKeyDown,
}: {
  row: LogSummary;
  terms: readonly string[];
  selected: boolean;
  onSelect: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
}) {
  return (
    <button
      type="button"
      className={`logs-row level-${levelTone(row.level)}${selected ? " selected" : ""}`}
      aria-current={selected ? "true" : undefined}
      onClick={onSelect}
      onKeyDown={onKeyDown}
    >
      <time className="mono" dateTime={row.timestamp}>
        {timeFormat.format(new Date(row.timestamp))}
      </time>
      <span className={`badge badge-${levelTone(row.level)}`}>{row.level}</span>
      <span className="logs-service" title={row.service}>
        {row.service}
      </span>
      <span className="logs-message mono">
        <Highlighted text={row.message} terms={terms} />
      </span>
    </button>
  );
}
