import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, useCallback, useEffect, useRef } from "react";
import { formatDuration } from "../../lib/format";
import {
  AXIS_TICKS,
  type FlatTrace,
  formatRatio,
  SLOW_RATIO,
  type SpanRowData,
  serviceColor,
  spanAt,
  timesUsual,
  type Usual,
} from "./waterfall-model";

/** Every row is this tall, so the virtualizer never measures: 50,000 rows cost what 40 do. */
export const ROW_HEIGHT = 26;
const HEADER_HEIGHT = 28;
/** Indentation stops growing here, so that a very deep chain still leaves room for its name. */
const MAX_INDENT_LEVELS = 32;
const INDENT_PX = 12;

export interface WaterfallProps {
  flat: FlatTrace;
  /** The span indexes shown, ascending (pre-order). */
  rows: Int32Array;
  collapsed: ReadonlySet<number>;
  onToggle: (index: number) => void;
  /** Collapses (false) or expands (true) one span. */
  onSetOpen: (index: number, open: boolean) => void;
  durationMs: number;
  selected: number | undefined;
  onSelect: (index: number) => void;
  /** The row that holds the keyboard focus stop (roving tabindex). */
  active: number;
  onActive: (index: number) => void;
  /** Bumped to scroll `active` into view without moving the focus (a jump from outside). */
  revealKey: number;
  matches: ReadonlySet<number>;
  /** Each span's usual duration (by index), once the baselines have arrived. */
  usual?: readonly (Usual | undefined)[] | undefined;
}

/** Position of span `index` among the visible rows (rows are ascending), or -1. */
export function rowOf(rows: Int32Array, index: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const value = rows[mid] as number;
    if (value === index) return mid;
    if (value < index) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * The span tree as rows with bars on a shared time axis, virtualized: only the rows in view (and
 * a few around them) are in the DOM. Keyboard: ↑/↓ move, → expands or enters the children,
 * ← collapses or goes to the parent, Home/End, Page Up/Down; Enter opens a span's details.
 */
export function Waterfall(props: WaterfallProps) {
  const { flat, rows, collapsed, durationMs, selected, active, matches } = props;
  const scroller = useRef<HTMLElement>(null);
  const focusPending = useRef(false);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
  });
  const items = virtualizer.getVirtualItems();

  const scrollTo = useCallback(
    (index: number) => {
      const row = rowOf(rows, index);
      if (row >= 0) virtualizer.scrollToIndex(row, { align: "auto" });
    },
    [rows, virtualizer],
  );

  // A jump from outside (next error, find, a shared link) scrolls the active row into view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a jump is asked for
  useEffect(() => {
    if (props.revealKey > 0) scrollTo(active);
  }, [props.revealKey]);

  // After a keyboard move the row may only exist once the scroll has rendered it: focus it then.
  useEffect(() => {
    if (!focusPending.current) return;
    const button = scroller.current?.querySelector<HTMLButtonElement>(
      `[data-index="${active}"] .wf-name`,
    );
    if (button) {
      focusPending.current = false;
      button.focus({ preventScroll: true });
    }
  });

  const move = (index: number) => {
    focusPending.current = true;
    props.onActive(index);
    scrollTo(index);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!(event.target instanceof HTMLButtonElement)) return;
    const row = rowOf(rows, active);
    if (row < 0) return;
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const at = (r: number) => rows[Math.min(rows.length - 1, Math.max(0, r))] as number;
    const hasChildren = (flat.end[active] as number) > active + 1;
    let next: number | undefined;
    switch (event.key) {
      case "ArrowDown":
        next = at(row + 1);
        break;
      case "ArrowUp":
        next = at(row - 1);
        break;
      case "PageDown":
        next = at(row + page);
        break;
      case "PageUp":
        next = at(row - page);
        break;
      case "Home":
        next = at(0);
        break;
      case "End":
        next = at(rows.length - 1);
        break;
      case "ArrowRight":
        if (hasChildren && collapsed.has(active)) props.onSetOpen(active, true);
        else if (hasChildren) next = active + 1;
        else return;
        break;
      case "ArrowLeft":
        if (hasChildren && !collapsed.has(active)) props.onSetOpen(active, false);
        else if ((flat.parent[active] as number) >= 0) next = flat.parent[active] as number;
        else return;
        break;
      default:
        return;
    }
    event.preventDefault();
    if (next !== undefined) move(next);
  };

  // The focus stop is the active row; scrolled out of the DOM, the list itself takes it.
  const activeRendered = items.some((item) => rows[item.index] === active);
  const scrollTop = scroller.current?.scrollTop ?? 0;
  const firstInView = items.find((item) => item.start >= scrollTop + HEADER_HEIGHT) ?? items[0];
  return (
    <section
      className="wf"
      // As tall as the trace needs, up to the window: a 5-span trace gets no empty box.
      style={{
        height: `min(calc(100vh - 330px), ${flat.count * ROW_HEIGHT + HEADER_HEIGHT + 2}px)`,
      }}
      ref={scroller}
      onKeyDown={onKeyDown}
      tabIndex={activeRendered ? -1 : 0}
      aria-label="Trace waterfall"
      onFocus={(event) => {
        if (event.target === event.currentTarget && firstInView)
          move(rows[firstInView.index] as number);
      }}
    >
      <div className="wf-row wf-header" aria-hidden="true">
        <div className="wf-label">Span</div>
        <div className="wf-timeline">
          {AXIS_TICKS.map((t) => (
            <span
              key={t}
              className="wf-tick"
              style={t === 1 ? { right: 0 } : { left: `${t * 100}%` }}
            >
              {t === 0 ? "0" : formatDuration(durationMs * t)}
            </span>
          ))}
        </div>
      </div>
      <ul
        className="wf-rows"
        aria-label={`Spans: ${rows.length.toLocaleString()} shown of ${flat.count.toLocaleString()}`}
        style={{ height: virtualizer.getTotalSize() }}
      >
        {items.map((item) => {
          const index = rows[item.index] as number;
          return (
            <SpanRow
              key={index}
              index={index}
              span={spanAt(flat, index)}
              top={item.start - HEADER_HEIGHT}
              color={serviceColor(flat.trace.spans.service[index] as number)}
              hidden={(flat.end[index] as number) - index - 1}
              collapsed={collapsed.has(index)}
              selected={selected === index}
              active={active === index}
              match={matches.has(index)}
              durationMs={durationMs}
              usual={props.usual?.[index]}
              onToggle={props.onToggle}
              onSelect={props.onSelect}
              onActive={props.onActive}
            />
          );
        })}
      </ul>
    </section>
  );
}

interface SpanRowProps {
  index: number;
  span: SpanRowData;
  top: number;
  color: string;
  /** Descendants of this span (the rows a collapse hides). */
  hidden: number;
  collapsed: boolean;
  selected: boolean;
  active: boolean;
  match: boolean;
  durationMs: number;
  usual: Usual | undefined;
  onToggle: (index: number) => void;
  onSelect: (index: number) => void;
  onActive: (index: number) => void;
}

/** "3.2× p50" beside a span's duration, and its sentence for the tooltip and screen readers. */
function usualLabel(span: SpanRowData, usual: Usual | undefined) {
  const ratio = timesUsual(span.durationMs, usual);
  if (ratio === undefined || !usual) return undefined;
  return {
    short: `${formatRatio(ratio)} p50`,
    slow: ratio >= SLOW_RATIO,
    sentence: `${formatRatio(ratio)} the usual p50 of ${formatDuration(usual.p50Ms)} (p95 ${formatDuration(usual.p95Ms)}, ${usual.count.toLocaleString()} spans in the 24 h before)`,
  };
}

function SpanRow(p: SpanRowProps) {
  const { span } = p;
  const error = span.status === "error";
  const total = p.durationMs > 0 ? p.durationMs : 1;
  const left = Math.min(100, Math.max(0, (span.startOffsetMs / total) * 100));
  const width = Math.min(100 - left, Math.max(0, (span.durationMs / total) * 100));
  // The duration goes after the bar, else before it, else (a bar across most of the timeline)
  // inside its end: never left of the timeline, over the span names and their error labels.
  const durationAt = left + width < 78 ? "after" : left >= 22 ? "before" : "inside";
  const tab = p.active ? 0 : -1;
  const usual = usualLabel(span, p.usual);
  const className = [
    "wf-row",
    error ? "wf-error-row" : "",
    p.selected ? "wf-selected" : "",
    p.match ? "wf-match" : "",
  ].join(" ");
  return (
    <li className={className} data-index={p.index} style={{ transform: `translateY(${p.top}px)` }}>
      <div
        className="wf-label"
        style={{ paddingLeft: 4 + Math.min(span.depth, MAX_INDENT_LEVELS) * INDENT_PX }}
      >
        {p.hidden > 0 ? (
          <button
            type="button"
            className="wf-toggle"
            tabIndex={tab}
            aria-expanded={!p.collapsed}
            aria-label={`${p.collapsed ? "Expand" : "Collapse"} ${span.name} (${p.hidden.toLocaleString()} spans below)`}
            onClick={() => {
              p.onActive(p.index);
              p.onToggle(p.index);
            }}
          >
            {p.collapsed ? "▸" : "▾"}
          </button>
        ) : (
          <span className="wf-toggle" aria-hidden="true" />
        )}
        <button
          type="button"
          className="wf-name"
          title={`${span.service}: ${span.name}`}
          tabIndex={tab}
          aria-current={p.selected ? "true" : undefined}
          onClick={() => {
            p.onActive(p.index);
            p.onSelect(p.index);
          }}
        >
          <span className="wf-dot" style={{ background: p.color }} aria-hidden="true" />
          <span className="wf-service">{span.service}</span>
          <span className="wf-op">{span.name}</span>
          {error && <span className="wf-error">error</span>}
          {p.collapsed && <span className="wf-more">+{p.hidden.toLocaleString()}</span>}
          {span.depth > MAX_INDENT_LEVELS && <span className="wf-more">depth {span.depth}</span>}
          <span className="visually-hidden">
            , {formatDuration(span.durationMs)}
            {usual ? `, ${usual.sentence}` : ""}
          </span>
        </button>
      </div>
      <div className="wf-timeline" aria-hidden="true">
        <span
          className="wf-bar"
          style={{
            left: `${left}%`,
            width: `${width}%`,
            background: error ? undefined : p.color,
          }}
        />
        <span
          className={durationAt === "inside" ? "wf-duration wf-duration-inside" : "wf-duration"}
          style={
            durationAt === "after"
              ? { left: `${left + width}%` }
              : durationAt === "before"
                ? { right: `${100 - left}%`, left: "auto" }
                : { right: `${100 - left - width}%`, left: "auto" }
          }
        >
          {formatDuration(span.durationMs)}
          {usual && (
            <span className={usual.slow ? "wf-usual wf-slow" : "wf-usual"} title={usual.sentence}>
              {" "}
              · {usual.short}
            </span>
          )}
        </span>
      </div>
    </li>
  );
}
