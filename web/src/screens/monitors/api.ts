import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { ChannelView } from "../../../../src/contracts/channels";
import type {
  CheckResultView,
  CreateMonitorInput,
  MonitorIncidentView,
  MonitorView,
} from "../../../../src/contracts/monitors";
import { api, type ListPage, projectApi } from "../../api/client";

const monitorsPath = (projectId: string, ...rest: string[]) =>
  projectApi(projectId, ["/monitors", ...rest.map(encodeURIComponent)].join("/"));

export const monitorKeys = {
  all: (projectId: string) => ["monitors", projectId] as const,
  one: (projectId: string, id: string) => ["monitors", projectId, id] as const,
  results: (projectId: string, id: string) => ["monitors", projectId, id, "results"] as const,
  incidents: (projectId: string, id: string) => ["monitors", projectId, id, "incidents"] as const,
};

/** Every monitor of the project (the list filters in the browser: a project has few). */
export function useMonitors(projectId: string) {
  return useQuery({
    queryKey: monitorKeys.all(projectId),
    queryFn: ({ signal }) =>
      api<ListPage<MonitorView>>(monitorsPath(projectId), { query: { limit: 1000 }, signal }),
    refetchInterval: 30_000,
  });
}

export function useMonitor(projectId: string, monitorId: string) {
  return useQuery({
    queryKey: monitorKeys.one(projectId, monitorId),
    queryFn: ({ signal }) => api<MonitorView>(monitorsPath(projectId, monitorId), { signal }),
    // A new monitor's first check comes within seconds: look again soon until it has one.
    refetchInterval: (query) =>
      query.state.data?.status === "active" && query.state.data.health === "pending"
        ? 3_000
        : 30_000,
  });
}

type ResultsQuery = {
  from: string;
  to: string;
  passed?: "true" | "false" | undefined;
  page: number;
};

/**
 * A monitor's checks in step with the monitor's own state (its last check, health, open
 * incident): the list is asked again when the monitor has a newer check, and the monitor
 * when the list shows a check newer than its last. The page never shows a failed check
 * under "Not checked yet".
 */
export function useMonitorResults(projectId: string, monitorId: string, query: ResultsQuery) {
  const client = useQueryClient();
  const last = useMonitor(projectId, monitorId).data?.lastResult ?? null;
  const results = useResults(projectId, monitorId, query, last?.id ?? null);
  const newest = results.data?.data[0]?.startedAt;
  useEffect(() => {
    if (newest !== undefined && (last === null || newest > last.startedAt))
      void client.invalidateQueries({
        queryKey: monitorKeys.one(projectId, monitorId),
        exact: true,
      });
  }, [client, projectId, monitorId, newest, last]);
  return results;
}

function useResults(
  projectId: string,
  monitorId: string,
  query: ResultsQuery,
  /** The monitor's last check: a new one asks for the list again. */
  lastResultId: string | null,
) {
  return useQuery({
    queryKey: [...monitorKeys.results(projectId, monitorId), query, lastResultId],
    queryFn: ({ signal }) =>
      api<ListPage<CheckResultView>>(monitorsPath(projectId, monitorId, "results"), {
        query: { ...query, limit: 200 },
        signal,
      }),
    placeholderData: (previous) => previous,
    refetchInterval: 30_000,
  });
}

/** One check, for a shared link to a result that is not on the page shown. */
export function useResult(projectId: string, monitorId: string, resultId: string) {
  return useQuery({
    queryKey: [...monitorKeys.results(projectId, monitorId), "one", resultId],
    queryFn: ({ signal }) =>
      api<CheckResultView>(monitorsPath(projectId, monitorId, "results", resultId), { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useMonitorIncidents(projectId: string, monitorId: string) {
  return useQuery({
    queryKey: monitorKeys.incidents(projectId, monitorId),
    queryFn: ({ signal }) =>
      api<ListPage<MonitorIncidentView>>(monitorsPath(projectId, monitorId, "incidents"), {
        query: { limit: 50 },
        signal,
      }),
  });
}

export function useChannels(projectId: string) {
  return useQuery({
    queryKey: ["channels", projectId],
    queryFn: ({ signal }) =>
      api<ListPage<ChannelView>>(projectApi(projectId, "/channels"), {
        query: { limit: 1000 },
        signal,
      }),
    select: (page) => page.data,
  });
}

export function useSaveMonitor(projectId: string, monitorId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateMonitorInput) =>
      monitorId
        ? api<MonitorView>(monitorsPath(projectId, monitorId), { method: "PATCH", body: input })
        : api<MonitorView>(monitorsPath(projectId), { method: "POST", body: input }),
    onSuccess: async (monitor) => {
      client.setQueryData(monitorKeys.one(projectId, monitor.id), monitor);
      await client.invalidateQueries({ queryKey: monitorKeys.all(projectId), exact: true });
    },
  });
}

/** Run now, pause, resume and delete: each refreshes the monitor and what hangs off it. */
export function useMonitorAction<T>(
  projectId: string,
  monitorId: string,
  action: "run" | "pause" | "resume" | "delete",
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      action === "delete"
        ? api<T>(monitorsPath(projectId, monitorId), { method: "DELETE" })
        : api<T>(monitorsPath(projectId, monitorId, action), { method: "POST" }),
    onSuccess: async () => {
      // After a delete the caller leaves the page; the list forgets the monitor.
      await client.invalidateQueries({
        queryKey: monitorKeys.all(projectId),
        exact: action === "delete",
      });
    },
  });
}
