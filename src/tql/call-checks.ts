import { closestName } from "../contracts/name-suggestion.js";
import type { CallExpr } from "./ast.js";
import { functionNames, type ResolvedFunction, resolveFunction } from "./functions.js";
import { TqlError } from "./tql-errors.js";

/** The allow-list entry a call names (combinators included), or a refusal naming the closest one. */
export function resolveCall(call: CallExpr): ResolvedFunction {
  const resolved = resolveFunction(call.name);
  if (!resolved) throw new TqlError(unknownFunction(call.name), call.pos);
  return resolved;
}

/**
 * Refuses a call whose number of arguments or parameters does not fit its function, or a
 * parametric aggregate called without its parameters. True for `count(*)`, whose star is no
 * argument to analyze.
 */
export function checkCallArity(call: CallExpr, resolved: ResolvedFunction): boolean {
  const { name } = resolved;
  const args = call.args;
  const isCountStar =
    args.length === 1 && args[0]?.kind === "star" && resolved.def.name === "count";
  const arity = isCountStar ? 0 : args.length;
  // count(DISTINCT a, b) counts distinct tuples.
  const maxArgs =
    call.distinct && resolved.def.name === "count" ? Number.POSITIVE_INFINITY : resolved.maxArgs;
  if (arity < resolved.minArgs || arity > maxArgs)
    throw new TqlError(
      `${name} takes ${range(resolved.minArgs, resolved.maxArgs)} argument${resolved.maxArgs === 1 ? "" : "s"}, not ${arity}`,
      call.pos,
    );
  if (call.params) {
    if (!resolved.params)
      throw new TqlError(
        `${name} does not take parameters: write ${name}(…) with one argument list`,
        call.pos,
      );
    const { min, max } = resolved.params;
    if (call.params.length < min || call.params.length > max)
      throw new TqlError(
        `${name} takes ${range(min, max)} parameter${max === 1 ? "" : "s"}, not ${call.params.length}`,
        call.pos,
      );
  } else if (resolved.params && resolved.params.min > 0) {
    throw new TqlError(`${name} needs parameters: ${name}(…)(…)`, call.pos);
  }
  return isCountStar;
}

function range(min: number, max: number): string {
  if (min === max) return String(min);
  if (max === Number.POSITIVE_INFINITY) return `at least ${min}`;
  return `${min} to ${max}`;
}

function unknownFunction(name: string): string {
  const hint = closestName(name, functionNames());
  return `Unknown or disallowed function '${name}'${hint ? `. Did you mean '${hint}'?` : "."} See docs/tql-functions.md for the functions TQL allows`;
}
