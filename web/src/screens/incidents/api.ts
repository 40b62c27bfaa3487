import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  INCIDENT_PHASES,
  INCIDENT_SOURCES,
  INCIDENT_STATUSES,
  type IncidentPhase,
  type IncidentSource,
} from "../../../../src/contracts/incident-catalog";
import type {
  CreateIncidentInput,
  IncidentDetailView,
  IncidentsDashboard,
  IncidentView,
} from "../../../../src/contracts/incidents";
import { SEVERITIES, type Severity } from "../../../../src/contracts/severity";
import { api, type ListPage, projectApi, v1 } from "../../api/client";
import { fetchMembers, keys } from "../settings/api";

// The shapes of /api/projects/:projectId/incidents… and their closed sets are the server's
// contracts (src/contracts/incidents.ts, incident-catalog.ts).

export { SEVERITIES, type Severity };
export const STATUSES = INCIDENT_STATUSES;
export const SOURCES = INCIDENT_SOURCES;
export const PHASES = INCIDENT_PHASES;

export const SOURCE_LABEL: Record<IncidentSource, string> = {
  manual: "Manual",
  monitor: "Monitor",
  alert: "Alert rule",
};

export const incidentsKey = (projectId: string) => ["incidents", projectId] as const;
export const incidentKey = (projectId: string, incidentId: string) =>
  ["incidents", projectId, "detail", incidentId] as const;

export function useIncidents(
  projectId: string,
  query: Record<string, string | number | undefined>,
) {
  return useQuery({
    queryKey: [...incidentsKey(projectId), "list", query],
    queryFn: () => api<ListPage<IncidentView>>(projectApi(projectId, "/incidents"), { query }),
    placeholderData: (previous) => previous,
    refetchInterval: 30_000,
  });
}

/** Open now, opened and resolved in the window, mean time to resolve (the /v1 dashboard). */
export function useIncidentsDashboard(projectId: string, timeRange: string) {
  return useQuery({
    queryKey: [...incidentsKey(projectId), "dashboard", timeRange],
    queryFn: () =>
      api<IncidentsDashboard>(v1(projectId, "/incidents/dashboard"), {
        query: { time_range: timeRange },
      }),
    refetchInterval: 30_000,
  });
}

export function useIncident(projectId: string, incidentId: string) {
  return useQuery({
    queryKey: incidentKey(projectId, incidentId),
    queryFn: () => api<IncidentDetailView>(projectApi(projectId, `/incidents/${incidentId}`)),
    refetchInterval: 30_000,
  });
}

/**
 * A write on one incident: the answer is the incident with its timeline, stored as the detail
 * at once; lists and the dashboard are read again.
 */
export function useIncidentWrite<I>(
  projectId: string,
  incidentId: string,
  write: (base: string, input: I) => Promise<IncidentDetailView>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => write(projectApi(projectId, `/incidents/${incidentId}`), input),
    onSuccess: async (detail) => {
      client.setQueryData(incidentKey(projectId, incidentId), detail);
      await Promise.all([
        client.invalidateQueries({
          queryKey: incidentsKey(projectId),
          predicate: (q) => q.queryKey[2] !== "detail",
        }),
        // Linked status page components change state with the incident.
        client.invalidateQueries({ queryKey: ["status-pages"] }),
      ]);
    },
  });
}

export function useDeclareIncident(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateIncidentInput) =>
      api<IncidentDetailView>(projectApi(projectId, "/incidents"), { method: "POST", body: input }),
    onSuccess: async (detail) => {
      client.setQueryData(incidentKey(projectId, detail.id), detail);
      await Promise.all([
        client.invalidateQueries({ queryKey: incidentsKey(projectId) }),
        client.invalidateQueries({ queryKey: ["status-pages"] }),
      ]);
    },
  });
}

/** How long an incident has lasted: its recorded duration, or up to now while active. */
export const incidentDuration = (incident: IncidentView, now = Date.now()): number =>
  incident.durationMs ?? now - Date.parse(incident.startedAt);

/** The phase of the latest public update, or undefined before the first. */
export const currentPhase = (detail: IncidentDetailView): IncidentPhase | undefined =>
  detail.updates.at(-1)?.phase ?? undefined;

/** The organization's members: who an incident may be assigned to (the settings' own query). */
export function useOrgMembers(orgId: string) {
  return useQuery({ queryKey: keys.members(orgId), queryFn: () => fetchMembers(orgId) });
}
