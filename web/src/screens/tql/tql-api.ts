import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  CreateSavedQueryInput,
  SavedQueryView,
  TqlCatalog,
  TqlParameters,
  TqlPosition,
  TqlRequest,
  TqlResult,
  UpdateSavedQueryInput,
} from "../../../../src/contracts/tql";
import { ApiError, type ApiProblem, api, type ListPage, projectApi, v1 } from "../../api/client";

// The TQL API's shapes are the server's own (src/contracts/tql.ts): GET /v1/tql/schema's catalog
// is built from the analyzer's definitions, POST /v1/tql answers a TqlResult.
export type {
  CatalogColumn,
  CatalogFunction,
  CatalogTable,
  SavedQueryView,
  TqlCatalog,
  TqlColumn,
  TqlPosition,
  TqlResult,
} from "../../../../src/contracts/tql";

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

/**
 * Runs one query with its placeholders' values (none sent when it has none); `signal` lets the
 * user stop waiting for it.
 */
export function runTql(
  projectId: string,
  query: string,
  signal: AbortSignal,
  parameters: TqlParameters = {},
): Promise<TqlResult> {
  const body: TqlRequest = Object.keys(parameters).length > 0 ? { query, parameters } : { query };
  return api<TqlResult>(v1(projectId, "/tql"), { method: "POST", body, signal });
}

const savedKey = (projectId: string) => ["tql-saved", projectId] as const;

export function useSavedQueries(projectId: string) {
  return useQuery({
    queryKey: savedKey(projectId),
    queryFn: ({ signal }) =>
      api<ListPage<SavedQueryView>>(projectApi(projectId, "/saved-queries"), {
        query: { limit: 1000 },
        signal,
      }),
    select: (page) => page.data,
  });
}

/** A new query (no id) or a change to a saved one. */
type SaveQuery =
  | { id?: undefined; input: CreateSavedQueryInput }
  | { id: string; input: UpdateSavedQueryInput };

export function useSaveQuery(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: SaveQuery) =>
      id
        ? api<SavedQueryView>(projectApi(projectId, `/saved-queries/${encodeURIComponent(id)}`), {
            method: "PATCH",
            body: input,
          })
        : api<SavedQueryView>(projectApi(projectId, "/saved-queries"), {
            method: "POST",
            body: input,
          }),
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
