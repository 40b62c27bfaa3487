import { keepPreviousData, useQueries, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useLocation, useSearch } from "wouter";
import type {
  DashboardVariable,
  PanelQueryRequest,
  PanelQueryResult,
  ParameterValue,
  RefreshInterval,
  TimeRangeSetting,
} from "../../../../src/contracts/dashboards";
import {
  parseRange,
  type RangeChoice,
  type RangeSpec,
  rangeParams,
  rememberRange,
  resolveRange,
  type TimeRange,
} from "../../lib/time-range";
import { useUrlParams } from "../../lib/url-state";
import { dashboardKeys, panelRequest, runPanelQuery } from "./dashboards-api";
import { refreshChoice, refreshDelay } from "./refresh-interval";
import {
  boundValue,
  optionsFromResult,
  optionsOf,
  readVariableParams,
  type Selections,
  selectionOf,
  withVariableParams,
} from "./variable-values";

// The view's state, kept in the URL so a link reproduces it: the time range (the dashboard's
// own unless the URL names one), the variables' choices (`var-<name>`) and auto refresh.

const floorToMinute = (ms: number) => Math.floor(ms / 60_000) * 60_000;

export const settingToSpec = (setting: TimeRangeSetting): RangeSpec =>
  typeof setting === "string"
    ? { kind: "relative", key: setting }
    : { kind: "absolute", from: setting.from, to: setting.to };

/**
 * The dashboard's time range: the URL's, else the dashboard's default (not the session's, as
 * other screens do: a dashboard opens on the window it was made for). Setting one writes the
 * URL and the session like the shared picker; a push first pins the default into the current
 * history entry, so Back returns to it.
 */
export function useDashboardRange(
  fallback: TimeRangeSetting,
): [TimeRange, (next: RangeChoice, options?: { push?: boolean }) => void] {
  const [params, set] = useUrlParams();
  const fallbackKey = JSON.stringify(fallback);
  const spec = parseRange(params) ?? settingToSpec(fallback);
  const specKey = JSON.stringify(spec);
  const minute = floorToMinute(Date.now());
  // biome-ignore lint/correctness/useExhaustiveDependencies: specKey stands for spec's value.
  const range = useMemo(() => resolveRange(spec, minute), [specKey, minute]);
  const setRange = useCallback(
    (next: RangeChoice, options?: { push?: boolean }) => {
      const chosen: RangeSpec =
        typeof next === "string"
          ? { kind: "relative", key: next }
          : { kind: "absolute", from: next.from, to: next.to };
      if (options?.push && !parseRange(new URLSearchParams(window.location.search)))
        set(rangeParams(settingToSpec(JSON.parse(fallbackKey) as TimeRangeSetting)));
      rememberRange(chosen);
      set(rangeParams(chosen), options);
    },
    [set, fallbackKey],
  );
  return [range, setRange];
}

/** One variable as the bar shows it. */
export interface VariableState {
  variable: DashboardVariable;
  options: string[];
  selection: string[];
  loading: boolean;
  error: unknown;
}

export interface DashboardVariables {
  states: VariableState[];
  /** The values the panel queries bind, by name. */
  bound: Record<string, ParameterValue>;
  /** The choices as the URL keeps them (links carry them). */
  selections: Selections;
  /** False until every query variable has its options (panels wait, not to ask twice). */
  ready: boolean;
  select: (name: string, values: string[]) => void;
}

/**
 * The variables' options and choices. A query variable's options come from its TQL through the
 * panel query endpoint, with the variables before it bound (so one may depend on another); while
 * a new answer is on its way, the last options stay.
 */
export function useDashboardVariables(
  projectId: string,
  variables: readonly DashboardVariable[],
  timeRange: TimeRangeSetting,
  refreshKey: number,
): DashboardVariables {
  const client = useQueryClient();
  const search = useSearch();
  const [, navigate] = useLocation();
  const fromUrl = useMemo(() => readVariableParams(new URLSearchParams(search)), [search]);
  const lastOptions = useRef(new Map<string, string[]>());

  const bound: Record<string, ParameterValue> = {};
  const selections: Selections = {};
  const requests: { name: string; request: PanelQueryRequest }[] = [];
  const resolved = variables.map((variable) => {
    let options = optionsOf(variable, undefined);
    if (variable.type === "query") {
      const request = panelRequest(variable.tql, bound, timeRange);
      requests.push({ name: variable.name, request });
      const data = client.getQueryData<PanelQueryResult>(
        dashboardKeys.panel(projectId, request, refreshKey),
      );
      if (data) lastOptions.current.set(variable.name, optionsFromResult(data));
      options = lastOptions.current.get(variable.name) ?? [];
    }
    const selection = selectionOf(variable, fromUrl[variable.name], options);
    bound[variable.name] = boundValue(variable, selection, options);
    selections[variable.name] = selection;
    return { variable, options, selection };
  });

  const answers = useQueries({
    queries: requests.map(({ request }) => ({
      queryKey: dashboardKeys.panel(projectId, request, refreshKey),
      queryFn: ({ signal }: { signal: AbortSignal }) => runPanelQuery(projectId, request, signal),
      placeholderData: keepPreviousData,
      retry: false,
      staleTime: 30_000,
    })),
  });
  const byName = new Map(requests.map(({ name }, i) => [name, answers[i]]));
  const states: VariableState[] = resolved.map((r) => {
    const answer = byName.get(r.variable.name);
    return { ...r, loading: answer?.isPending ?? false, error: answer?.error ?? null };
  });

  const select = useCallback(
    (name: string, values: string[]) => {
      const query = withVariableParams(window.location.search, {
        [name]: values.length > 0 ? values : [""],
      });
      navigate(`~${window.location.pathname}${query ? `?${query}` : ""}`, { replace: true });
    },
    [navigate],
  );
  return {
    states,
    bound,
    selections,
    ready: answers.every((a) => !a.isPending || a.isError),
    select,
  };
}

/** The auto refresh choice: the URL's (`refresh=`), else the dashboard's; and its setter. */
export function useRefreshChoice(
  dashboardDefault: RefreshInterval,
): [RefreshInterval, (next: RefreshInterval) => void] {
  const [params, set] = useUrlParams();
  const choice = refreshChoice(params.get("refresh"), dashboardDefault);
  const setChoice = useCallback(
    (next: RefreshInterval) => set({ refresh: next === dashboardDefault ? undefined : next }),
    [set, dashboardDefault],
  );
  return [choice, setChoice];
}

/**
 * A key that changes at every refresh: each `interval` while the tab is shown (paused while
 * hidden, at once on return when one came due), and on `refreshNow`.
 */
export function useAutoRefresh(interval: RefreshInterval): {
  refreshKey: number;
  refreshNow: () => void;
} {
  const [refreshKey, setKey] = useState(0);
  const lastAt = useRef(Date.now());
  const refreshNow = useCallback(() => {
    lastAt.current = Date.now();
    setKey((k) => k + 1);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each refresh schedules the next.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      if (document.visibilityState === "hidden") return;
      const delay = refreshDelay(interval, lastAt.current, Date.now());
      if (delay !== null) timer = setTimeout(refreshNow, delay);
    };
    schedule();
    document.addEventListener("visibilitychange", schedule);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", schedule);
    };
  }, [interval, refreshKey, refreshNow]);
  return { refreshKey, refreshNow };
}
