import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  CreateSavedViewInput,
  SavedView,
  SavedViewKind,
  UpdateSavedViewInput,
} from "../../../src/contracts/saved-views";
import { api, type ListPage, projectApi } from "../api/client";

const viewsKey = (projectId: string, kind: SavedViewKind) =>
  ["saved-views", projectId, kind] as const;

/** The project's saved views of one explorer, by name (a project has few: one page of 1000). */
export function useSavedViews(projectId: string, kind: SavedViewKind) {
  return useQuery({
    queryKey: viewsKey(projectId, kind),
    queryFn: ({ signal }) =>
      api<ListPage<SavedView>>(projectApi(projectId, "/saved-views"), {
        query: { kind, limit: 1000 },
        signal,
      }),
    select: (page) => page.data,
  });
}

/** Saves a view, or renames or moves one (`id`). */
export function useSaveView(projectId: string, kind: SavedViewKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (
      save:
        | { id?: undefined; input: CreateSavedViewInput }
        | { id: string; input: UpdateSavedViewInput },
    ) =>
      save.id
        ? api<SavedView>(projectApi(projectId, `/saved-views/${encodeURIComponent(save.id)}`), {
            method: "PATCH",
            body: save.input,
          })
        : api<SavedView>(projectApi(projectId, "/saved-views"), {
            method: "POST",
            body: save.input,
          }),
    onSuccess: () => client.invalidateQueries({ queryKey: viewsKey(projectId, kind) }),
  });
}

export function useDeleteView(projectId: string, kind: SavedViewKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<void>(projectApi(projectId, `/saved-views/${encodeURIComponent(id)}`), {
        method: "DELETE",
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: viewsKey(projectId, kind) }),
  });
}
