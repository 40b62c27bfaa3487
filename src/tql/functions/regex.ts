import { definer } from "./define.js";
import type { FunctionDef } from "./function-def.js";

const fn = definer("regex");

export const REGEX_FUNCTIONS: readonly FunctionDef[] = [
  fn("match", 2, "Whether the string matches a regular expression (re2 syntax)"),
  fn("extract", 2, "First match of a regex, or of its first capture group"),
  fn("extractAll", 2, "Array of all matches (or first capture groups) of a regex"),
  fn("extractGroups", 2, "Array of the capture groups of the first match"),
  fn("extractAllGroupsHorizontal", 2, "For each capture group, the array of its matches"),
  fn("extractAllGroupsVertical", 2, "For each match, the array of its capture groups"),
  fn("regexpExtract", [2, 3], "The given capture group of the first match: (s, regex[, group])"),
  fn("replaceRegexpAll", 3, "Replaces every regex match; \\1 in the replacement is group 1"),
  fn("replaceRegexpOne", 3, "Replaces the first regex match"),
  fn("regexpQuoteMeta", 1, "Escapes regex metacharacters"),
  fn("like", [2, 3], "SQL LIKE with % and _ wildcards (s LIKE pattern)"),
  fn("notLike", [2, 3], "NOT LIKE"),
  fn("ilike", [2, 3], "Case-insensitive LIKE"),
  fn("notILike", [2, 3], "NOT ILIKE"),
  fn("splitByRegexp", [2, 3], "Splits on a regex: (regex, s[, max_parts])"),
  fn("countMatches", 2, "Number of regex matches"),
  fn("countMatchesCaseInsensitive", 2, "countMatches ignoring case"),
  fn("multiSearchAny", 2, "Whether any of an array of substrings occurs"),
  fn("multiSearchAnyCaseInsensitive", 2, "multiSearchAny ignoring ASCII case"),
  fn("multiSearchFirstIndex", 2, "1-based index of the first substring found, 0 if none"),
  fn("multiSearchFirstPosition", 2, "Leftmost position of any of the substrings, 0 if none"),
  fn("multiSearchAllPositions", 2, "Array of the position of each substring"),
  fn("multiMatchAny", 2, "Whether any of an array of regexes matches"),
  fn("multiMatchAnyIndex", 2, "Index of some regex that matches, 0 if none"),
  fn("multiMatchAllIndices", 2, "Array of the indexes of all regexes that match"),
  fn("ngramSearch", 2, "Fuzzy containment score of a needle by 4-grams, 0 to 1"),
  fn("ngramDistance", 2, "4-gram distance between two strings, 0 (same) to 1"),
];
