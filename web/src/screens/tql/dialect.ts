import { SQLDialect } from "@codemirror/lang-sql";
import { CAST_TYPE_NAMES } from "../../../../src/contracts/tql-dialect";
import type { TqlCatalog } from "./tql-api";

/**
 * ClickHouse words TQL reads beyond the server's reserved ones: clause words, literals and the
 * modifiers of ORDER BY and JOIN. The reserved words come from the schema endpoint.
 */
const CLAUSE_WORDS =
  "select distinct from where prewhere group by having order limit offset with as and or not " +
  "in is null like ilike between case when then else end join inner left right full cross outer " +
  "array using on union all any asc desc nulls first last interval exists cast true false semi " +
  "anti asof except fill step totals rollup cube ties";

/**
 * Units of `INTERVAL n UNIT` (the parser's own list): offered as completions but not
 * highlighted as keywords, since `minute` or `day` is as often a column alias.
 */
export { INTERVAL_UNITS } from "../../../../src/contracts/tql-dialect";

/** ClickHouse type names, for CAST and `::`: the ones the analyzer accepts. */
export const CLICKHOUSE_TYPES = CAST_TYPE_NAMES;

/** The keywords the editor highlights and completes: the clause words and the server's reserved words. */
export function tqlKeywords(catalog: TqlCatalog | undefined): string[] {
  const words = new Set(CLAUSE_WORDS.split(" ").map((w) => w.toUpperCase()));
  for (const word of catalog?.keywords ?? []) words.add(word.toUpperCase());
  return [...words].sort();
}

/**
 * A ClickHouse-flavoured SQL dialect: backslash escapes in strings, backticks and double quotes
 * for identifiers, `--` and block comments, and the allowed functions as builtins (highlighted
 * apart from column names). Without the catalog yet, the functions are simply not highlighted.
 */
export function clickhouseDialect(catalog: TqlCatalog | undefined): SQLDialect {
  const keywords = tqlKeywords(catalog).map((word) => word.toLowerCase());
  const reserved = new Set(keywords);
  // `and`, `or`, `not`, `like`, `in`, `any` are functions too: highlighted as the keywords they are.
  const builtin = (catalog?.functions ?? [])
    .map((f) => f.name.toLowerCase())
    .filter((name) => !reserved.has(name));
  return SQLDialect.define({
    keywords: keywords.join(" "),
    types: CLICKHOUSE_TYPES.join(" ").toLowerCase(),
    builtin: builtin.join(" "),
    backslashEscapes: true,
    identifierQuotes: '`"',
    doubleQuotedStrings: false,
    hashComments: false,
    slashComments: false,
    unquotedBitLiterals: true,
    operatorChars: "*+-%<>!=|/:?",
  });
}
