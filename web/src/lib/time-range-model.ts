/*
 * The dashboard's one time range as plain values: parsed from and written to the URL, carried
 * in links, resolved to a window, zoomed. No React and no browser here (the hooks are in
 * time-range.ts), so it is tested as it is.
 */

/** The relative ranges the picker offers, as `range=` values in the URL. */
export const RANGE_PRESETS = [
  { key: "15m", label: "Last 15 minutes", ms: 15 * 60_000 },
  { key: "1h", label: "Last hour", ms: 60 * 60_000 },
  { key: "6h", label: "Last 6 hours", ms: 6 * 60 * 60_000 },
  { key: "24h", label: "Last 24 hours", ms: 24 * 60 * 60_000 },
  { key: "7d", label: "Last 7 days", ms: 7 * 24 * 60 * 60_000 },
  { key: "30d", label: "Last 30 days", ms: 30 * 24 * 60 * 60_000 },
] as const;

/**
 * The one time range of a dashboard session: the last `key` (`15m`, `6h`, any `<n>m|h|d` the
 * read API takes) up to now, or an absolute window (ISO timestamps, `from` before `to`).
 */
export type RangeSpec =
  | { kind: "relative"; key: string }
  | { kind: "absolute"; from: string; to: string };

/** What a picker or a chart asks for: a relative key, or an absolute window. */
export type RangeChoice = string | { from: string; to: string };

/** Every screen opens on this range when neither the URL nor the session names one. */
export const DEFAULT_RANGE: RangeSpec = { kind: "relative", key: "1h" };

/** Where the session's range is kept (per browser tab, like the session's view). */
export const RANGE_STORAGE_KEY = "vigil:time-range";

export interface TimeRange {
  /** ISO timestamps for the API's `from`/`to`. */
  from: string;
  to: string;
  /** A relative range's key, or "custom" for an absolute window. */
  key: string;
  label: string;
  ms: number;
  spec: RangeSpec;
}

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const UNIT_NAME = { m: "minute", h: "hour", d: "day" } as const;
const MAX_MS = 3650 * UNIT_MS.d;
const RELATIVE = /^([1-9]\d{0,5})([mhd])$/;

/** A relative key's length in ms, or null when the read API would refuse it. */
function relativeMs(key: string): number | null {
  const match = RELATIVE.exec(key);
  if (!match) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms <= MAX_MS ? ms : null;
}

/** An ISO timestamp or epoch milliseconds, as the read API takes them, as ISO; null if neither. */
function instant(value: string): string | null {
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** The range a URL's query names (`from`/`to` win over `range`, as in the API), or null. */
export function parseRange(params: URLSearchParams): RangeSpec | null {
  const fromParam = params.get("from");
  const toParam = params.get("to");
  if (fromParam || toParam) {
    const from = fromParam ? instant(fromParam) : null;
    const to = toParam ? instant(toParam) : null;
    return from && to && Date.parse(from) < Date.parse(to) ? { kind: "absolute", from, to } : null;
  }
  const key = params.get("range");
  return key && relativeMs(key) !== null ? { kind: "relative", key } : null;
}

/** A range as the URL's parameters; the other form's parameters are cleared (undefined). */
export function rangeParams(spec: RangeSpec): {
  range: string | undefined;
  from: string | undefined;
  to: string | undefined;
} {
  return spec.kind === "relative"
    ? { range: spec.key, from: undefined, to: undefined }
    : { range: undefined, from: spec.from, to: spec.to };
}

/**
 * The range a screen shows: the URL's, else the one the session last showed (`stored`, as
 * kept under RANGE_STORAGE_KEY), else the default.
 */
export function sessionRange(search: string, stored: string | null): RangeSpec {
  return (
    parseRange(new URLSearchParams(search)) ??
    (stored ? parseRange(new URLSearchParams(stored)) : null) ??
    DEFAULT_RANGE
  );
}

/** `href` with the range in its query, replacing any range it had and keeping the rest. */
export function withRange(href: string, spec: RangeSpec): string {
  const at = href.indexOf("?");
  const path = at < 0 ? href : href.slice(0, at);
  const query = new URLSearchParams(at < 0 ? "" : href.slice(at + 1));
  for (const [key, value] of Object.entries(rangeParams(spec))) {
    if (value === undefined) query.delete(key);
    else query.set(key, value);
  }
  return `${path}?${query}`;
}

/**
 * How far before its start and after its end a link to a trace's logs looks: logs written as a
 * request winds down, a trace known only by one instant (an error's occurrence), clock skew.
 */
export const TRACE_LOGS_MARGIN_MS = 15 * 60_000;

/**
 * The absolute window from `start` less `marginMs` to `end` (else `start`) plus `marginMs`,
 * widened to whole minutes; null when either is not a time (ISO or epoch milliseconds).
 */
export function aroundRange(
  start: string,
  end: string = start,
  marginMs = TRACE_LOGS_MARGIN_MS,
): RangeSpec | null {
  const a = instant(start);
  const b = instant(end);
  if (!a || !b) return null;
  const first = Math.min(Date.parse(a), Date.parse(b));
  const last = Math.max(Date.parse(a), Date.parse(b));
  return {
    kind: "absolute",
    from: new Date(Math.floor((first - marginMs) / 60_000) * 60_000).toISOString(),
    to: new Date(Math.ceil((last + marginMs) / 60_000) * 60_000).toISOString(),
  };
}

/**
 * The logs screen (`logsPath`) filtered to one trace, over the window around when it ran
 * (`start` to `end`, with TRACE_LOGS_MARGIN_MS either side), with one of its logs opened
 * (`logId`). An absolute window finds the logs whatever their age, where a relative range
 * would miss an older trace; following the link makes it the session's range, as any link's.
 * Without a time it knows the link names no range, and the session's applies.
 */
export function traceLogsHref(
  logsPath: string,
  traceId: string,
  start: string,
  end?: string,
  logId?: string | null,
): string {
  const query = new URLSearchParams({ traceId });
  if (logId) query.set("log", logId);
  const href = `${logsPath}?${query}`;
  const window = aroundRange(start, end);
  return window ? withRange(href, window) : href;
}

/** Rounds to the minute so a re-render within the same minute asks the same query. */
const floorToMinute = (ms: number) => Math.floor(ms / 60_000) * 60_000;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The window a range covers at `now`: a relative one ends at the end of the current minute. */
export function resolveRange(spec: RangeSpec, now: number): TimeRange {
  if (spec.kind === "absolute") {
    const from = new Date(spec.from);
    const to = new Date(spec.to);
    return {
      from: spec.from,
      to: spec.to,
      key: "custom",
      label: `${from.toLocaleString()} – ${to.toLocaleString()}`,
      ms: to.getTime() - from.getTime(),
      spec,
    };
  }
  const ms = relativeMs(spec.key) ?? 3_600_000;
  const preset = RANGE_PRESETS.find((p) => p.key === spec.key);
  const unit = spec.key.slice(-1) as keyof typeof UNIT_NAME;
  const to = floorToMinute(now) + 60_000;
  return {
    from: new Date(to - ms).toISOString(),
    to: new Date(to).toISOString(),
    key: spec.key,
    label: preset?.label ?? `Last ${plural(Number(spec.key.slice(0, -1)), UNIT_NAME[unit])}`,
    ms,
    spec,
  };
}

/**
 * A selection across a time chart (x in Unix seconds, either direction) as an absolute
 * window widened to whole seconds; null when it is narrower than a second.
 */
export function selectionRange(a: number, b: number): RangeSpec | null {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return null;
  const from = Math.floor(Math.min(a, b));
  const to = Math.ceil(Math.max(a, b));
  if (to - from < 1) return null;
  return {
    kind: "absolute",
    from: new Date(from * 1000).toISOString(),
    to: new Date(to * 1000).toISOString(),
  };
}

/**
 * One step out: an absolute window doubles around its middle (ending at the current minute at
 * the latest); a relative range becomes the next longer preset.
 */
export function zoomOut(spec: RangeSpec, now: number): RangeSpec {
  if (spec.kind === "relative") {
    const ms = relativeMs(spec.key) ?? 0;
    const longer = RANGE_PRESETS.find((p) => p.ms > ms);
    return longer ? { kind: "relative", key: longer.key } : spec;
  }
  const from = Date.parse(spec.from);
  const to = Date.parse(spec.to);
  const width = (to - from) * 2;
  const end = Math.min(to + (to - from) / 2, floorToMinute(now) + 60_000);
  return {
    kind: "absolute",
    from: new Date(end - width).toISOString(),
    to: new Date(end).toISOString(),
  };
}
