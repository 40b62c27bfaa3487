import {
  type Completion,
  type CompletionContext,
  type CompletionResult,
  type CompletionSource,
  pickedCompletion,
} from "@codemirror/autocomplete";
import { syntaxTree } from "@codemirror/language";
import type { EditorView } from "@codemirror/view";
import { CLICKHOUSE_TYPES, INTERVAL_UNITS, tqlKeywords } from "./dialect";
import type { CatalogColumn, CatalogFunction, TqlCatalog } from "./tql-api";

/** Where nothing is completed: inside strings, comments and quoted names. */
const QUIET_NODES = new Set(["String", "LineComment", "BlockComment", "QuotedIdentifier"]);
const WORD = /^[\w$]*$/;

/** The tables a query reads, and the aliases it gives them (`FROM traces t`, `JOIN logs AS l`). */
export interface QueryScope {
  tables: string[];
  /** Alias or table name (lower case) → table. */
  names: Map<string, string>;
}

/** Finds the TQL tables after FROM and JOIN in the text, with their aliases. */
export function queryScope(
  text: string,
  tableNames: ReadonlySet<string>,
  reserved: ReadonlySet<string>,
): QueryScope {
  const scope: QueryScope = { tables: [], names: new Map() };
  const pattern =
    /\b(?:FROM|JOIN)\s+[`"]?([A-Za-z_][\w]*)[`"]?(?:\s+(?:AS\s+)?([A-Za-z_][\w]*))?/gi;
  for (const match of text.matchAll(pattern)) {
    const table = match[1] ?? "";
    if (!tableNames.has(table)) continue;
    if (!scope.tables.includes(table)) scope.tables.push(table);
    scope.names.set(table.toLowerCase(), table);
    const alias = match[2];
    if (alias && !reserved.has(alias.toUpperCase())) scope.names.set(alias.toLowerCase(), table);
  }
  return scope;
}

/** Inserts `name()` with the cursor between the parentheses (or after `name` before a `(`). */
function applyCall(name: string) {
  return (view: EditorView, completion: Completion, from: number, to: number) => {
    const next = view.state.sliceDoc(to, to + 1);
    const insert = next === "(" ? name : `${name}()`;
    view.dispatch({
      changes: { from, to, insert },
      selection: { anchor: from + name.length + 1 },
      annotations: pickedCompletion.of(completion),
      userEvent: "input.complete",
    });
  };
}

function functionOption(def: CatalogFunction): Completion {
  const args = def.params ? def.arguments : `(${def.arguments})`;
  return {
    label: def.name,
    type: "function",
    detail: args,
    info: `${def.description} (${def.aggregate ? "aggregate" : def.category})`,
    apply: applyCall(def.name),
  };
}

/** `countIf`, `sumIf`, …: the If combinator of each aggregate, the one people reach for most. */
function ifCombinations(catalog: TqlCatalog): Completion[] {
  const names = new Set(catalog.functions.map((f) => f.name));
  const combinator = catalog.combinators.find((c) => c.suffix === "If");
  if (!combinator) return [];
  return catalog.functions
    .filter((f) => f.aggregate && !f.params && !names.has(`${f.name}If`))
    .map((f) => {
      const min = f.minArgs + combinator.extraArgs;
      const max = f.maxArgs === null ? null : f.maxArgs + combinator.extraArgs;
      return {
        label: `${f.name}If`,
        type: "function",
        detail: `(${min}${max === null ? "+" : max === min ? "" : `–${max}`})`,
        info: `${f.description}, over the rows where the last argument is true (aggregate)`,
        apply: applyCall(`${f.name}If`),
        boost: -1,
      };
    });
}

function columnOption(column: CatalogColumn, tables: string[], boost: number): Completion {
  return {
    label: column.name,
    type: "property",
    detail: tables.length > 0 ? `${column.type} · ${tables.join(", ")}` : column.type,
    info: column.description.replaceAll("`", ""),
    boost,
  };
}

/**
 * Completions from the server's schema: tables after FROM and JOIN; after `t.` the columns of
 * the table or alias `t`; elsewhere the columns of the tables the query reads (all tables' when
 * it reads none yet), the functions (with `…If` combinations) and the keywords.
 */
export function tqlCompletionSource(catalog: TqlCatalog): CompletionSource {
  const byName = new Map(catalog.tables.map((t) => [t.name, t]));
  const tableNames = new Set(byName.keys());
  const keywords = tqlKeywords(catalog);
  const reserved = new Set(keywords);
  const tables: Completion[] = catalog.tables.map((t) => ({
    label: t.name,
    type: "class",
    detail: "table",
    info: t.description.replaceAll("`", ""),
    boost: 2,
  }));
  const functions = [...catalog.functions.map(functionOption), ...ifCombinations(catalog)];
  const words: Completion[] = [
    ...keywords.map((label) => ({ label, type: "keyword", boost: -2 })),
    ...INTERVAL_UNITS.map((label) => ({
      label,
      type: "keyword",
      detail: "interval unit",
      boost: -3,
    })),
    ...CLICKHOUSE_TYPES.map((label) => ({ label, type: "type", boost: -3 })),
  ];
  // Every column once, naming the tables that have it, for queries that read no table yet.
  const everyColumn = new Map<string, { column: CatalogColumn; tables: string[] }>();
  for (const table of catalog.tables)
    for (const column of table.columns) {
      const seen = everyColumn.get(column.name);
      if (seen) seen.tables.push(table.name);
      else everyColumn.set(column.name, { column, tables: [table.name] });
    }
  const allColumns = [...everyColumn.values()].map(({ column, tables }) =>
    columnOption(column, tables, 0),
  );

  const columnsOf = (names: string[]): Completion[] => {
    if (names.length === 1)
      return byName.get(names[0] ?? "")?.columns.map((c) => columnOption(c, [], 3)) ?? [];
    const merged = new Map<string, { column: CatalogColumn; tables: string[] }>();
    for (const name of names)
      for (const column of byName.get(name)?.columns ?? []) {
        const seen = merged.get(column.name);
        if (seen) seen.tables.push(name);
        else merged.set(column.name, { column, tables: [name] });
      }
    return [...merged.values()].map(({ column, tables }) => columnOption(column, tables, 3));
  };

  return (context: CompletionContext): CompletionResult | null => {
    const node = syntaxTree(context.state).resolveInner(context.pos, -1);
    if (QUIET_NODES.has(node.name)) return null;
    const text = context.state.doc.toString();
    const scope = queryScope(text, tableNames, reserved);

    const qualified = context.matchBefore(/[A-Za-z_][\w$]*\.[\w$]*$/);
    if (qualified) {
      const qualifier = qualified.text.slice(0, qualified.text.indexOf("."));
      const table =
        scope.names.get(qualifier.toLowerCase()) ??
        (tableNames.has(qualifier) ? qualifier : undefined);
      if (!table) return null;
      return {
        from: qualified.from + qualifier.length + 1,
        options: columnsOf([table]),
        validFor: WORD,
      };
    }

    const word = context.matchBefore(/[\w$]+/);
    if (!word && !context.explicit) return null;
    const from = word?.from ?? context.pos;
    const previous = /([A-Za-z_]+)\s+$/.exec(text.slice(Math.max(0, from - 40), from))?.[1];
    if (previous && /^(FROM|JOIN)$/i.test(previous))
      return { from, options: tables, validFor: WORD };
    const columns = scope.tables.length > 0 ? columnsOf(scope.tables) : allColumns;
    return {
      from,
      options: [...columns, ...functions, ...(scope.tables.length > 0 ? [] : tables), ...words],
      validFor: WORD,
    };
  };
}
