import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { LogDetail, LogSummary, LogsDashboard } from "../../../../src/contracts/logs";
import { api, type ListPage, v1 } from "../../api/client";
import { useUrlParams } from "../../lib/url-state";

/** The filters of the logs view, as the URL holds them (`q`, `level`, `source`, `service`, `traceId`). */
export interface LogFilters {
  q: string;
  level: string;
  source: string;
  service: string;
  traceId: string;
}

export function useLogFilters(): [LogFilters, ReturnType<typeof useUrlParams>[1]] {
  const [params, set] = useUrlParams();
  return [
    {
      q: params.get("q") ?? "",
      level: params.get("level") ?? "",
      source: params.get("source") ?? "",
      service: params.get("service") ?? "",
      traceId: params.get("traceId") ?? "",
    },
    set,
  ];
}

/** The list verb's query for the filters (empty values are left out by the client). */
export const filterQuery = (f: LogFilters) => ({
  search: f.q.trim(),
  level: f.level,
  source: f.source,
  service: f.service,
  trace_id: f.traceId,
});

export const PAGE_SIZE = 200;

/** Every page of the filtered list within a fixed window, loaded as the list scrolls. */
export function useLogPages(
  projectId: string,
  filters: LogFilters,
  window: { from: string; to: string },
) {
  const query = { ...filterQuery(filters), ...window, sort_by: "timestamp", sort_order: "desc" };
  return useInfiniteQuery({
    queryKey: ["logs", projectId, "list", query],
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api<ListPage<LogSummary>>(v1(projectId, "/logs"), {
        query: { ...query, page: pageParam, limit: PAGE_SIZE },
        signal,
      }),
    getNextPageParam: (last) => (last.pagination.hasMore ? last.pagination.page + 1 : undefined),
    // A window that ends in the past never changes; newer records come through the live tail.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useLog(projectId: string, logId: string) {
  return useQuery({
    queryKey: ["logs", projectId, "detail", logId],
    queryFn: ({ signal }) => api<LogDetail>(v1(projectId, `/logs/${logId}`), { signal }),
    enabled: logId !== "",
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Services that logged in the window, for the service filter's suggestions. */
export function useLogServices(projectId: string, window: { from: string; to: string }) {
  return useQuery({
    queryKey: ["logs", projectId, "services", window],
    queryFn: ({ signal }) =>
      api<Pick<LogsDashboard, "topServices">>(v1(projectId, "/logs/dashboard"), {
        query: window,
        signal,
      }),
    select: (d) => d.topServices.map((s) => s.service),
    staleTime: 60_000,
  });
}

export const levelTone = (level: string): "bad" | "warn" | "info" | "muted" =>
  level === "error" || level === "fatal"
    ? "bad"
    : level === "warn"
      ? "warn"
      : level === "info"
        ? "info"
        : "muted";
