import { closestName } from "../contracts/name-suggestion.js";

/** Output columns of a FROM source, by name; `open` when some names are not known in advance. */
export interface Source {
  readonly name: string;
  readonly columns: ReadonlySet<string>;
  readonly open: boolean;
}

/**
 * Names visible at one level of a query. A SELECT has two levels: its WITH clause (CTEs and
 * `expr AS name`), which a UNION shares with its other branches, and its body (FROM sources,
 * aliases, lambda parameters) below it.
 */
export interface Scope {
  readonly parent: Scope | undefined;
  /** Query CTEs (usable in FROM) and their output columns. */
  readonly ctes: Map<string, Source>;
  /** `WITH expr AS name` aliases, visible here and in nested queries. */
  readonly withAliases: Set<string>;
  readonly sources: Source[];
  /** SELECT and ARRAY JOIN aliases; ClickHouse lets every clause of the query use them. */
  readonly aliases: Set<string>;
  /** Lambda parameters, innermost last. */
  readonly lambdas: string[][];
}

export function emptyScope(parent: Scope | undefined): Scope {
  return {
    parent,
    ctes: new Map(),
    withAliases: new Set(),
    sources: [],
    aliases: new Set(),
    lambdas: [],
  };
}

/** A scope and every scope enclosing it, innermost first. */
export function* chain(scope: Scope): Generator<Scope> {
  for (let s: Scope | undefined = scope; s; s = s.parent) yield s;
}

/** The query CTE a FROM names, here or in an enclosing query. */
export function findCte(name: string, scope: Scope): Source | undefined {
  for (const s of chain(scope)) {
    const cte = s.ctes.get(name);
    if (cte) return cte;
  }
  return undefined;
}

export function cteNames(scope: Scope): string[] {
  return [...chain(scope)].flatMap((s) => [...s.ctes.keys()]);
}

/** The FROM source a qualifier names, here or in an enclosing query (correlated subqueries). */
export function findSource(name: string, scope: Scope): Source | undefined {
  for (const s of chain(scope)) {
    const source = s.sources.find((candidate) => candidate.name === name);
    if (source) return source;
  }
  return undefined;
}

/** Whether an unqualified name resolves here or in an enclosing query. */
export function isVisible(name: string, scope: Scope): boolean {
  return [...chain(scope)].some(
    (s) =>
      s.lambdas.some((params) => params.includes(name)) ||
      s.aliases.has(name) ||
      s.withAliases.has(name) ||
      s.sources.some((source) => source.open || source.columns.has(name)),
  );
}

/** Every name an expression here could use: the candidates of a "did you mean". */
export function visibleNames(scope: Scope): Set<string> {
  const names = new Set<string>();
  for (const s of chain(scope)) {
    for (const name of [...s.aliases, ...s.withAliases, ...s.lambdas.flat()]) names.add(name);
    for (const source of s.sources) for (const column of source.columns) names.add(column);
  }
  return names;
}

/** "Unknown column 'x'. Did you mean 'y'?" */
export function unknownName(
  what: "table" | "column",
  name: string,
  candidates: Iterable<string>,
  listed?: Iterable<string>,
  bareName = name,
): string {
  const hint = closestName(bareName, candidates);
  const suffix = hint
    ? `. Did you mean '${hint}'?`
    : listed
      ? `. Available: ${[...listed].join(", ")}`
      : "";
  return `Unknown ${what} '${name}'${suffix}`;
}
