import { atLeast, definer, LAMBDA } from "./define.js";
import type { FunctionDef } from "./function-def.js";

const fn = definer("map");

export const MAP_FUNCTIONS: readonly FunctionDef[] = [
  fn("map", atLeast(0), "Map from alternating keys and values: map(k1, v1, k2, v2)"),
  fn("mapFromArrays", 2, "Map from an array of keys and an array of values"),
  fn("mapKeys", 1, "Array of the keys"),
  fn("mapValues", 1, "Array of the values"),
  fn("mapContains", 2, "Same as mapContainsKey"),
  fn("mapContainsKey", 2, "Whether the map has a key"),
  fn("mapContainsValue", 2, "Whether the map has a value"),
  fn("mapContainsKeyLike", 2, "Whether some key matches a LIKE pattern"),
  fn("mapContainsValueLike", 2, "Whether some value matches a LIKE pattern"),
  fn("mapExtractKeyLike", 2, "The entries whose key matches a LIKE pattern"),
  fn("mapExtractValueLike", 2, "The entries whose value matches a LIKE pattern"),
  fn("mapFilter", atLeast(2), "Entries for which the lambda (k, v) -> ... is true", LAMBDA),
  fn("mapApply", atLeast(2), "Applies a lambda (k, v) -> (k2, v2) to each entry", LAMBDA),
  fn("mapExists", atLeast(2), "Whether some entry satisfies the lambda", LAMBDA),
  fn("mapAll", atLeast(2), "Whether every entry satisfies the lambda", LAMBDA),
  fn("mapSort", atLeast(1), "Entries sorted by key, or by a lambda's value", LAMBDA),
  fn("mapReverseSort", atLeast(1), "Entries sorted descending", LAMBDA),
  fn("mapConcat", atLeast(1), "Merges maps; later maps win on equal keys"),
  fn("mapUpdate", 2, "The first map with the entries of the second put in"),
  fn("mapAdd", atLeast(2), "Adds the values of equal keys across maps"),
  fn("mapSubtract", atLeast(2), "Subtracts the values of equal keys"),
  fn("mapPopulateSeries", [1, 3], "Fills missing integer keys up to a maximum with default values"),
  fn(
    "extractKeyValuePairs",
    [1, 5],
    "Parses 'k=v' style text into a Map: (s[, kv_sep[, pair_seps[, quote]]])",
  ),
  fn(
    "extractKeyValuePairsWithEscaping",
    [1, 5],
    "extractKeyValuePairs honouring backslash escapes",
  ),
];
