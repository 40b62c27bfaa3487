import {
  keepPreviousData,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type {
  CreateDashboardInput,
  DashboardExport,
  DashboardSummary,
  DashboardTemplateView,
  DashboardView,
  DuplicateDashboardInput,
  InstallTemplateInput,
  Panel,
  PanelQueryRequest,
  PanelQueryResult,
  ParameterValue,
  StarDashboardInput,
  TimeRangeSetting,
  UpdateDashboardInput,
} from "../../../../src/contracts/dashboards";
import { ApiError, api, type ListPage, projectApi, v1 } from "../../api/client";
import type { RangeSpec } from "../../lib/time-range";
import { variablesUsedBy } from "./variable-values";

export { variablesUsedBy };

// The dashboards API (docs/design.md §4 "Dashboards"), typed by src/contracts/dashboards.ts.
// Screens (list, view), the editor (edit/) and the panels (panels/) all go through here.

const dashboardsPath = (projectId: string, ...rest: string[]) =>
  projectApi(projectId, ["/dashboards", ...rest.map(encodeURIComponent)].join("/"));
const templatesPath = (projectId: string, ...rest: string[]) =>
  projectApi(projectId, ["/dashboard-templates", ...rest.map(encodeURIComponent)].join("/"));

export const dashboardKeys = {
  all: (projectId: string) => ["dashboards", projectId] as const,
  list: (projectId: string, q: string) => ["dashboards", projectId, "list", q] as const,
  one: (projectId: string, id: string) => ["dashboards", projectId, "one", id] as const,
  templates: (projectId: string) => ["dashboard-templates", projectId] as const,
  panel: (projectId: string, request: PanelQueryRequest, refreshKey: number | string) =>
    ["dashboard-panel-query", projectId, request, refreshKey] as const,
};

/** What a stale save (409) shows; the UI offers "Reload" and "Overwrite". */
export const CONFLICT_MESSAGE =
  "This dashboard was changed by someone else since you opened it — reload it or overwrite.";

/** Whether an error is a save made on a stale version. */
export const isConflict = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 409;

/**
 * The project's dashboards, starred first then by title; `q` (words each found in the title or
 * a tag) filters on the server.
 */
export function useDashboards(projectId: string, q = "") {
  return useQuery({
    queryKey: dashboardKeys.list(projectId, q.trim()),
    queryFn: ({ signal }) =>
      api<ListPage<DashboardSummary>>(dashboardsPath(projectId), {
        query: { limit: 1000, q: q.trim() || undefined },
        signal,
      }),
    select: (page) => page.data,
    placeholderData: keepPreviousData,
  });
}

export function getDashboard(projectId: string, id: string, signal?: AbortSignal) {
  return api<DashboardView>(dashboardsPath(projectId, id), signal ? { signal } : {});
}

export function useDashboard(projectId: string, id: string) {
  return useQuery({
    queryKey: dashboardKeys.one(projectId, id),
    queryFn: ({ signal }) => getDashboard(projectId, id, signal),
  });
}

/** Keeps the one dashboard's cache in step with what the server answered, lists refetched. */
function useSettle(projectId: string) {
  const client = useQueryClient();
  return (view?: DashboardView) => {
    if (view) client.setQueryData(dashboardKeys.one(projectId, view.id), view);
    return client.invalidateQueries({ queryKey: dashboardKeys.all(projectId) });
  };
}

export function useCreateDashboard(projectId: string) {
  const settle = useSettle(projectId);
  return useMutation({
    mutationFn: (input: CreateDashboardInput) =>
      api<DashboardView>(dashboardsPath(projectId), { method: "POST", body: input }),
    onSuccess: (view) => settle(view),
  });
}

/**
 * A save at `input.version`; a stale one fails with a 409 (`isConflict`). `overwrite` saves
 * over whatever is there now: it reads the current version first, then saves on it.
 */
export function saveDashboard(
  projectId: string,
  id: string,
  input: UpdateDashboardInput,
  overwrite = false,
): Promise<DashboardView> {
  const patch = (body: UpdateDashboardInput) =>
    api<DashboardView>(dashboardsPath(projectId, id), { method: "PATCH", body });
  if (!overwrite) return patch(input);
  return getDashboard(projectId, id).then((current) =>
    patch({ ...input, version: current.version }),
  );
}

export function useSaveDashboard(projectId: string) {
  const settle = useSettle(projectId);
  return useMutation({
    mutationFn: (args: { id: string; input: UpdateDashboardInput; overwrite?: boolean }) =>
      saveDashboard(projectId, args.id, args.input, args.overwrite),
    onSuccess: (view) => settle(view),
  });
}

export function useDeleteDashboard(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(dashboardsPath(projectId, id), { method: "DELETE" }),
    onSuccess: (_, id) => {
      client.removeQueries({ queryKey: dashboardKeys.one(projectId, id) });
      return client.invalidateQueries({ queryKey: dashboardKeys.all(projectId) });
    },
  });
}

export function useDuplicateDashboard(projectId: string) {
  const settle = useSettle(projectId);
  return useMutation({
    mutationFn: ({ id, title }: { id: string } & DuplicateDashboardInput) =>
      api<DashboardView>(dashboardsPath(projectId, id, "duplicate"), {
        method: "POST",
        body: title ? { title } : {},
      }),
    onSuccess: (view) => settle(view),
  });
}

/** Stars for the signed-in user; the lists and the dashboard show it at once. */
export function useStarDashboard(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, starred }: { id: string } & StarDashboardInput) =>
      api<unknown>(dashboardsPath(projectId, id, "star"), { method: "PUT", body: { starred } }),
    onMutate: ({ id, starred }) => {
      client.setQueryData<DashboardView>(dashboardKeys.one(projectId, id), (old) =>
        old ? { ...old, starred } : old,
      );
      client.setQueriesData<ListPage<DashboardSummary>>(
        { queryKey: [...dashboardKeys.all(projectId), "list"] },
        (old) =>
          old ? { ...old, data: old.data.map((d) => (d.id === id ? { ...d, starred } : d)) } : old,
      );
    },
    onSettled: () => client.invalidateQueries({ queryKey: dashboardKeys.all(projectId) }),
  });
}

export function exportDashboard(projectId: string, id: string): Promise<DashboardExport> {
  return api<DashboardExport>(dashboardsPath(projectId, id, "export"));
}

/** A file name from a title: `checkout-latency.dashboard.json`. */
export function exportFileName(title: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `${slug || "dashboard"}.dashboard.json`;
}

/** Saves a value as a JSON file through the browser's download. */
export function downloadJson(fileName: string, value: unknown): void {
  const blob = new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Reads the dashboard's export and downloads it. */
export async function downloadDashboard(projectId: string, id: string): Promise<void> {
  const file = await exportDashboard(projectId, id);
  downloadJson(exportFileName(file.title), file);
}

/**
 * Imports an exported file (its text, as pasted or read from a file). Text that is not JSON is
 * refused here as the server would, as an ApiError naming no field.
 */
export function useImportDashboard(projectId: string) {
  const settle = useSettle(projectId);
  return useMutation({
    mutationFn: (text: string) => {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (error) {
        throw new ApiError({
          status: 400,
          detail: `The file is not JSON: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
      return api<DashboardView>(dashboardsPath(projectId, "import"), { method: "POST", body });
    },
    onSuccess: (view) => settle(view),
  });
}

export function useDashboardTemplates(projectId: string) {
  return useQuery({
    queryKey: dashboardKeys.templates(projectId),
    queryFn: ({ signal }) => api<DashboardTemplateView[]>(templatesPath(projectId), { signal }),
    staleTime: 60_000,
  });
}

export function useInstallTemplate(projectId: string) {
  const settle = useSettle(projectId);
  return useMutation({
    mutationFn: ({ templateId, title }: { templateId: string } & InstallTemplateInput) =>
      api<DashboardView>(templatesPath(projectId, templateId, "install"), {
        method: "POST",
        body: title ? { title } : {},
      }),
    onSuccess: (view) => settle(view),
  });
}

/** Runs one panel query (or a query variable's TQL) with the variables and the window. */
export function runPanelQuery(
  projectId: string,
  request: PanelQueryRequest,
  signal?: AbortSignal,
): Promise<PanelQueryResult> {
  return api<PanelQueryResult>(v1(projectId, "/dashboards/query"), {
    method: "POST",
    body: request,
    ...(signal ? { signal } : {}),
  });
}

/** The screen's range (time-range.ts) as the contract's: a relative key or absolute from/to. */
export function toTimeRangeSetting(spec: RangeSpec): TimeRangeSetting {
  return spec.kind === "relative" ? spec.key : { from: spec.from, to: spec.to };
}

/** The request one panel query makes: stable for equal inputs, so equal panels share it. */
export function panelRequest(
  tql: string,
  variables: Readonly<Record<string, ParameterValue>>,
  timeRange: TimeRangeSetting,
  maxDataPoints = 300,
): PanelQueryRequest {
  return { tql, variables: variablesUsedBy(tql, variables), timeRange, maxDataPoints };
}

export interface PanelResults {
  /** One per query, in the panel's order; undefined while that query has no answer yet. */
  results: (PanelQueryResult | undefined)[];
  /** The first query's error, if any failed. */
  error: unknown;
  loading: boolean;
  fetching: boolean;
}

/**
 * A panel's queries, in parallel. Each is keyed by (project, request, refreshKey): panels asking
 * the same share one request; leaving the screen or changing the window aborts what is running;
 * a new `refreshKey` (auto refresh, the refresh button) asks again. Text panels ask nothing.
 */
export function usePanelResults(
  projectId: string,
  panel: Pick<Panel, "type" | "queries">,
  variables: Readonly<Record<string, ParameterValue>>,
  timeRange: TimeRangeSetting,
  refreshKey: number | string = 0,
  options: { maxDataPoints?: number; enabled?: boolean } = {},
): PanelResults {
  const queries = panel.type === "text" ? [] : panel.queries;
  const answers = useQueries({
    queries: queries.map((query) => {
      const request = panelRequest(query.tql, variables, timeRange, options.maxDataPoints);
      return {
        queryKey: dashboardKeys.panel(projectId, request, refreshKey),
        queryFn: ({ signal }: { signal: AbortSignal }) => runPanelQuery(projectId, request, signal),
        enabled: options.enabled ?? true,
        placeholderData: keepPreviousData,
        retry: false,
        staleTime: 10_000,
      };
    }),
  });
  return {
    results: answers.map((a) => a.data),
    error: answers.find((a) => a.error)?.error ?? null,
    loading: answers.some((a) => a.isPending && a.fetchStatus !== "idle"),
    fetching: answers.some((a) => a.isFetching),
  };
}
