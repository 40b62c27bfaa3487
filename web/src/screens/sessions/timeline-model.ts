import type { TimelineEntry } from "../../../../src/contracts/browser-sessions";

type SpanEntry = Extract<TimelineEntry, { kind: "span" }>;
type AiEntry = Extract<TimelineEntry, { kind: "ai" }>;
type LogEntry = Extract<TimelineEntry, { kind: "log" }>;
type ErrorEntry = Extract<TimelineEntry, { kind: "error" }>;

/** One row of the session timeline as the screen shows it. */
export type TimelineRow =
  | { kind: "page"; time: string; page: string; key: string }
  | {
      kind: "request";
      time: string;
      key: string;
      root: SpanEntry;
      /** The trace's other spans in this session, in time order. */
      children: SpanEntry[];
      failed: boolean;
    }
  | { kind: "ai"; time: string; key: string; entry: AiEntry }
  | { kind: "log"; time: string; key: string; entry: LogEntry }
  | { kind: "error"; time: string; key: string; entry: ErrorEntry };

export const ROW_KINDS = ["page", "request", "ai", "log", "error"] as const;
export type RowKind = (typeof ROW_KINDS)[number];

/**
 * Turns the API's flat timeline into what a person reads: a page view whenever the page changes,
 * one request per trace (its first span, with the trace's other spans folded under it), AI
 * calls, logs and errors, all in the API's time order.
 */
export function timelineRows(entries: readonly TimelineEntry[]): TimelineRow[] {
  const requests = new Map<string, Extract<TimelineRow, { kind: "request" }>>();
  const rows: TimelineRow[] = [];
  let page: string | null = null;
  for (const [index, entry] of entries.entries()) {
    if (entry.kind !== "error" && entry.page && entry.page !== page) {
      page = entry.page;
      rows.push({ kind: "page", time: entry.time, page: entry.page, key: `page:${index}` });
    }
    switch (entry.kind) {
      case "span": {
        // The trace's first span in the session stands for the request; later ones fold under it.
        const request = requests.get(entry.traceId);
        if (request) {
          request.children.push(entry);
          if (entry.status === "error") request.failed = true;
          continue;
        }
        const row = {
          kind: "request" as const,
          time: entry.time,
          key: `span:${entry.spanId}:${index}`,
          root: entry,
          children: [],
          failed: entry.status === "error",
        };
        requests.set(entry.traceId, row);
        rows.push(row);
        continue;
      }
      case "ai":
        rows.push({ kind: "ai", time: entry.time, key: `ai:${entry.spanId}:${index}`, entry });
        continue;
      case "log":
        rows.push({ kind: "log", time: entry.time, key: `log:${entry.logId}:${index}`, entry });
        continue;
      case "error": {
        const request = entry.traceId ? requests.get(entry.traceId) : undefined;
        if (request) request.failed = true;
        rows.push({ kind: "error", time: entry.time, key: `error:${index}`, entry });
      }
    }
  }
  return rows;
}

/** "+1:05" / "+1:02:03" from the session's start: where in the session a row happened. */
export function formatOffset(fromIso: string, toIso: string): string {
  const total = Math.max(0, Math.floor((Date.parse(toIso) - Date.parse(fromIso)) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0
    ? `+${hours}:${String(minutes).padStart(2, "0")}:${seconds}`
    : `+${minutes}:${seconds}`;
}
