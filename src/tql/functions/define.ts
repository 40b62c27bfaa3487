import type { FunctionCategory, FunctionDef } from "./function-def.js";

/** An argument count: exactly n, or [min, max] with max possibly VARIADIC. */
export type Arity = number | readonly [min: number, max: number];

export const VARIADIC = Number.POSITIVE_INFINITY;

/** n or more arguments. */
export function atLeast(min: number): Arity {
  return [min, VARIADIC];
}

export interface DefineOptions {
  /** Parameter list bounds of a parametric aggregate, e.g. [0, 1] for quantile(level)(x). */
  readonly params?: Arity;
  /** The first argument may be a lambda. */
  readonly lambda?: boolean;
  /** ClickHouse accepts the name in any letter case. */
  readonly ci?: boolean;
}

/** Option shorthands. */
export const CI: DefineOptions = { ci: true };
export const LAMBDA: DefineOptions = { lambda: true };

function bounds(arity: Arity): { min: number; max: number } {
  return typeof arity === "number" ? { min: arity, max: arity } : { min: arity[0], max: arity[1] };
}

/** A constructor for the entries of one category: `fn(name, arity, description, options?)`. */
export function definer(category: FunctionCategory, aggregate = false) {
  return (
    name: string,
    arity: Arity,
    description: string,
    options: DefineOptions = {},
  ): FunctionDef => {
    const { min, max } = bounds(arity);
    return {
      name,
      category,
      aggregate,
      minArgs: min,
      maxArgs: max,
      ...(options.params === undefined ? {} : { params: bounds(options.params) }),
      ...(options.lambda ? { lambda: true } : {}),
      ...(options.ci ? { caseInsensitive: true } : {}),
      description,
    };
  };
}
