import type { TqlCatalog } from "../contracts/tql.js";
import { PROJECT_COLUMN, TELEMETRY_TABLES } from "../telemetry/tables.js";
import { COMBINATORS, FUNCTIONS } from "./functions.js";
import { argumentsCell, COMBINATOR_DOCS } from "./functions-doc.js";
import { reservedWords } from "./token-stream.js";

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
