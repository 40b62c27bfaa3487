import { useEffect, useRef, useState } from "react";
import type { LogSummary } from "../../../../src/contracts/logs";
import { api, type ListPage, v1 } from "../../api/client";
import { filterQuery, type LogFilters } from "./logs-api";

export const TAIL_INTERVAL_MS = 2_000;
/** Records reach the service later than they were written (exporters batch): look back this far. */
const LATE_MS = 30_000;
const TAIL_LIMIT = 500;

export interface LiveTail {
  /** Records newer than the list's window, newest first. */
  rows: LogSummary[];
  error: unknown;
  lastPollAt: number | null;
}

/**
 * While `enabled`, asks every 2 s for records of the filters written at or after `afterMs` (the
 * end of the loaded list's window) and keeps those not seen yet, newest first. It skips its turn
 * while the tab is hidden and asks at once when the tab is shown again. The rows survive turning
 * it off and on; other filters or another window start over.
 */
export function useLiveTail(
  projectId: string,
  filters: LogFilters,
  afterMs: number,
  enabled: boolean,
): LiveTail {
  const key = JSON.stringify({ projectId, ...filterQuery(filters), afterMs });
  const [state, setState] = useState<{ key: string; rows: LogSummary[] }>({ key, rows: [] });
  const [error, setError] = useState<unknown>(null);
  const [lastPollAt, setLastPollAt] = useState<number | null>(null);
  const rows = state.key === key ? state.rows : [];
  const newest = useRef({ key, ms: afterMs });
  if (newest.current.key !== key) newest.current = { key, ms: afterMs };

  useEffect(() => {
    if (!enabled) return;
    const {
      projectId: project,
      afterMs: after,
      ...filterParams
    } = JSON.parse(key) as {
      projectId: string;
      afterMs: number;
    } & Record<string, string>;
    const controller = new AbortController();
    let inFlight = false;
    const poll = async () => {
      if (document.hidden || inFlight) return;
      inFlight = true;
      try {
        const from = Math.max(after, newest.current.ms - LATE_MS);
        const page = await api<ListPage<LogSummary>>(v1(project, "/logs"), {
          query: {
            ...filterParams,
            from: new Date(from).toISOString(),
            sort_by: "timestamp",
            sort_order: "desc",
            limit: TAIL_LIMIT,
          },
          signal: controller.signal,
        });
        setState((previous) => {
          const current = previous.key === key ? previous.rows : [];
          const seen = new Set(current.map((r) => r.id));
          const fresh = page.data.filter(
            (r) => !seen.has(r.id) && Date.parse(r.timestamp) >= after,
          );
          if (fresh.length === 0 && previous.key === key) return previous;
          for (const r of fresh)
            newest.current.ms = Math.max(newest.current.ms, Date.parse(r.timestamp));
          const merged = [...fresh, ...current].sort(
            (a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp),
          );
          return { key, rows: merged };
        });
        setError(null);
        setLastPollAt(Date.now());
      } catch (caught) {
        if (!controller.signal.aborted) setError(caught);
      } finally {
        inFlight = false;
      }
    };
    void poll();
    const timer = setInterval(poll, TAIL_INTERVAL_MS);
    const onVisibility = () => {
      if (!document.hidden) void poll();
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      clearInterval(timer);
      controller.abort();
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [enabled, key]);

  return { rows, error: enabled ? error : null, lastPollAt };
}
