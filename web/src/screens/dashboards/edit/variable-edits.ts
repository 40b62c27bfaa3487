import {
  DASHBOARD_MAX_VARIABLES,
  type DashboardVariable,
  type Panel,
  RESERVED_VARIABLE_NAMES,
  VariableName,
} from "../../../../../src/contracts/dashboards.js";
import { scanParameters } from "../../tql/placeholders.js";

/*
 * The variable editor's changes as a reducer over the dashboard's list: add, change, retype,
 * rename, remove, reorder. No React, so it is tested as it is.
 */

export type VariableKind = DashboardVariable["type"];

export type VariableEdit =
  | { kind: "add"; type?: VariableKind }
  | { kind: "change"; index: number; change: VariableChange }
  | { kind: "retype"; index: number; type: VariableKind }
  | { kind: "remove"; index: number }
  | { kind: "move"; index: number; to: number };

/** What one edit may change: the common fields and the kind's own (tql, values). */
export type VariableChange = Partial<{
  name: string;
  label: string;
  multi: boolean;
  includeAll: boolean;
  default: string | string[] | undefined;
  tql: string;
  values: string[];
}>;

/** The query a new query variable starts with: the services that sent spans in the window. */
export const STARTER_VARIABLE_TQL =
  "SELECT DISTINCT service_name FROM traces WHERE $__timeFilter(timestamp) ORDER BY service_name";

const freeName = (taken: ReadonlySet<string>): string => {
  for (let n = 1; ; n++) if (!taken.has(`var${n}`)) return `var${n}`;
};

/** A variable of `type` keeping the common fields of `from` (name, label, multi, all, default). */
export function retyped(from: DashboardVariable, type: VariableKind): DashboardVariable {
  const common = {
    name: from.name,
    multi: from.multi,
    includeAll: from.includeAll,
    ...(from.label !== undefined ? { label: from.label } : {}),
    ...(from.default !== undefined ? { default: from.default } : {}),
  };
  if (type === "query")
    return { ...common, type, tql: from.type === "query" ? from.tql : STARTER_VARIABLE_TQL };
  if (type === "custom")
    return { ...common, type, values: from.type === "custom" ? from.values : [] };
  // A text box binds what is typed: one value, no "All".
  const { default: chosen } = common;
  return {
    ...common,
    type,
    multi: false,
    includeAll: false,
    ...(Array.isArray(chosen) ? { default: chosen[0] ?? "" } : {}),
  };
}

/** One variable with a change applied; a single-select keeps one default. */
function changed(variable: DashboardVariable, change: VariableChange): DashboardVariable {
  const next = { ...variable } as DashboardVariable & VariableChange;
  for (const [key, value] of Object.entries(change) as [keyof VariableChange, unknown][]) {
    if (value === undefined || (key === "label" && value === "")) delete next[key];
    else if (key === "tql" && variable.type !== "query") continue;
    else if (key === "values" && variable.type !== "custom") continue;
    else Object.assign(next, { [key]: value });
  }
  if (!next.multi && Array.isArray(next.default)) {
    const first = next.default[0];
    if (first === undefined) delete next.default;
    else next.default = first;
  }
  if (next.type === "text") {
    next.multi = false;
    next.includeAll = false;
  }
  return next;
}

export function editVariables(
  list: readonly DashboardVariable[],
  edit: VariableEdit,
): DashboardVariable[] {
  const at = (index: number) => index >= 0 && index < list.length;
  switch (edit.kind) {
    case "add": {
      if (list.length >= DASHBOARD_MAX_VARIABLES) return [...list];
      const name = freeName(new Set(list.map((v) => v.name)));
      const base: DashboardVariable = { type: "text", name, multi: false, includeAll: false };
      return [...list, retyped(base, edit.type ?? "query")];
    }
    case "change":
      return list.map((v, i) => (i === edit.index ? changed(v, edit.change) : v));
    case "retype":
      return list.map((v, i) => (i === edit.index ? retyped(v, edit.type) : v));
    case "remove":
      return list.filter((_, i) => i !== edit.index);
    case "move": {
      if (!at(edit.index) || !at(edit.to)) return [...list];
      const next = [...list];
      const [moved] = next.splice(edit.index, 1);
      if (moved) next.splice(edit.to, 0, moved);
      return next;
    }
  }
}

/**
 * What is wrong with a variable before it is sent (the server checks again): its name (the
 * contract's rule, once in the list), an empty query, an empty custom list. Null when fine.
 */
export function variableProblem(
  list: readonly DashboardVariable[],
  index: number,
): { field: "name" | "tql" | "values"; message: string } | null {
  const variable = list[index];
  if (!variable) return null;
  if (RESERVED_VARIABLE_NAMES.includes(variable.name))
    return { field: "name", message: `${variable.name} is reserved for the time window` };
  const name = VariableName.safeParse(variable.name);
  if (!name.success)
    return { field: "name", message: name.error.issues[0]?.message ?? "is not a valid name" };
  if (list.findIndex((v) => v.name === variable.name) !== index)
    return { field: "name", message: "another variable has this name" };
  if (variable.type === "query" && !variable.tql.trim())
    return { field: "tql", message: "the query must not be empty" };
  if (variable.type === "custom" && variable.values.length === 0)
    return { field: "values", message: "add at least one value" };
  return null;
}

/** A custom list as typed: comma-separated, trimmed, empties and repeats dropped. */
export function parseValueList(text: string): string[] {
  return [...new Set(text.split(",").map((v) => v.trim()))].filter((v) => v !== "");
}

/** The variables' names before the editor changed them, by place (null for a new one). */
export type VariableOrigins = (string | null)[];

/** The origins after an edit, following the list's places (added, removed, moved). */
export function editOrigins(
  origins: VariableOrigins,
  edit: VariableEdit,
  size: number,
): VariableOrigins {
  switch (edit.kind) {
    case "add":
      return size >= DASHBOARD_MAX_VARIABLES ? [...origins] : [...origins, null];
    case "remove":
      return origins.filter((_, i) => i !== edit.index);
    case "move": {
      if (edit.index >= origins.length || edit.to >= origins.length || edit.to < 0)
        return [...origins];
      const next = [...origins];
      const [moved] = next.splice(edit.index, 1);
      next.splice(edit.to, 0, moved ?? null);
      return next;
    }
    default:
      return [...origins];
  }
}

/** `{from:Type}` placeholders in a query renamed `{to:Type}` (strings and comments untouched). */
export function renamePlaceholders(text: string, renames: ReadonlyMap<string, string>): string {
  let out = "";
  let at = 0;
  for (const token of scanParameters(text)) {
    const to = token.kind === "placeholder" ? renames.get(token.name) : undefined;
    if (to === undefined) continue;
    out += `${text.slice(at, token.start)}{${to}:${token.kind === "placeholder" ? token.type : ""}}`;
    at = token.end;
  }
  return out + text.slice(at);
}

/**
 * The renames the editor made (old name → new), for the queries to follow. A name given up by
 * one variable and taken by another is not a rename of it.
 */
export function variableRenames(
  origins: VariableOrigins,
  list: readonly DashboardVariable[],
): Map<string, string> {
  const renames = new Map<string, string>();
  const kept = new Set(list.map((v) => v.name));
  origins.forEach((origin, i) => {
    const name = list[i]?.name;
    if (origin && name && origin !== name && !kept.has(origin)) renames.set(origin, name);
  });
  return renames;
}

/** Panels and variables with their queries following renamed variables. */
export function followRenames<T extends { panels: Panel[]; variables: DashboardVariable[] }>(
  doc: T,
  renames: ReadonlyMap<string, string>,
): T {
  if (renames.size === 0) return doc;
  return {
    ...doc,
    panels: doc.panels.map((p) => ({
      ...p,
      queries: p.queries.map((q) => ({ ...q, tql: renamePlaceholders(q.tql, renames) })),
    })),
    variables: doc.variables.map((v) =>
      v.type === "query" ? { ...v, tql: renamePlaceholders(v.tql, renames) } : v,
    ),
  };
}
