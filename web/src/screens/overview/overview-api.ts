import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ErrorsDashboard } from "../../../../src/contracts/error-groups";
import type { HttpMetrics } from "../../../../src/contracts/http-metrics";
import type { MonitorView } from "../../../../src/contracts/monitors";
import { api, type ListPage, projectApi, v1 } from "../../api/client";
import type { TimeRange } from "../../lib/time-range";

/**
 * The window as every windowed verb takes it. `time_range` is required by /v1/http-metrics;
 * `from`/`to` override it, so a custom range is sent as its length in minutes plus the bounds.
 */
export function windowQuery(range: TimeRange) {
  return {
    time_range:
      range.key === "custom" ? `${Math.max(1, Math.ceil(range.ms / 60_000))}m` : range.key,
    from: range.from,
    to: range.to,
  };
}

export function useHttpMetrics(projectId: string, range: TimeRange) {
  const query = windowQuery(range);
  return useQuery({
    queryKey: ["overview", projectId, "http-metrics", query],
    queryFn: ({ signal }) => api<HttpMetrics>(v1(projectId, "/http-metrics"), { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useErrorsDashboard(projectId: string, range: TimeRange) {
  const query = { from: range.from, to: range.to };
  return useQuery({
    queryKey: ["overview", projectId, "errors-dashboard", query],
    queryFn: ({ signal }) =>
      api<ErrorsDashboard>(v1(projectId, "/errors/dashboard"), { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** How many items a filtered list has: one item asked for, the total read from its pagination. */
export function useListTotal(key: string, path: string, query: Record<string, string>) {
  return useQuery({
    queryKey: ["overview", key, query],
    queryFn: ({ signal }) =>
      api<ListPage<unknown>>(path, { query: { ...query, limit: 1 }, signal }),
    select: (page) => page.pagination.total,
    refetchInterval: 60_000,
  });
}

/** The project's monitors that are in an outage now (and how many monitors there are). */
export function useMonitorsDown(projectId: string) {
  return useQuery({
    queryKey: ["overview", projectId, "monitors"],
    queryFn: ({ signal }) =>
      api<ListPage<MonitorView>>(projectApi(projectId, "/monitors"), {
        query: { limit: 1000 },
        signal,
      }),
    select: (page) => ({
      down: page.data.filter((m) => m.health === "outage"),
      total: page.pagination.total,
    }),
    refetchInterval: 60_000,
  });
}
