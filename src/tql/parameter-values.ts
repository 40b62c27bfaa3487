import {
  TQL_MAX_PARAMETER_ARRAY_ITEMS,
  TQL_MAX_PARAMETER_BYTES,
  TQL_MAX_PARAMETER_STRING_LENGTH,
  TQL_MAX_PARAMETERS,
  TQL_WINDOW_PARAMETERS,
} from "../contracts/tql-dialect.js";
import type { ParamExpr, ParamType } from "./ast.js";
import { timeText } from "./parameter-times.js";
import { showParamType } from "./parameter-types.js";
import { type BoundValue, parameterKey } from "./printer.js";
import { TqlError } from "./tql-errors.js";

const INTEGER_RANGES: Readonly<Record<string, readonly [bigint, bigint]>> = {
  Int8: [-(2n ** 7n), 2n ** 7n - 1n],
  Int16: [-(2n ** 15n), 2n ** 15n - 1n],
  Int32: [-(2n ** 31n), 2n ** 31n - 1n],
  Int64: [-(2n ** 63n), 2n ** 63n - 1n],
  UInt8: [0n, 2n ** 8n - 1n],
  UInt16: [0n, 2n ** 16n - 1n],
  UInt32: [0n, 2n ** 32n - 1n],
  UInt64: [0n, 2n ** 64n - 1n],
};
const INTEGER_TEXT = /^[+-]?\d{1,20}$/;
const FLOAT_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,3})?$/;
const FLOAT32_MAX = 3.4028234663852886e38;
const BOOLEANS = new Map([
  ["true", "true"],
  ["false", "false"],
  ["1", "true"],
  ["0", "false"],
]);

type Fail = (why: string) => TqlError;

/**
 * The values of the placeholders a query uses, each checked against its declared type and
 * turned into what the engine binds (under the printer's name for it, `p_name`); values no
 * placeholder uses are ignored. A missing or unfit value is a TqlError naming `parameters.<name>`
 * at the placeholder's first use.
 */
export function bindParameters(
  used: ReadonlyMap<string, ParamExpr>,
  values: Readonly<Record<string, unknown>> = {},
): Record<string, BoundValue> {
  // The time window's three come on top: a caller may give 64 of its own and the window.
  const given = Object.keys(values).filter(
    (name) => !Object.hasOwn(TQL_WINDOW_PARAMETERS, name),
  ).length;
  if (given > TQL_MAX_PARAMETERS)
    throw new TqlError(
      `At most ${TQL_MAX_PARAMETERS} parameters may be given (${given} were)`,
      undefined,
      undefined,
      "parameters",
    );
  const bound: Record<string, BoundValue> = {};
  for (const [name, param] of used) {
    // Not as `{name:Type}`: a refusal never reads like the printed SQL (whose guard is {project:String}).
    const shown = `'${name}' (${showParamType(param.type)}${param.macro ? `, of ${param.macro}` : ""})`;
    const fail: Fail = (why) =>
      new TqlError(`Parameter ${shown} ${why}`, param.pos, undefined, `parameters.${name}`);
    if (!Object.hasOwn(values, name)) throw fail(`has no value: give it as parameters.${name}`);
    bound[parameterKey(name)] = boundValue(values[name], param.type, fail);
  }
  checkTotalSize(used, bound);
  return bound;
}

/**
 * The used values' size together, against TQL_MAX_PARAMETER_BYTES: the engine reads them all in
 * one statement of bounded size (escaping at most quadruples a byte), so a larger set is refused
 * here, naming the largest value, rather than failing there.
 */
function checkTotalSize(used: ReadonlyMap<string, ParamExpr>, bound: Record<string, BoundValue>) {
  let total = 0;
  let largest: { param: ParamExpr; size: number } | undefined;
  for (const param of used.values()) {
    const value = bound[parameterKey(param.name)] ?? "";
    const size = Array.isArray(value)
      ? value.reduce((sum: number, item: string | number) => sum + byteSize(item) + 3, 0)
      : byteSize(value as string | number);
    total += size;
    if (!largest || size > largest.size) largest = { param, size };
  }
  if (total <= TQL_MAX_PARAMETER_BYTES || !largest) return;
  const { name } = largest.param;
  throw new TqlError(
    `The parameters' values total ${total.toLocaleString("en-US")} bytes; at most ${TQL_MAX_PARAMETER_BYTES.toLocaleString("en-US")} (the largest is ${name}, ${largest.size.toLocaleString("en-US")} bytes)`,
    largest.param.pos,
    undefined,
    `parameters.${name}`,
  );
}

const byteSize = (value: string | number): number =>
  typeof value === "number" ? String(value).length : Buffer.byteLength(value, "utf8");

function boundValue(value: unknown, type: ParamType, fail: Fail): BoundValue {
  if (!type.array) {
    if (Array.isArray(value)) throw fail("takes one value, not a list");
    return scalarValue(value, type, false, fail);
  }
  if (!Array.isArray(value))
    throw fail(`needs a list of ${type.scalar} values, not ${kindOf(value)}`);
  if (value.length > TQL_MAX_PARAMETER_ARRAY_ITEMS)
    throw fail(`has ${value.length} items; at most ${TQL_MAX_PARAMETER_ARRAY_ITEMS}`);
  return value.map((item: unknown, index) =>
    scalarValue(item, type, true, (why) => fail(`item ${index} ${why}`)),
  );
}

/**
 * One value of a scalar type. Numbers may come as numeric strings too (a dashboard variable's
 * value is text), and 64-bit integers beyond 2^53 only as strings (a JSON number loses digits).
 * Inside a list, integers are numbers (the engine reads a list's items as literals).
 */
function scalarValue(
  value: unknown,
  type: ParamType,
  inList: boolean,
  fail: Fail,
): string | number {
  if (typeof value === "string" && value.length > TQL_MAX_PARAMETER_STRING_LENGTH)
    throw fail(`is ${value.length} characters long; at most ${TQL_MAX_PARAMETER_STRING_LENGTH}`);
  const { scalar } = type;
  const range = INTEGER_RANGES[scalar];
  if (range) return integerValue(value, scalar, range, inList, fail);
  switch (scalar) {
    case "String":
      if (typeof value !== "string") throw fail(`needs a string, not ${kindOf(value)}`);
      return value;
    case "Bool": {
      const text =
        typeof value === "boolean" || typeof value === "string" || typeof value === "number"
          ? BOOLEANS.get(String(value).trim().toLowerCase())
          : undefined;
      if (text === undefined) throw fail(`needs true or false, not ${kindOf(value)}`);
      return text;
    }
    case "Float32":
    case "Float64": {
      const number =
        typeof value === "number"
          ? value
          : typeof value === "string" && FLOAT_TEXT.test(value.trim())
            ? Number(value)
            : Number.NaN;
      if (!Number.isFinite(number)) throw fail(`needs a finite number, not ${kindOf(value)}`);
      if (scalar === "Float32" && Math.abs(number) > FLOAT32_MAX)
        throw fail("is beyond the range of Float32");
      return number;
    }
    default: {
      if (typeof value !== "string") throw fail(`needs a date as a string, not ${kindOf(value)}`);
      const time = timeText(value, type);
      if ("problem" in time) throw fail(time.problem);
      return time.text;
    }
  }
}

function integerValue(
  value: unknown,
  scalar: string,
  [min, max]: readonly [bigint, bigint],
  inList: boolean,
  fail: Fail,
): string | number {
  let integer: bigint;
  if (typeof value === "number") {
    if (!Number.isInteger(value)) throw fail(`needs a whole number, not ${value}`);
    if (!Number.isSafeInteger(value))
      throw fail("is beyond ±2^53 as a JSON number, which loses digits: send it as a string");
    integer = BigInt(value);
  } else if (typeof value === "string" && INTEGER_TEXT.test(value.trim())) {
    integer = BigInt(value.trim());
  } else {
    throw fail(`needs a whole number, not ${kindOf(value)}`);
  }
  if (integer < min || integer > max)
    throw fail(`is outside the range of ${scalar} (${min} to ${max})`);
  if (!inList) return integer.toString();
  const number = Number(integer);
  if (!Number.isSafeInteger(number))
    throw fail("is beyond ±2^53, which a list item cannot hold; compare with a single parameter");
  return number;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return value.length === 0 ? "an empty string" : "the text given";
  if (typeof value === "number") return Number.isFinite(value) ? "a number" : "a non-finite number";
  if (typeof value === "boolean") return "a boolean";
  if (value === undefined) return "nothing";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
