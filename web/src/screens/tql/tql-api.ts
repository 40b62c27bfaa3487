import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
// GET /v1/tql/schema: the catalog the server builds from the analyzer's own definitions.
import type { TqlCatalog } from "../../../../src/tql/catalog";
import { ApiError, type ApiProblem, api, type ListPage, projectApi, v1 } from "../../api/client";

export type {
  CatalogColumn,
  CatalogFunction,
  CatalogTable,
  TqlCatalog,
} from "../../../../src/tql/catalog";

export interface TqlColumn {
  name: string;
  /** The ClickHouse type name. */
  type: string;
}

export interface TqlResult {
  columns: TqlColumn[];
  rows: unknown[][];
  rowCount: number;
  durationMs: number;
  truncated: boolean;
}

export interface SavedQuery {
  id: string;
  projectId: string;
  name: string;
  description: string;
  query: string;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Where a TQL error is: 1-based line and column, as the server's problem carries it. */
export interface TqlPosition {
  line: number;
  column: number;
}

/** The position a 400 names, if the error is one. */
export function errorPosition(error: unknown): TqlPosition | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const { position } = error.problem as ApiProblem & { position?: TqlPosition };
  return position && Number.isInteger(position.line) && Number.isInteger(position.column)
    ? position
    : undefined;
}

/** The schema changes only with the server's version: fetched once per page load. */
export function useTqlCatalog(projectId: string) {
  return useQuery({
    queryKey: ["tql-schema", projectId],
    queryFn: ({ signal }) => api<TqlCatalog>(v1(projectId, "/tql/schema"), { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}

/** Runs one query; `signal` lets the user stop waiting for it. */
export function runTql(projectId: string, query: string, signal: AbortSignal): Promise<TqlResult> {
  return api<TqlResult>(v1(projectId, "/tql"), { method: "POST", body: { query }, signal });
}

const savedKey = (projectId: string) => ["tql-saved", projectId] as const;

export function useSavedQueries(projectId: string) {
  return useQuery({
    queryKey: savedKey(projectId),
    queryFn: ({ signal }) =>
      api<ListPage<SavedQuery>>(projectApi(projectId, "/saved-queries"), {
        query: { limit: 1000 },
        signal,
      }),
    select: (page) => page.data,
  });
}

export interface SavedQueryInput {
  name?: string;
  query?: string;
  description?: string;
}

export function useSaveQuery(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: SavedQueryInput }) =>
      id
        ? api<SavedQuery>(projectApi(projectId, `/saved-queries/${encodeURIComponent(id)}`), {
            method: "PATCH",
            body: input,
          })
        : api<SavedQuery>(projectApi(projectId, "/saved-queries"), { method: "POST", body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: savedKey(projectId) }),
  });
}

export function useDeleteSavedQuery(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<void>(projectApi(projectId, `/saved-queries/${encodeURIComponent(id)}`), {
        method: "DELETE",
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: savedKey(projectId) }),
  });
}
