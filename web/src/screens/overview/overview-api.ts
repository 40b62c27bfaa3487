import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, type ListPage, projectApi, v1 } from "../../api/client";
import type { TimeRange } from "../../lib/time-range";

/** GET /v1/http-metrics (src/read/http-metrics.ts), the parts the overview shows. */
export interface HttpMetrics {
  from: string;
  to: string;
  bucketSeconds: number;
  series: {
    time: string;
    count: number;
    errors: number;
    errorRate: number;
    p50Ms: number | null;
    p95Ms: number | null;
    p99Ms: number | null;
  }[];
  totals: {
    count: number;
    errors: number;
    errorRate: number;
    avgMs: number | null;
    p50Ms: number | null;
    p95Ms: number | null;
    p99Ms: number | null;
    requestsPerMinute: number;
  };
  routes: {
    method: string;
    route: string;
    service: string;
    count: number;
    errors: number;
    errorRate: number;
    p95Ms: number | null;
  }[];
  routeCount: number;
}

/** GET /v1/errors/dashboard (src/read/errors.ts). */
export interface ErrorsDashboard {
  occurrences: number;
  groupsSeen: number;
  newGroups: number;
  active: number;
  topErrors: {
    id: string;
    type: string;
    message: string;
    culprit: string;
    status: string;
    severity: string;
    occurrencesInWindow: number;
    lastSeen: string;
  }[];
}

/** GET /api/projects/:id/monitors (src/monitors/views.ts), the fields the tile counts. */
interface MonitorHealth {
  id: string;
  name: string;
  status: "active" | "paused";
  health: "pending" | "passing" | "outage";
}

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
      api<ListPage<MonitorHealth>>(projectApi(projectId, "/monitors"), {
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
