import { logSearchTerms } from "../contracts/logs.js";
import { InvalidInputError } from "../lib/domain-errors.js";
import { containsPattern, type Sql } from "./sql.js";

const MAX_TERMS = 10;

/**
 * The terms of a search box: words, and "quoted phrases" kept whole. Every term must occur in
 * the text (AND), case-insensitively, anywhere (substring), as in HyperDX and Grafana's line filter.
 */
export function searchTerms(search: string, field = "search"): string[] {
  const terms = logSearchTerms(search);
  if (terms.length > MAX_TERMS)
    throw InvalidInputError.forField(field, `at most ${MAX_TERMS} terms`);
  return terms;
}

/**
 * Conditions matching every term in `column`. ASCII terms compare against `lower(column)`, the
 * expression the logs table's n-gram index covers, so the engine skips granules without them.
 */
export function searchConditions(sql: Sql, column: string, terms: readonly string[]): string[] {
  return terms.map((term) =>
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII range check
    /^[\x00-\x7f]*$/.test(term)
      ? `lower(${column}) LIKE ${sql.bind(containsPattern(term.toLowerCase()))}`
      : `positionCaseInsensitiveUTF8(${column}, ${sql.bind(term)}) > 0`,
  );
}
