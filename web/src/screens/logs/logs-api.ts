import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type {
  LogContext,
  LogDetail,
  LogFacets,
  LogSummary,
  LogsDashboard,
  LogVolume,
} from "../../../../src/contracts/logs";
import { api, type ListPage, v1 } from "../../api/client";
import { filtersParam, parseFilters } from "../../components/filters/filter-model";
import { useUrlParams } from "../../lib/url-state";

/**
 * The filters of the logs view, as the URL holds them (`q`, `level`, `source`, `service`,
 * `traceId`, and `filters`: the read API's JSON array, which the facets and chips edit).
 */
export interface LogFilters {
  q: string;
  level: string;
  source: string;
  service: string;
  traceId: string;
  filters: string;
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
      filters: params.get("filters") ?? "",
    },
    set,
  ];
}

/**
 * The list verb's query for the filters (empty values are left out by the client); of the
 * URL's `filters`, the entries the chips show (an unreadable one is left out, not sent).
 */
export const filterQuery = (f: LogFilters) => ({
  search: f.q.trim(),
  level: f.level,
  source: f.source,
  service: f.service,
  trace_id: f.traceId,
  filters: filtersParam(parseFilters(f.filters).filters),
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

/** Counts per level and bucket of the records the list shows, over the same window. */
export function useLogVolume(
  projectId: string,
  filters: LogFilters,
  window: { from: string; to: string },
) {
  const query = { ...filterQuery(filters), ...window, buckets: 90 };
  return useQuery({
    queryKey: ["logs", projectId, "volume", query],
    queryFn: ({ signal }) => api<LogVolume>(v1(projectId, "/logs/volume"), { query, signal }),
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
  });
}

/** Value counts of the records the list shows, for the facets beside it. */
export function useLogFacets(
  projectId: string,
  filters: LogFilters,
  window: { from: string; to: string },
) {
  const query = { ...filterQuery(filters), ...window, keys: 8, values: 8 };
  return useQuery({
    queryKey: ["logs", projectId, "facets", query],
    queryFn: ({ signal }) => api<LogFacets>(v1(projectId, "/logs/facets"), { query, signal }),
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
  });
}

/** The records of the same service and instance around one record. */
export function useLogContext(projectId: string, logId: string, around: number, enabled: boolean) {
  return useQuery({
    queryKey: ["logs", projectId, "context", logId, around],
    queryFn: ({ signal }) =>
      api<LogContext>(v1(projectId, `/logs/${logId}/context`), {
        query: { before: around, after: around },
        signal,
      }),
    enabled,
    staleTime: 60_000,
    // More records of the same one keep the list shown; another record's never stand in.
    placeholderData: (previous, query) => (query?.queryKey[3] === logId ? previous : undefined),
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
