import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  ErrorDetail,
  ErrorSort,
  ErrorSummary,
  ErrorTrends,
  UpdateErrorInput,
} from "../../../../src/contracts/error-groups";
import { api, type ListPage, projectApi, v1 } from "../../api/client";

/** The sorts GET /v1/errors accepts (contracts/error-groups.ts ERROR_SORTS), with their labels. */
export const ERROR_SORTS = [
  { key: "last_seen", label: "Last seen" },
  { key: "first_seen", label: "First seen" },
  { key: "occurrences", label: "Occurrences" },
  { key: "severity", label: "Severity" },
] as const satisfies readonly { key: ErrorSort; label: string }[];

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

/** Resolve, reopen or re-grade (PATCH /api/projects/:id/errors/:errorId, members and above). */
export function useUpdateError(projectId: string, errorId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: UpdateErrorInput) =>
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
