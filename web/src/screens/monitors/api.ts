import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { AssertionType, Operator } from "../../../../src/monitors/assertions/registry";
import type { Frequency, MonitorType } from "../../../../src/contracts/monitor-catalog";
import type { CheckResult as RunResult } from "../../../../src/monitors/check-result";
import { api, type ListPage, projectApi } from "../../api/client";

/** One assertion as the API takes and returns it (src/monitors/definition.ts `Assertion`). */
export interface Assertion {
  type: AssertionType;
  operator: Operator;
  value: string;
  /** json_path only. */
  path?: string;
  /** header only. */
  name?: string;
}

export interface Step {
  name: string;
  method: string;
  url: string;
  headers: { name: string; value: string }[];
  body?: string;
  assertions: Assertion[];
  extract: { name: string; path: string }[];
  followRedirects: boolean;
}

/** `GET /api/projects/:id/monitors/:monitorId` (src/monitors/views.ts `MonitorView`). */
export interface Monitor {
  id: string;
  projectId: string;
  name: string;
  type: MonitorType;
  frequency: Frequency;
  timeoutSeconds: number;
  locations: string[];
  alertAfter: number;
  channelIds: string[];
  steps: Step[];
  status: "active" | "paused";
  health: "pending" | "passing" | "outage";
  failureStreak: number;
  lastCheckedAt: string | null;
  lastResultId: string | null;
  lastResult: { id: string; startedAt: string; durationMs: number; passed: boolean } | null;
  openIncidentId: string | null;
  createdAt: string;
  updatedAt: string;
}

export type { AssertionResult, StepResult } from "../../../../src/monitors/check-result";

/** One check (src/monitors/views.ts `CheckResultView`): the runner's result with its ids. */
export interface CheckResult extends RunResult {
  id: string;
  monitorId: string;
  trigger: "scheduled" | "manual";
}

export interface MonitorIncident {
  id: string;
  monitorId: string;
  status: "active" | "resolved";
  startedAt: string;
  resolvedAt: string | null;
  durationMs: number | null;
  cause: string;
  openedByResultId: string;
  closedByResultId: string | null;
  notifications: { id: string; channelId: string; event: string; status: string }[];
}

export interface Channel {
  id: string;
  name: string;
  type: string;
}

/** What a create (POST) or a full edit (PATCH) sends. */
export type MonitorInput = Pick<
  Monitor,
  "name" | "type" | "frequency" | "timeoutSeconds" | "alertAfter" | "channelIds"
> & { locations: string[]; steps: Step[] };

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
      api<ListPage<Monitor>>(monitorsPath(projectId), { query: { limit: 1000 }, signal }),
    refetchInterval: 30_000,
  });
}

export function useMonitor(projectId: string, monitorId: string) {
  return useQuery({
    queryKey: monitorKeys.one(projectId, monitorId),
    queryFn: ({ signal }) => api<Monitor>(monitorsPath(projectId, monitorId), { signal }),
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
      api<ListPage<CheckResult>>(monitorsPath(projectId, monitorId, "results"), {
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
      api<CheckResult>(monitorsPath(projectId, monitorId, "results", resultId), { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useMonitorIncidents(projectId: string, monitorId: string) {
  return useQuery({
    queryKey: monitorKeys.incidents(projectId, monitorId),
    queryFn: ({ signal }) =>
      api<ListPage<MonitorIncident>>(monitorsPath(projectId, monitorId, "incidents"), {
        query: { limit: 50 },
        signal,
      }),
  });
}

export function useChannels(projectId: string) {
  return useQuery({
    queryKey: ["channels", projectId],
    queryFn: ({ signal }) =>
      api<ListPage<Channel>>(projectApi(projectId, "/channels"), {
        query: { limit: 1000 },
        signal,
      }),
    select: (page) => page.data,
  });
}

export function useSaveMonitor(projectId: string, monitorId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MonitorInput) =>
      monitorId
        ? api<Monitor>(monitorsPath(projectId, monitorId), { method: "PATCH", body: input })
        : api<Monitor>(monitorsPath(projectId), { method: "POST", body: input }),
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
