import { TQL_PARAMETER_TYPES, type TqlParameterType } from "../contracts/tql-dialect.js";
import type { ParamType, TypeArg, TypeNode } from "./ast.js";
import { TqlError } from "./tql-errors.js";

const ALLOWED = `${TQL_PARAMETER_TYPES.filter((name) => name !== "DateTime64").join(", ")}, DateTime64(precision) or Array(T) of one of them`;

/** The whitelisted spelling of a type name, matched without regard to case. */
function scalarName(name: string): TqlParameterType | undefined {
  return TQL_PARAMETER_TYPES.find((known) => known.toLowerCase() === name.toLowerCase());
}

/** A placeholder's declared type, refused unless it is on the whitelist (TQL_PARAMETER_TYPES). */
export function parameterType(node: TypeNode): ParamType {
  if (node.name.toLowerCase() === "array") {
    const [element] = node.args;
    if (node.args.length !== 1 || element?.kind !== "type")
      throw new TqlError("Array takes one element type: Array(String)", node.pos);
    if (element.type.name.toLowerCase() === "array")
      throw new TqlError(
        "A parameter may be an array of a scalar type, not an array of arrays",
        element.type.pos,
      );
    return { ...scalarType(element.type), array: true };
  }
  return { ...scalarType(node), array: false };
}

function scalarType(node: TypeNode): Omit<ParamType, "array"> {
  const scalar = scalarName(node.name);
  if (!scalar)
    throw new TqlError(`A parameter's type is one of ${ALLOWED}; not '${node.name}'`, node.pos);
  if (scalar !== "DateTime64") {
    if (node.args.length > 0)
      throw new TqlError(
        `${scalar} takes no arguments here${scalar === "DateTime" ? " (parameters are in UTC)" : ""}`,
        node.pos,
      );
    return { scalar };
  }
  return { scalar, precision: precisionOf(node.args, node.pos) };
}

function precisionOf(args: readonly TypeArg[], pos: number): number {
  const [arg] = args;
  if (args.length !== 1 || arg?.kind !== "number" || !/^\d$/.test(arg.value))
    throw new TqlError(
      "DateTime64 takes one precision from 0 to 9 here (parameters are in UTC): DateTime64(3)",
      pos,
    );
  return Number(arg.value);
}

/** The type as a query writes it: `DateTime64(3)`, `Array(String)`. */
export function showParamType(type: ParamType): string {
  const scalar = type.scalar === "DateTime64" ? `DateTime64(${type.precision})` : type.scalar;
  return type.array ? `Array(${scalar})` : scalar;
}

/**
 * The type as the engine reads it: the date-times in UTC, as every TQL table's, so a value means
 * the same instant whatever the server's time zone (parameter-values.ts writes them in UTC).
 */
export function printParamType(type: ParamType): string {
  const scalar =
    type.scalar === "DateTime64"
      ? `DateTime64(${type.precision}, 'UTC')`
      : type.scalar === "DateTime"
        ? "DateTime('UTC')"
        : type.scalar;
  return type.array ? `Array(${scalar})` : scalar;
}

export function sameParamType(a: ParamType, b: ParamType): boolean {
  return showParamType(a) === showParamType(b);
}
