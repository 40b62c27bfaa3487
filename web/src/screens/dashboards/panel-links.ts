import type { PanelLink, ParameterValue } from "../../../../src/contracts/dashboards.js";
import { projectPath } from "../../lib/project-path.js";
import { type RangeSpec, withRange } from "../../lib/time-range-model.js";
import {
  hrefWithVariables,
  type Selections,
  valueTexts,
  variablesUsedBy,
} from "./variable-values.js";

/*
 * Where a panel leads, as hrefs: the TQL screen with its query ("Explore"), a new alert rule
 * on it, and the panel's own links (traces, logs, another dashboard). Each carries the time
 * range, and the variables where the target reads them. Plain values, tested as they are.
 */

/** What every link from a dashboard carries. */
export interface LinkScope {
  projectId: string;
  /** The variables' choices, as the URL keeps them (`var-<name>`). */
  selections: Selections;
  /** The values the queries bind, for `${name}` in a link's parameters. */
  bound: Readonly<Record<string, ParameterValue>>;
  range: RangeSpec;
}

const text = (value: unknown): string => {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(text).join(",");
  return typeof value === "object" ? JSON.stringify(value) : String(value);
};

/**
 * `${name}` in `template` replaced by the row's column of that name, else the variable's
 * value (a list joined by commas), else nothing.
 */
export function fillTemplate(
  template: string,
  bound: Readonly<Record<string, ParameterValue>>,
  row?: Readonly<Record<string, unknown>>,
): string {
  return template.replace(/\$\{([A-Za-z_][A-Za-z0-9_.]*)\}/g, (_, name: string) =>
    text(row && name in row ? row[name] : bound[name]),
  );
}

/**
 * A link's `params` (`service=${service_name}&status=error`) as URL parameters, each value
 * filled in and encoded by URLSearchParams (so a value cannot add a parameter of its own).
 */
export function linkParams(
  params: string | undefined,
  bound: Readonly<Record<string, ParameterValue>>,
  row?: Readonly<Record<string, unknown>>,
): URLSearchParams {
  const out = new URLSearchParams();
  for (const pair of (params ?? "").split("&")) {
    if (!pair.trim()) continue;
    const at = pair.indexOf("=");
    const key = (at < 0 ? pair : pair.slice(0, at)).trim();
    if (!key) continue;
    out.append(key, at < 0 ? "" : fillTemplate(pair.slice(at + 1), bound, row));
  }
  return out;
}

const withQuery = (path: string, params: URLSearchParams) => {
  const query = params.toString();
  return query ? `${path}?${query}` : path;
};

/**
 * The values a query uses as `var-<name>` texts: what its placeholders are bound to (All as
 * the values it stands for, which the TQL screen and the alert form cannot look up).
 */
function usedSelections(scope: LinkScope, tql: string): Selections {
  const used: Selections = {};
  for (const [name, value] of Object.entries(variablesUsedBy(tql, scope.bound)))
    used[name] = valueTexts(value);
  return used;
}

/** The TQL screen with the query run, its variables' values and the range (`q=`, `var-*`). */
export function exploreHref(scope: LinkScope, tql: string): string {
  const href = withQuery(projectPath(scope.projectId, "tql"), new URLSearchParams({ q: tql }));
  return withRange(hrefWithVariables(href, usedSelections(scope, tql)), scope.range);
}

/**
 * A new alert rule on the query (`query=`, `name=`, `description=`, `var-*`): the alert form
 * makes it runnable on its own (its window and these values written in).
 */
export function alertHref(
  scope: LinkScope,
  tql: string,
  title: string,
  dashboardTitle?: string,
): string {
  const params = new URLSearchParams({ query: tql });
  if (title.trim()) params.set("name", title.trim().slice(0, 200));
  if (dashboardTitle)
    params.set(
      "description",
      `From the panel “${title.trim() || "untitled"}” of the dashboard “${dashboardTitle}”.`,
    );
  const href = withQuery(projectPath(scope.projectId, "alerts", "new"), params);
  return hrefWithVariables(href, usedSelections(scope, tql));
}

/**
 * A panel link's target. Traces: the list filtered by its parameters, or the trace itself when
 * they name a `trace_id`. Logs: the list filtered by them. Dashboard: the other dashboard with
 * this one's variables, which the link's parameters may override (`var-service=${service}`).
 */
export function panelLinkHref(
  scope: LinkScope,
  link: PanelLink,
  row?: Readonly<Record<string, unknown>>,
): string {
  const params = linkParams(link.params, scope.bound, row);
  if (link.kind === "dashboard") {
    const path = projectPath(scope.projectId, "dashboards", link.dashboardId ?? "");
    const carried = hrefWithVariables(path, scope.selections);
    const at = carried.indexOf("?");
    const merged = new URLSearchParams(at < 0 ? "" : carried.slice(at + 1));
    for (const key of new Set(params.keys())) {
      merged.delete(key);
      for (const value of params.getAll(key)) merged.append(key, value);
    }
    return withRange(withQuery(path, merged), scope.range);
  }
  if (link.kind === "traces") {
    const traceId = params.get("trace_id") ?? params.get("traceId");
    params.delete("trace_id");
    params.delete("traceId");
    const path = traceId
      ? projectPath(scope.projectId, "traces", traceId)
      : projectPath(scope.projectId, "traces");
    return withRange(withQuery(path, params), scope.range);
  }
  return withRange(withQuery(projectPath(scope.projectId, "logs"), params), scope.range);
}
