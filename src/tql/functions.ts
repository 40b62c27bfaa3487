import { AGGREGATE_FUNCTIONS } from "./functions/aggregate.js";
import { ARRAY_FUNCTIONS } from "./functions/array.js";
import { CONDITIONAL_FUNCTIONS } from "./functions/conditional.js";
import { CONVERSION_FUNCTIONS } from "./functions/conversion.js";
import { DATE_FUNCTIONS } from "./functions/date.js";
import type { FunctionDef } from "./functions/function-def.js";
import { HASH_FUNCTIONS } from "./functions/hash.js";
import { IP_FUNCTIONS } from "./functions/ip.js";
import { JSON_FUNCTIONS } from "./functions/json.js";
import { MAP_FUNCTIONS } from "./functions/map.js";
import { MATH_FUNCTIONS } from "./functions/math.js";
import { OTHER_FUNCTIONS } from "./functions/other.js";
import { REGEX_FUNCTIONS } from "./functions/regex.js";
import { STRING_FUNCTIONS } from "./functions/string.js";
import { TUPLE_FUNCTIONS } from "./functions/tuple.js";
import { URL_FUNCTIONS } from "./functions/url.js";

/** The allow-list of functions a TQL query may call, in documentation order. */
export const FUNCTIONS: readonly FunctionDef[] = [
  ...AGGREGATE_FUNCTIONS,
  ...DATE_FUNCTIONS,
  ...STRING_FUNCTIONS,
  ...REGEX_FUNCTIONS,
  ...ARRAY_FUNCTIONS,
  ...MAP_FUNCTIONS,
  ...JSON_FUNCTIONS,
  ...MATH_FUNCTIONS,
  ...CONDITIONAL_FUNCTIONS,
  ...CONVERSION_FUNCTIONS,
  ...TUPLE_FUNCTIONS,
  ...HASH_FUNCTIONS,
  ...URL_FUNCTIONS,
  ...IP_FUNCTIONS,
  ...OTHER_FUNCTIONS,
];

/** The result of resolving a called name, combinators included. */
export interface ResolvedFunction {
  /** Name to print (canonical base name + combinator suffixes as the user wrote them, canonical case). */
  readonly name: string;
  readonly def: FunctionDef;
  readonly aggregate: boolean;
  readonly minArgs: number;
  readonly maxArgs: number;
  readonly params?: { readonly min: number; readonly max: number };
  /** Combinator suffixes applied, outermost last, e.g. ["If"] for countIf. */
  readonly combinators: readonly string[];
}

/**
 * Aggregate combinators TQL accepts, by suffix, with the arguments each adds. The others
 * (-State, -Merge, -Resample, -Map, ...) produce or read internal aggregation states.
 * Suffixes are matched in this exact case, as ClickHouse does (countIf, not COUNTIF).
 */
export const COMBINATORS: readonly { readonly suffix: string; readonly extraArgs: number }[] = [
  { suffix: "If", extraArgs: 1 },
  { suffix: "Array", extraArgs: 0 },
  { suffix: "ForEach", extraArgs: 0 },
  { suffix: "Distinct", extraArgs: 0 },
  { suffix: "OrNull", extraArgs: 0 },
  { suffix: "OrDefault", extraArgs: 0 },
];

const BY_NAME = new Map(FUNCTIONS.map((def) => [def.name, def]));
const BY_FOLDED_NAME = new Map(
  FUNCTIONS.filter((def) => def.caseInsensitive).map((def) => [def.name.toLowerCase(), def]),
);
const NAMES: readonly string[] = FUNCTIONS.map((def) => def.name);

function lookup(name: string): FunctionDef | undefined {
  return BY_NAME.get(name) ?? BY_FOLDED_NAME.get(name.toLowerCase());
}

/**
 * Resolves a name: exact match first, then case-insensitive for caseInsensitive entries, then
 * aggregate + combinator suffixes (If: one extra trailing condition argument; Array, ForEach,
 * Distinct, OrNull, OrDefault: same arity). Suffixes may stack (sumArrayIf, avgOrNullIf).
 * Combinators apply only to aggregates. Returns undefined when not allowed.
 */
export function resolveFunction(name: string): ResolvedFunction | undefined {
  const def = lookup(name);
  if (def) {
    return {
      name: def.name,
      def,
      aggregate: def.aggregate,
      minArgs: def.minArgs,
      maxArgs: def.maxArgs,
      ...(def.params ? { params: def.params } : {}),
      combinators: [],
    };
  }
  // At most one suffix can match the end of a name, so this peels suffixes in linear time.
  const combinator = COMBINATORS.find(
    (c) => name.length > c.suffix.length && name.endsWith(c.suffix),
  );
  if (!combinator) return undefined;
  const inner = resolveFunction(name.slice(0, -combinator.suffix.length));
  if (!inner?.aggregate) return undefined;
  return {
    ...inner,
    name: inner.name + combinator.suffix,
    minArgs: inner.minArgs + combinator.extraArgs,
    maxArgs: inner.maxArgs + combinator.extraArgs,
    combinators: [...inner.combinators, combinator.suffix],
  };
}

/** Names for "did you mean" suggestions (all base names). */
export function functionNames(): readonly string[] {
  return NAMES;
}
