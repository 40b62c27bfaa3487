import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { useLocation } from "wouter";
import { api } from "../../api/client";

/**
 * A write to one of the settings lists (keys, endpoints, channels): `write`, then the list
 * (`listKey`, with the items under it) is read again, then `then` runs with the answer (close
 * the form, show a secret).
 */
export function useListWrite<T>(
  write: () => Promise<T>,
  listKey: QueryKey,
  then?: (result: T) => void,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: async (result) => {
      await client.invalidateQueries({ queryKey: listKey });
      then?.(result);
    },
  });
}

/**
 * Deletes a channel or an endpoint at `path`; from its own page (`afterDelete`, where to go
 * then) it leaves first, since that page is gone; the list (`listKey`) is refreshed.
 */
export function useDeleteItem(path: string, listKey: QueryKey, afterDelete?: string) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: () => api<void>(path, { method: "DELETE" }),
    onSuccess: async () => {
      if (afterDelete) navigate(afterDelete);
      await client.invalidateQueries({ queryKey: listKey });
    },
  });
}

/** A form's submit handler: the write runs instead of the browser's submission. */
export const submitWith =
  (mutation: { mutate: () => void }) =>
  (event: FormEvent): void => {
    event.preventDefault();
    mutation.mutate();
  };
