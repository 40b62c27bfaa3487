import {
  EXPLORE_SOURCES,
  type ExploreSource,
  FILTER_OPS,
  type Filter,
  type FilterOp,
} from "../../../../src/contracts/explore-filters.js";
import {
  BUILDER_FUNCTIONS,
  type BuilderAggregation,
  type BuilderFunction,
  type BuilderIssue,
  BuilderQuery,
  DEFAULT_BUILDER_LIMIT,
  emptyBuilderQuery,
} from "../../../../src/contracts/query-builder.js";
import {
  BuilderQueryError,
  type BuilderTarget,
  builderToTql,
} from "../../../../src/contracts/query-builder-tql.js";
import { filterValueFromText, takesList, valueText } from "../filters/filter-model.js";

/*
 * The query builder's state as the browser keeps it: a BuilderQuery that may be half-written
 * (an empty field, a list being typed), its JSON in the URL (`?builder=`), the text a filter's
 * value input shows, and the TQL or the issues of the state as it stands. No React, so it is
 * tested as it is.
 */

/** The URL parameter holding the builder's state. */
export const BUILDER_PARAM = "builder";

/** The state as the URL's `builder=` text. */
export const builderParam = (query: BuilderQuery): string => JSON.stringify(query);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === "string" ? value : "");
const oneOf = <T extends string>(list: readonly T[], value: unknown): T | undefined =>
  list.find((item) => item === value);

function filterFrom(value: unknown): Filter | null {
  if (!isRecord(value)) return null;
  const op = oneOf(FILTER_OPS, value.op);
  if (!op) return null;
  const v = value.value;
  const kept =
    typeof v === "string" || typeof v === "number"
      ? v
      : Array.isArray(v)
        ? v.filter((x): x is string => typeof x === "string")
        : undefined;
  return { field: text(value.field), op, ...(kept === undefined ? {} : { value: kept }) };
}

function aggregationFrom(value: unknown): BuilderAggregation | null {
  if (!isRecord(value)) return null;
  const fn = oneOf(BUILDER_FUNCTIONS, value.fn);
  if (!fn) return null;
  return typeof value.field === "string" ? { fn, field: value.field } : { fn };
}

const present = <T>(item: T | null): item is T => item !== null;

/**
 * A state from the URL's `builder=` text, kept as far as it goes: a half-written one (an empty
 * field) comes back as it was, so a shared link opens where it was left; parts that are not
 * the builder's at all are dropped. Null when the text is no builder state.
 */
export function readBuilderParam(raw: string | null): BuilderQuery | null {
  if (!raw) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(json)) return null;
  const source = oneOf(EXPLORE_SOURCES, json.source);
  if (!source) return null;
  const list = (value: unknown) => (Array.isArray(value) ? value : []);
  const aggregations = list(json.aggregations).map(aggregationFrom).filter(present);
  const by = isRecord(json.orderBy) ? json.orderBy.by : undefined;
  const number = (value: unknown, fallback: number) =>
    typeof value === "number" && Number.isFinite(value) ? value : fallback;
  const bucket = json.bucket;
  return {
    source,
    filters: list(json.filters).map(filterFrom).filter(present),
    aggregations: aggregations.length > 0 ? aggregations : [{ fn: "count" }],
    groupBy: list(json.groupBy).map(text),
    ...(typeof by === "number" || typeof by === "string"
      ? {
          orderBy: {
            by,
            dir: isRecord(json.orderBy) && json.orderBy.dir === "asc" ? "asc" : "desc",
          },
        }
      : {}),
    limit: number(json.limit, DEFAULT_BUILDER_LIMIT),
    bucket: bucket === "none" || typeof bucket === "number" ? bucket : "auto",
    ...(typeof json.window === "number" ? { window: json.window } : {}),
  };
}

/** What the state compiles to now: the TQL, or the issues (each at its path) that stop it. */
export type Compiled = { ok: true; tql: string } | { ok: false; issues: BuilderIssue[] };

/** The state's part at a path (`["filters", 0, "field"]`). */
function at(state: unknown, path: readonly (string | number)[]): unknown {
  let here = state;
  for (const key of path) {
    if (Array.isArray(here) && typeof key === "number") here = here[key];
    else if (isRecord(here) && typeof key === "string") here = here[key];
    else return undefined;
  }
  return here;
}

export function compileBuilder(state: BuilderQuery, target: BuilderTarget): Compiled {
  const parsed = BuilderQuery.safeParse(state);
  if (!parsed.success) {
    const issues = new Map<string, BuilderIssue>();
    for (const issue of parsed.error.issues) {
      const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
      // A row just added: what it lacks, not the schema's wording; one message per place.
      const message = at(state, path) === "" ? "Choose a field" : issue.message;
      if (!issues.has(path.join("."))) issues.set(path.join("."), { path, message });
    }
    return { ok: false, issues: [...issues.values()] };
  }
  try {
    return { ok: true, tql: builderToTql(parsed.data, { target }) };
  } catch (error) {
    if (error instanceof BuilderQueryError) return { ok: false, issues: error.issues };
    throw error;
  }
}

/** The message for one path (`filters.0.field`), if any. */
export const issueAt = (issues: readonly BuilderIssue[], path: string): string | undefined =>
  issues.find((issue) => issue.path.join(".") === path)?.message;

/**
 * What a value input's text means for an operator (filter-model's reading), kept while it is
 * half-written: text that is not a number stays text, so the check names it at its path; an
 * empty list stays an empty list.
 */
export function valueFor(op: FilterOp, typed: string): Filter["value"] {
  const read = filterValueFromText(op, typed);
  if (read.ok) return read.value;
  return takesList(op) ? [] : typed;
}

/** A filter moved to another operator, its value carried over as far as it fits. */
export const withOp = (filter: Filter, op: FilterOp): Filter => {
  const value = valueFor(op, valueText(filter.value));
  return { field: filter.field, op, ...(value === undefined ? {} : { value }) };
};

/** An aggregation moved to another function: the field kept where the function takes one. */
export function withFunction(aggregation: BuilderAggregation, fn: BuilderFunction) {
  if (fn === "count") return { fn };
  return aggregation.field === undefined ? { fn } : { fn, field: aggregation.field };
}

/** A short name of an aggregation for the order list: `count`, `p95(duration_ms)`. */
export const aggregationLabel = ({ fn, field }: BuilderAggregation): string =>
  field ? `${fn}(${field})` : fn;

/** The state after a switch of source: the same choices, checked against the new source. */
export const withSource = (state: BuilderQuery, source: ExploreSource): BuilderQuery => ({
  ...state,
  source,
});

/** The state to start from: the URL's, or a count over the first source offered. */
export const initialBuilder = (
  raw: string | null,
  sources: readonly ExploreSource[] = EXPLORE_SOURCES,
): BuilderQuery => readBuilderParam(raw) ?? emptyBuilderQuery(sources[0] ?? "traces");

/** The state without an order that names what is no longer there (a removed row). */
export function keepOrder(state: BuilderQuery): BuilderQuery {
  const by = state.orderBy?.by;
  const gone =
    (typeof by === "number" && by >= state.aggregations.length) ||
    (typeof by === "string" && !state.groupBy.includes(by));
  if (!gone) return state;
  const { orderBy: _, ...rest } = state;
  return rest;
}
