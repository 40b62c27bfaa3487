import { atLeast, CI, definer } from "./define.js";
import type { FunctionDef } from "./function-def.js";

const fn = definer("conditional");

export const CONDITIONAL_FUNCTIONS: readonly FunctionDef[] = [
  fn("if", 3, "then if the condition is true, else otherwise: (cond, then, else)", CI),
  fn("multiIf", atLeast(3), "First matching branch: (cond1, then1, cond2, then2, ..., else)"),
  fn("ifNull", 2, "The value, or the fallback when it is NULL", CI),
  fn("nullIf", 2, "NULL when the two arguments are equal, else the first", CI),
  fn("coalesce", atLeast(0), "First non-NULL argument", CI),
  fn("assumeNotNull", 1, "A Nullable value as its non-Nullable type (default value for NULL)"),
  fn("isNull", 1, "Whether the value is NULL", CI),
  fn("isNotNull", 1, "Whether the value is not NULL"),
  fn("isZeroOrNull", 1, "Whether the value is 0 or NULL"),
  fn("toNullable", 1, "The value as a Nullable type"),
  fn("and", atLeast(2), "Logical AND"),
  fn("or", atLeast(2), "Logical OR"),
  fn("not", 1, "Logical NOT", CI),
  fn("xor", atLeast(2), "Logical exclusive OR"),
  fn("equals", 2, "a = b"),
  fn("notEquals", 2, "a != b"),
  fn("less", 2, "a < b"),
  fn("greater", 2, "a > b"),
  fn("lessOrEquals", 2, "a <= b"),
  fn("greaterOrEquals", 2, "a >= b"),
  fn("isDistinctFrom", 2, "a IS DISTINCT FROM b: inequality where NULL equals NULL"),
  fn("isNotDistinctFrom", 2, "a IS NOT DISTINCT FROM b: equality where NULL equals NULL"),
];
