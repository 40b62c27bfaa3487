import { atLeast, definer } from "./define.js";
import type { FunctionDef } from "./function-def.js";

const fn = definer("tuple");

export const TUPLE_FUNCTIONS: readonly FunctionDef[] = [
  fn("tuple", atLeast(0), "Tuple of the arguments; (a, b) is the same"),
  fn(
    "tupleElement",
    [2, 3],
    "Element by 1-based index or name: (t, i[, default]); t.1 is the same",
  ),
  fn("untuple", 1, "Expands a tuple into one column per element"),
  fn("tupleNames", 1, "Array of the element names of a tuple"),
  fn("tupleConcat", atLeast(1), "Concatenates tuples"),
];
