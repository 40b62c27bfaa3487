import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AlertEventKind,
  AlertInterval,
  AlertRuleState,
  AlertSeverity,
  AlertUnit,
  AlertWarningCode,
  ConditionOp,
  NoDataMode,
  SeriesState,
} from "../../../../src/alerts/catalog";
import { api, type ListPage, projectApi } from "../../api/client";

export interface PresetRef {
  kind: string;
  params: Record<string, unknown>;
}

/** `GET /api/projects/:id/alert-rules/:ruleId` (src/alerts/views.ts `AlertRuleView`). */
export interface AlertRule {
  id: string;
  projectId: string;
  name: string;
  description: string;
  severity: AlertSeverity;
  query: string;
  preset: PresetRef | null;
  condition: { op: ConditionOp; threshold: number };
  /** The unit of the value and threshold (percent, ms, count); null for TQL or a metric. */
  unit: AlertUnit | null;
  interval: AlertInterval;
  forSeconds: number;
  noData: NoDataMode;
  renotifyMinutes: number;
  openIncident: boolean;
  messageTemplate: string;
  channelIds: string[];
  /** Saved, but worth a look: no channel (it notifies no one). */
  warnings: { code: AlertWarningCode; message: string }[];
  status: "active" | "muted" | "resolved";
  state: AlertRuleState;
  /** While its evaluations fail: since when, how many in a row, why, and when it runs next. */
  failing: {
    since: string;
    failures: number;
    reason: string;
    nextEvaluationAt: string | null;
  } | null;
  muted: boolean;
  mutedUntil: string | null;
  firingSeries: number;
  lastEvaluation: {
    at: string;
    durationMs: number | null;
    value: number | null;
    series: number | null;
    error: string | null;
  } | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What a create, a full edit (PATCH) or a draft preview sends. */
export type AlertRuleInput = Pick<
  AlertRule,
  | "name"
  | "description"
  | "severity"
  | "condition"
  | "interval"
  | "forSeconds"
  | "noData"
  | "renotifyMinutes"
  | "openIncident"
  | "messageTemplate"
  | "channelIds"
> & { query?: string; preset?: PresetRef };

export interface AlertPreview {
  evaluatedAt: string;
  durationMs: number;
  query: string;
  labels: string[];
  noData: boolean;
  series: {
    seriesKey: string;
    labels: Record<string, string>;
    value: number | null;
    breaching: boolean | "no_data_keep";
    state: SeriesState;
    nextState: SeriesState;
    transition: "none" | "pending" | "fired" | "resolved" | "cancelled";
    message: string;
  }[];
}

export interface AlertEvent {
  id: string;
  ruleId: string;
  kind: AlertEventKind;
  seriesKey: string;
  labels: Record<string, string>;
  value: number | null;
  threshold: number;
  at: string;
  notified: boolean;
  incidentId: string | null;
  message: string | null;
}

/** A JSON Schema property as the presets endpoint describes parameters. */
export interface ParamSchema {
  type?: string;
  enum?: string[];
  const?: string;
  anyOf?: ParamSchema[];
  default?: unknown;
  description?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minimum?: number;
  maximum?: number;
}

/** A preset's unit and bounds: the threshold is taken in it and must be reachable. */
export interface PresetUnit {
  name: AlertUnit;
  symbol: string;
  min?: number;
  max?: number;
  integer?: boolean;
}

export interface AlertPreset {
  kind: string;
  title: string;
  description: string;
  unit: PresetUnit | null;
  params: { properties: Record<string, ParamSchema>; required?: string[] };
}

const rulesPath = (projectId: string, ...rest: string[]) =>
  projectApi(projectId, ["/alert-rules", ...rest.map(encodeURIComponent)].join("/"));

export const alertKeys = {
  all: (projectId: string) => ["alert-rules", projectId] as const,
  one: (projectId: string, id: string) => ["alert-rules", projectId, id] as const,
  events: (projectId: string, id: string) => ["alert-rules", projectId, id, "events"] as const,
};

export function useRules(projectId: string) {
  return useQuery({
    queryKey: alertKeys.all(projectId),
    queryFn: ({ signal }) =>
      api<ListPage<AlertRule>>(rulesPath(projectId), { query: { limit: 1000 }, signal }),
    refetchInterval: 30_000,
  });
}

export function useRule(projectId: string, ruleId: string) {
  return useQuery({
    queryKey: alertKeys.one(projectId, ruleId),
    queryFn: ({ signal }) => api<AlertRule>(rulesPath(projectId, ruleId), { signal }),
    refetchInterval: 30_000,
  });
}

export function usePresets(projectId: string) {
  return useQuery({
    queryKey: ["alert-presets", projectId],
    queryFn: ({ signal }) =>
      api<ListPage<AlertPreset>>(rulesPath(projectId, "presets"), { signal }),
    select: (page) => page.data,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useRuleEvents(
  projectId: string,
  ruleId: string,
  query: { kind?: string | undefined; page: number },
) {
  return useQuery({
    queryKey: [...alertKeys.events(projectId, ruleId), query],
    queryFn: ({ signal }) =>
      api<ListPage<AlertEvent>>(rulesPath(projectId, ruleId, "events"), {
        query: { ...query, limit: 50 },
        signal,
      }),
    placeholderData: (previous) => previous,
    refetchInterval: 30_000,
  });
}

export function useSaveRule(projectId: string, ruleId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AlertRuleInput) =>
      ruleId
        ? api<AlertRule>(rulesPath(projectId, ruleId), { method: "PATCH", body: input })
        : api<AlertRule>(rulesPath(projectId), { method: "POST", body: input }),
    onSuccess: async (rule) => {
      client.setQueryData(alertKeys.one(projectId, rule.id), rule);
      await client.invalidateQueries({ queryKey: alertKeys.all(projectId), exact: true });
    },
  });
}

/** Evaluates a draft now without saving anything (`POST …/alert-rules/preview`). */
export function usePreview(projectId: string) {
  return useMutation({
    mutationFn: (input: AlertRuleInput) =>
      api<AlertPreview>(rulesPath(projectId, "preview"), { method: "POST", body: input }),
  });
}

export function useRuleAction(
  projectId: string,
  ruleId: string,
  action: "mute" | "unmute" | "delete",
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body?: { until?: string }): Promise<AlertRule | undefined> => {
      if (action !== "delete")
        return api<AlertRule>(rulesPath(projectId, ruleId, action), {
          method: "POST",
          body: body ?? {},
        });
      await api<void>(rulesPath(projectId, ruleId), { method: "DELETE" });
      return undefined;
    },
    onSuccess: async (rule) => {
      // After a delete the caller leaves the page; the list forgets the rule.
      if (rule) client.setQueryData(alertKeys.one(projectId, ruleId), rule);
      await client.invalidateQueries({ queryKey: alertKeys.all(projectId), exact: true });
    },
  });
}
