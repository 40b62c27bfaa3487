import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AlertEventView,
  AlertPresetView,
  AlertPreviewView,
  AlertRuleView,
  CreateAlertRuleInput,
  MuteAlertRuleInput,
} from "../../../../src/contracts/alerts";
import { api, type ListPage, projectApi } from "../../api/client";

// The alert rule API's views and inputs are the server's own (src/contracts/alerts.ts).

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

/** A preset as the editor reads it: the contract's view, its params JSON Schema made precise. */
export type AlertPreset = Omit<AlertPresetView, "params"> & {
  params: { properties: Record<string, ParamSchema>; required?: string[] };
};

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
      api<ListPage<AlertRuleView>>(rulesPath(projectId), { query: { limit: 1000 }, signal }),
    refetchInterval: 30_000,
  });
}

export function useRule(projectId: string, ruleId: string) {
  return useQuery({
    queryKey: alertKeys.one(projectId, ruleId),
    queryFn: ({ signal }) => api<AlertRuleView>(rulesPath(projectId, ruleId), { signal }),
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
      api<ListPage<AlertEventView>>(rulesPath(projectId, ruleId, "events"), {
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
    mutationFn: (input: CreateAlertRuleInput) =>
      ruleId
        ? api<AlertRuleView>(rulesPath(projectId, ruleId), { method: "PATCH", body: input })
        : api<AlertRuleView>(rulesPath(projectId), { method: "POST", body: input }),
    onSuccess: async (rule) => {
      client.setQueryData(alertKeys.one(projectId, rule.id), rule);
      await client.invalidateQueries({ queryKey: alertKeys.all(projectId), exact: true });
    },
  });
}

/** Evaluates a draft now without saving anything (`POST …/alert-rules/preview`). */
export function usePreview(projectId: string) {
  return useMutation({
    mutationFn: (input: CreateAlertRuleInput) =>
      api<AlertPreviewView>(rulesPath(projectId, "preview"), { method: "POST", body: input }),
  });
}

export function useRuleAction(
  projectId: string,
  ruleId: string,
  action: "mute" | "unmute" | "delete",
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body?: MuteAlertRuleInput): Promise<AlertRuleView | undefined> => {
      if (action !== "delete")
        return api<AlertRuleView>(rulesPath(projectId, ruleId, action), {
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
