import { useCallback, useEffect, useState } from "react";

/** One run of a query, as the history panel lists it. */
export interface HistoryEntry {
  query: string;
  /** ISO time of the run. */
  at: string;
  ok: boolean;
  rowCount?: number;
  durationMs?: number;
  /** The problem's detail when it failed. */
  error?: string;
}

/** Runs kept per project on this browser. */
export const HISTORY_LIMIT = 50;

const storageKey = (projectId: string) => `vigil:tql-history:${projectId}`;

function isEntry(value: unknown): value is HistoryEntry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Record<string, unknown>;
  return typeof entry.query === "string" && typeof entry.at === "string";
}

function load(projectId: string): HistoryEntry[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey(projectId)) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isEntry).slice(0, HISTORY_LIMIT) : [];
  } catch {
    return [];
  }
}

function store(projectId: string, entries: HistoryEntry[]): void {
  try {
    localStorage.setItem(storageKey(projectId), JSON.stringify(entries));
  } catch {
    // Storage full or disabled (private mode): the history stays for this page only.
  }
}

/**
 * The project's last runs on this browser, newest first (localStorage, so nothing leaves the
 * machine). Running the same text again moves it to the top instead of repeating it. Other tabs'
 * runs show up through the storage event.
 */
export function useQueryHistory(projectId: string) {
  const [entries, setEntries] = useState(() => load(projectId));
  useEffect(() => {
    setEntries(load(projectId));
    const onStorage = (event: StorageEvent) => {
      if (event.key === storageKey(projectId)) setEntries(load(projectId));
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, [projectId]);

  const add = useCallback(
    (entry: HistoryEntry) => {
      const next = [entry, ...load(projectId).filter((e) => e.query !== entry.query)].slice(
        0,
        HISTORY_LIMIT,
      );
      store(projectId, next);
      setEntries(next);
    },
    [projectId],
  );
  const clear = useCallback(() => {
    store(projectId, []);
    setEntries([]);
  }, [projectId]);
  return { entries, add, clear };
}
