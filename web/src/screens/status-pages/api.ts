import { useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AlertRuleView } from "../../../../src/contracts/alerts";
import type { MonitorView } from "../../../../src/contracts/monitors";
import type { StatusPageSummary } from "../../../../src/contracts/status-page-data";
// The shapes of /api/orgs/:orgId/status-pages… and of /v1/status-pages are the server's
// contracts (src/contracts/status-pages.ts, status-page-data.ts).
import type {
  CreateComponentInput,
  CreateMaintenanceInput,
  CreateStatusPageInput,
  StatusPageComponentView,
  StatusPageConfigView,
  StatusPageView,
} from "../../../../src/contracts/status-pages";
import { api, type ListPage, orgApi, projectApi, v1 } from "../../api/client";
import { useProjects } from "../../api/session";

/** A page's fields as the forms edit them: every field of the create input, defaults filled. */
export type PageFieldsInput = Required<CreateStatusPageInput>;

/** A component as its form edits it: the create input with its defaults filled, position aside. */
export type ComponentInput = Omit<Required<CreateComponentInput>, "position"> &
  Pick<CreateComponentInput, "position">;

/** A window as its form edits it: the create input with its message filled. */
export type MaintenanceInput = Required<CreateMaintenanceInput>;

// Every key of the area starts with ["status-pages", orgId], so a change can refresh them all.
export const orgPagesKey = (orgId: string) => ["status-pages", orgId] as const;
export const pagesKey = (orgId: string) => ["status-pages", orgId, "list"] as const;
export const pageKey = (orgId: string, pageId: string) =>
  ["status-pages", orgId, "page", pageId] as const;
const summariesKey = (orgId: string, projectId: string) =>
  ["status-pages", orgId, "summaries", projectId] as const;
const componentsKey = (orgId: string) => ["status-pages", orgId, "components"] as const;

/**
 * After a write under the organization's pages: the list, the counts and the component pickers
 * are read again; of the pages' configurations only `pageId`'s (the others did not change).
 */
export async function refreshPages(
  client: ReturnType<typeof useQueryClient>,
  orgId: string,
  pageId?: string,
): Promise<void> {
  await client.invalidateQueries({
    queryKey: orgPagesKey(orgId),
    predicate: (q) => q.queryKey[2] !== "page" || q.queryKey[3] === pageId,
  });
}

/** The public page's path (relative: same origin as the dashboard). */
export const publicPath = (slug: string) => `/status/${encodeURIComponent(slug)}`;

export function useStatusPages(orgId: string) {
  return useQuery({
    queryKey: pagesKey(orgId),
    queryFn: () =>
      api<ListPage<StatusPageView>>(orgApi(orgId, "/status-pages"), { query: { limit: 1000 } }),
  });
}

/** Counts and public URLs of the organization's pages, through the project's /v1 read verb. */
export function useStatusPageSummaries(orgId: string, projectId: string) {
  return useQuery({
    queryKey: summariesKey(orgId, projectId),
    queryFn: () =>
      api<ListPage<StatusPageSummary>>(v1(projectId, "/status-pages"), {
        query: { limit: 1000 },
      }),
    select: (page) => new Map(page.data.map((s) => [s.id, s])),
  });
}

export function useStatusPage(orgId: string, pageId: string) {
  return useQuery({
    queryKey: pageKey(orgId, pageId),
    queryFn: () => api<StatusPageConfigView>(orgApi(orgId, `/status-pages/${pageId}`)),
  });
}

/**
 * A write under one page: on success the page's configuration is read again (its dataVersion
 * moves, which reloads the preview) and the list too (state, title).
 */
export function usePageWrite<I, O = unknown>(
  orgId: string,
  pageId: string,
  write: (base: string, input: I) => Promise<O>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => write(orgApi(orgId, `/status-pages/${pageId}`), input),
    onSuccess: () => refreshPages(client, orgId, pageId),
  });
}

/** Every component of every page of the organization, with its page, for pickers. */
export type OrgComponent = Pick<StatusPageComponentView, "id" | "name" | "pageId" | "status"> & {
  pageTitle: string;
};

export function useOrgComponents(orgId: string, enabled = true) {
  return useQuery({
    queryKey: componentsKey(orgId),
    enabled,
    queryFn: async (): Promise<OrgComponent[]> => {
      const pages = await api<ListPage<StatusPageView>>(orgApi(orgId, "/status-pages"), {
        query: { limit: 1000 },
      });
      const configs = await Promise.all(
        pages.data.map((p) => api<StatusPageConfigView>(orgApi(orgId, `/status-pages/${p.id}`))),
      );
      return configs.flatMap((config) =>
        config.components.map((c) => ({
          id: c.id,
          name: c.name,
          pageId: config.page.id,
          pageTitle: config.page.title,
          status: c.status,
        })),
      );
    },
  });
}

/** A monitor or alert rule of one of the organization's projects, as a component source. */
export interface SourceOption {
  id: string;
  name: string;
  projectId: string;
  projectName: string;
  state: string;
}

type MonitorLike = Pick<MonitorView, "id" | "name" | "health" | "status">;
type RuleLike = Pick<AlertRuleView, "id" | "name" | "state" | "status">;

/** The monitors and alert rules of every project of the organization. */
export function useOrgSources(orgId: string) {
  const projects = useProjects();
  const orgProjects = (projects.data ?? []).filter((p) => p.orgId === orgId);
  const results = useQueries({
    queries: orgProjects.flatMap((p) => [
      {
        queryKey: ["status-page-sources", p.id, "monitors"],
        queryFn: () =>
          api<ListPage<MonitorLike>>(projectApi(p.id, "/monitors"), { query: { limit: 1000 } }),
      },
      {
        queryKey: ["status-page-sources", p.id, "alert-rules"],
        queryFn: () =>
          api<ListPage<RuleLike>>(projectApi(p.id, "/alert-rules"), { query: { limit: 1000 } }),
      },
    ]),
  });
  const monitors: SourceOption[] = [];
  const rules: SourceOption[] = [];
  orgProjects.forEach((p, i) => {
    const m = results[i * 2]?.data as ListPage<MonitorLike> | undefined;
    const r = results[i * 2 + 1]?.data as ListPage<RuleLike> | undefined;
    for (const x of m?.data ?? [])
      monitors.push({
        id: x.id,
        name: x.name,
        projectId: p.id,
        projectName: p.name,
        state: x.status === "paused" ? "paused" : x.health,
      });
    for (const x of r?.data ?? [])
      rules.push({
        id: x.id,
        name: x.name,
        projectId: p.id,
        projectName: p.name,
        state: x.status === "muted" ? "muted" : x.state,
      });
  });
  return {
    monitors,
    rules,
    isPending: projects.isPending || results.some((r) => r.isPending),
    error: projects.error ?? results.find((r) => r.error)?.error ?? null,
  };
}
