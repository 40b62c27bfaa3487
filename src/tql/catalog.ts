import { PROJECT_COLUMN, TELEMETRY_TABLES } from "../telemetry/tables.js";
import type { FunctionCategory } from "./functions/function-def.js";
import { COMBINATORS, FUNCTIONS } from "./functions.js";
import { argumentsCell, COMBINATOR_DOCS } from "./functions-doc.js";
import { reservedWords } from "./token-stream.js";

/** One column a TQL query can read. */
export interface CatalogColumn {
  name: string;
  type: string;
  description: string;
}

export interface CatalogTable {
  name: string;
  description: string;
  columns: CatalogColumn[];
}

export interface CatalogFunction {
  name: string;
  category: FunctionCategory;
  aggregate: boolean;
  /** How many arguments a call takes, as the docs write it: `2`, `(0–1)(1)`, `1+`. */
  arguments: string;
  minArgs: number;
  /** null when variadic. */
  maxArgs: number | null;
  /** Parametric aggregates: bounds of the parameter list (max null when unbounded). */
  params: { min: number; max: number | null } | null;
  lambda: boolean;
  caseInsensitive: boolean;
  description: string;
}

export interface CatalogCombinator {
  suffix: string;
  extraArgs: number;
  example: string;
  description: string;
}

/** Everything a TQL query may name: the editor's completions and highlighting come from it. */
export interface TqlCatalog {
  tables: CatalogTable[];
  functions: CatalogFunction[];
  combinators: CatalogCombinator[];
  keywords: string[];
}

const finite = (n: number): number | null => (Number.isFinite(n) ? n : null);

/**
 * The catalog, built from the definitions the analyzer and the generated docs use (the tables
 * without the hidden project column, the function allow-list, the combinators and the
 * reserved words), so completions cannot drift from what a query may use.
 */
export function buildTqlCatalog(): TqlCatalog {
  return {
    tables: TELEMETRY_TABLES.map((table) => ({
      name: table.name,
      description: table.description,
      columns: table.columns
        .filter((column) => column.name !== PROJECT_COLUMN)
        .map(({ name, type, description }) => ({ name, type, description })),
    })),
    functions: FUNCTIONS.map((def) => ({
      name: def.name,
      category: def.category,
      aggregate: def.aggregate,
      arguments: argumentsCell(def),
      minArgs: def.minArgs,
      maxArgs: finite(def.maxArgs),
      params: def.params ? { min: def.params.min, max: finite(def.params.max) } : null,
      lambda: def.lambda === true,
      caseInsensitive: def.caseInsensitive === true,
      description: def.description,
    })),
    combinators: COMBINATORS.map(({ suffix, extraArgs }) => ({
      suffix,
      extraArgs,
      example: COMBINATOR_DOCS[suffix]?.example ?? "",
      description: COMBINATOR_DOCS[suffix]?.meaning ?? "",
    })),
    keywords: reservedWords(),
  };
}
