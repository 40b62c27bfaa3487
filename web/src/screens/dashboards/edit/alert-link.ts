import type { Panel, PanelQuery, ParameterValue } from "../../../../../src/contracts/dashboards.js";
import { projectPath } from "../../../lib/project-path.js";
import {
  findPlaceholders,
  parameterValue,
  readParamValues,
  scanParameters,
} from "../../tql/placeholders.js";

/*
 * "Create alert from panel": the alert rule form (`/alerts/new?query=…&name=…`) opened with a
 * panel's query made into one an alert can run on its own. An alert has no dashboard window
 * and no variables, so the window becomes the last few minutes and each variable its current
 * value, written as a literal in the text the user then reviews and saves (nothing runs here).
 */

/** How far back the alert's query looks where the panel's looked at the dashboard's window. */
export const ALERT_LOOKBACK = "INTERVAL 5 MINUTE";

/** A value as a ClickHouse literal: quoted and escaped text, numbers, booleans, arrays. */
export function sqlLiteral(value: ParameterValue): string {
  if (Array.isArray(value)) return `[${value.map((v) => sqlLiteral(v)).join(", ")}]`;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

/** The argument of a macro call starting at `from` (`(col)`), and where the call ends. */
function macroArgument(text: string, from: number): { arg: string; end: number } | null {
  let i = from;
  while (/\s/.test(text[i] ?? "")) i++;
  if (text[i] !== "(") return null;
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    if (text[j] === "(") depth++;
    else if (text[j] === ")" && --depth === 0)
      return { arg: text.slice(i + 1, j).trim(), end: j + 1 };
  }
  return null;
}

const WINDOW_LITERALS: Record<string, string> = {
  from: `(now() - ${ALERT_LOOKBACK})`,
  to: "now()",
  bucket_seconds: "60",
};

/**
 * A panel query as an alert can run it: `$__timeFilter(col)` → `col >= now() - INTERVAL 5
 * MINUTE`, `$__timeInterval(col)` → one-minute buckets, the window's placeholders → now and
 * five minutes back, each variable with a value → that value's literal. Placeholders without
 * a value stay, so the form's preview names them.
 */
export function alertQueryFrom(
  tql: string,
  variables: Readonly<Record<string, ParameterValue>> = {},
): string {
  let out = "";
  let at = 0;
  for (const token of scanParameters(tql)) {
    if (token.start < at) continue;
    out += tql.slice(at, token.start);
    at = token.end;
    if (token.kind === "macro") {
      const call = macroArgument(tql, token.end);
      if (!call) {
        out += tql.slice(token.start, token.end);
        continue;
      }
      at = call.end;
      out +=
        token.name === "timeFilter"
          ? `${call.arg} >= now() - ${ALERT_LOOKBACK}`
          : `toStartOfInterval(${call.arg}, INTERVAL 1 MINUTE)`;
      continue;
    }
    const value = variables[token.name];
    out +=
      WINDOW_LITERALS[token.name] ??
      (value === undefined ? tql.slice(token.start, token.end) : sqlLiteral(value));
  }
  return out + tql.slice(at);
}

/**
 * The query a link to the alert form carries (`query=`), made runnable: its placeholders take
 * the link's `var-<name>` values, typed by the placeholder (a dashboard's "All" left out).
 */
export function alertQueryFromParams(query: string, params: URLSearchParams): string {
  const typed = readParamValues(params);
  const values: Record<string, ParameterValue> = {};
  for (const p of findPlaceholders(query)) {
    const value = parameterValue(p.type, typed[p.name] ?? []);
    if (value !== undefined) values[p.name] = value;
  }
  return alertQueryFrom(query, values);
}

/** The URL parameters the alert form reads to start a new rule. */
export const ALERT_PREFILL = { query: "query", name: "name", description: "description" } as const;

/**
 * The alert form opened for a panel's query: the query made runnable on its own (see
 * alertQueryFrom, with the dashboard's current variable values), named after the panel.
 */
export function alertFromPanelHref(
  projectId: string,
  panel: Pick<Panel, "title">,
  query: PanelQuery | string,
  options: { variables?: Readonly<Record<string, ParameterValue>>; dashboardTitle?: string } = {},
): string {
  const tql = typeof query === "string" ? query : query.tql;
  const params = new URLSearchParams({
    [ALERT_PREFILL.query]: alertQueryFrom(tql, options.variables),
    [ALERT_PREFILL.name]: (panel.title.trim() || "Panel alert").slice(0, 200),
  });
  if (options.dashboardTitle)
    params.set(
      ALERT_PREFILL.description,
      `From the panel “${panel.title.trim() || "untitled"}” of the dashboard “${options.dashboardTitle}”.`,
    );
  return `${projectPath(projectId, "alerts", "new")}?${params.toString()}`;
}
