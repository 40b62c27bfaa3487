import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type ListPage, projectApi, v1 } from "../../api/client";

export const ERROR_STATUSES = ["active", "resolved"] as const;
export const ERROR_SEVERITIES = ["low", "medium", "high", "critical"] as const;
export const ERROR_SORTS = [
  { key: "last_seen", label: "Last seen" },
  { key: "first_seen", label: "First seen" },
  { key: "occurrences", label: "Occurrences" },
  { key: "severity", label: "Severity" },
] as const;
export type ErrorSeverity = (typeof ERROR_SEVERITIES)[number];

/** GET /v1/errors items and the PATCH answer (src/read/errors.ts ErrorSummary). */
export interface ErrorSummary {
  id: string;
  type: string;
  message: string;
  culprit: string;
  status: "active" | "resolved";
  severity: ErrorSeverity;
  occurrences: number;
  firstSeen: string;
  lastSeen: string;
  resolvedAt: string | null;
  services: string[];
  source: "frontend" | "backend";
  sampleTraceId: string | null;
}

export interface StackLine {
  text: string;
  frame: { file: string; function: string; inApp: boolean } | null;
}

/** GET /v1/errors/:errorId (ErrorDetail). */
export interface ErrorDetail extends ErrorSummary {
  stacktrace: string;
  stack: StackLine[];
  window: { from: string; to: string; bucketSeconds: number };
  occurrencesInWindow: number;
  occurrencesOverTime: { time: string; count: number }[];
  affectedServices: { service: string; occurrences: number; lastSeen: string }[];
  sampleTraces: {
    traceId: string;
    spanId: string | null;
    service: string;
    time: string;
    message: string;
    /** The error log of this occurrence, when a log recorded it. */
    logId: string | null;
  }[];
}

/** GET /v1/errors/trends (src/read/error-trends.ts). */
export interface ErrorTrends {
  bucketSeconds: number;
  buckets: string[];
  trends: { errorId: string; total: number; counts: number[] }[];
}

export interface ErrorListQuery {
  status?: string;
  severity?: string;
  source?: string;
  search?: string;
  sort_by: string;
  from: string;
  to: string;
  page: number;
  limit: number;
}

export function useErrorList(projectId: string, query: ErrorListQuery) {
  return useQuery({
    queryKey: ["errors", projectId, "list", query],
    queryFn: ({ signal }) =>
      api<ListPage<ErrorSummary>>(v1(projectId, "/errors"), { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Occurrences over the window of the groups on screen, in one request, for their sparklines. */
export function useErrorTrends(
  projectId: string,
  ids: string[],
  window: { from: string; to: string },
) {
  const query = { ...window, ids: ids.join(",") };
  return useQuery({
    queryKey: ["errors", projectId, "trends", query],
    queryFn: ({ signal }) => api<ErrorTrends>(v1(projectId, "/errors/trends"), { query, signal }),
    enabled: ids.length > 0,
    placeholderData: keepPreviousData,
  });
}

export function useErrorDetail(
  projectId: string,
  errorId: string,
  window: { from: string; to: string },
) {
  return useQuery({
    queryKey: ["errors", projectId, "detail", errorId, window],
    queryFn: ({ signal }) =>
      api<ErrorDetail>(v1(projectId, `/errors/${encodeURIComponent(errorId)}`), {
        query: window,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export type ErrorChange = { status: "active" | "resolved" } | { severity: ErrorSeverity };

/** Resolve, reopen or re-grade (PATCH /api/projects/:id/errors/:errorId, members and above). */
export function useUpdateError(projectId: string, errorId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: ErrorChange) =>
      api<ErrorSummary>(projectApi(projectId, `/errors/${encodeURIComponent(errorId)}`), {
        method: "PATCH",
        body: change,
      }),
    onSuccess: async (summary) => {
      // The detail shows the new state at once; lists and the overview ask again.
      client.setQueriesData<ErrorDetail>(
        { queryKey: ["errors", projectId, "detail", errorId] },
        (detail) => detail && { ...detail, ...summary },
      );
      await client.invalidateQueries({ queryKey: ["errors", projectId, "list"] });
      await client.invalidateQueries({ queryKey: ["overview", projectId] });
    },
  });
}
