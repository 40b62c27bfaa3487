import { useCallback } from "react";
import { useLocation, useSearch } from "wouter";

/**
 * View state kept in the URL's query, so a view can be shared, bookmarked and reloaded.
 * `useUrlParams()` returns the current parameters and a setter that merges changes (an empty
 * or undefined value removes the key) and replaces the history entry unless `push` is asked.
 */
export function useUrlParams(): [
  URLSearchParams,
  (
    changes: Record<string, string | number | undefined | null>,
    options?: { push?: boolean },
  ) => void,
] {
  const search = useSearch();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const set = useCallback(
    (changes: Record<string, string | number | undefined | null>, options?: { push?: boolean }) => {
      const next = new URLSearchParams(window.location.search);
      for (const [key, value] of Object.entries(changes)) {
        if (value === undefined || value === null || value === "") next.delete(key);
        else next.set(key, String(value));
      }
      const query = next.toString();
      // The absolute path (`~`): inside a nested area wouter would turn its root "/" into a
      // trailing slash (`/traces/?range=1h`).
      const path = window.location.pathname;
      navigate(`~${path}${query ? `?${query}` : ""}`, { replace: !options?.push });
    },
    [navigate],
  );
  return [params, set];
}

/** One URL parameter as state: its value (or the fallback) and a setter. */
export function useUrlParam(
  key: string,
  fallback = "",
): [string, (value: string | number | undefined) => void] {
  const [params, set] = useUrlParams();
  const setOne = useCallback(
    (value: string | number | undefined) => set({ [key]: value }),
    [key, set],
  );
  return [params.get(key) ?? fallback, setOne];
}
